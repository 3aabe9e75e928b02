/**
 * The one HTTP operation the client transport needs: send a request, get an answer whose body is read as a whole or
 * streamed as text. Two implementations: `fetch` (browsers, Deno, Bun, workers, or a `fetch` the user wraps, e.g.
 * `oauthFetch`) and `node:http` with a keep-alive agent (node-requester.ts), which costs a fraction of Node's `fetch`
 * per request. `requesterFor` (pick-requester.ts) picks one from the options and the platform.
 */
export interface HttpRequestInit {
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
  /** Aborting it ends the request and its answer's body (one signal per request). */
  readonly signal?: AbortSignalLike;
}

/** The part of `AbortSignal` a requester reads: an `AbortSignal` fits, and so does the lighter `RequestAbort`. */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { readonly once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/**
 * One request's abort signal, for the transport's POSTs. Node's `AbortController` costs several µs per request to
 * make and to hand to `node:http` (which ties it to the socket with further listeners); this one is a flag and a
 * listener list. A requester that needs a real `AbortSignal` (fetch) makes one from it with `toAbortSignal`.
 */
export class RequestAbort implements AbortSignalLike {
  aborted = false;
  reason: unknown = undefined;
  private listeners: Array<() => void> | undefined;

  addEventListener(_type: "abort", listener: () => void): void {
    if (this.aborted) return;
    (this.listeners ??= []).push(listener);
  }

  removeEventListener(_type: "abort", listener: () => void): void {
    const at = this.listeners?.indexOf(listener) ?? -1;
    if (at >= 0) this.listeners!.splice(at, 1);
  }

  abort(reason: unknown = new DOMException("This operation was aborted", "AbortError")): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = undefined;
    if (listeners) for (const listener of listeners) listener();
  }
}

/** `signal` as a web `AbortSignal` (itself when it is one). */
export function toAbortSignal(signal: AbortSignalLike): AbortSignal {
  if (signal instanceof AbortSignal) return signal;
  const controller = new AbortController();
  if (signal.aborted) controller.abort(signal.reason);
  else signal.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
  return controller.signal;
}

export interface HttpAnswer {
  readonly status: number;
  /** A response header (repeated ones comma-joined), null when absent. */
  header(name: string): string | null;
  /** Every header as web `Headers`, built on demand (error paths read them, e.g. `HttpError.challenge`). */
  headers(): Headers;
  /** The whole body as text. */
  text(): Promise<string>;
  /** Hands the body to `onText` chunk by chunk as it arrives; resolves at its end, rejects when it breaks. */
  readText(onText: (text: string) => void): Promise<void>;
  /** The body is not wanted: drop it (a bounded body is drained so the connection can be reused). */
  cancel(): Promise<void>;
}

export type HttpRequester = (url: URL, init: HttpRequestInit) => Promise<HttpAnswer>;

/** Requests made with a WHATWG `fetch`. */
export function fetchRequester(fetchFn: typeof fetch): HttpRequester {
  return async (url, init) => {
    const { signal, ...rest } = init;
    const response = await fetchFn(url, signal ? { ...rest, signal: toAbortSignal(signal) } : rest);
    return {
      status: response.status,
      header: (name) => response.headers.get(name),
      headers: () => response.headers,
      text: () => response.text(),
      readText: (onText) => readBody(response.body, onText),
      cancel: async () => {
        await response.body?.cancel();
      },
    };
  };
}

async function readBody(body: ReadableStream<Uint8Array> | null, onText: (text: string) => void): Promise<void> {
  if (!body) return;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      onText(decoder.decode(value, { stream: true }));
    }
  } finally {
    reader.releaseLock();
  }
}
