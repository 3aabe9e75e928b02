/** Reading an SSE response body with `eventsource-parser`, remembering the last event id and `retry`. */
import { createParser } from "eventsource-parser";
import { TransportRefusalError } from "../../jsonrpc/errors.ts";
import type { HttpAnswer } from "./requester.ts";

export interface SseCursor {
  lastEventId: string | undefined;
  retryMs: number | undefined;
}

/** Text that is safe as an HTTP header value: visible ASCII and spaces. */
const HEADER_TEXT = /^[\x20-\x7e]*$/;

export interface SseHandlers {
  onMessage(data: string, event: string | undefined): void;
}

/** Consume `answer`'s body until it ends; resolves normally on end, rejects on a network error (cursor stays valid). */
export async function readSse(answer: HttpAnswer, cursor: SseCursor, handlers: SseHandlers): Promise<void> {
  const parser = createParser({
    onEvent: (event) => {
      // The id goes back in a Last-Event-ID header: one that cannot be a header value is not kept (no resumption).
      if (event.id !== undefined) cursor.lastEventId = HEADER_TEXT.test(event.id) ? event.id : undefined;
      // A priming event (id, empty data) only moves the cursor.
      if (event.data === "") return;
      handlers.onMessage(event.data, event.event);
    },
    onRetry: (ms) => {
      cursor.retryMs = ms;
    },
  });
  // Each chunk goes to the parser as it arrives; the parser hands out events without copying the stream.
  await answer.readText((text) => parser.feed(text));
}

/** The parameters of a `WWW-Authenticate: Bearer k="v", …` challenge (lower-case keys). */
export function parseBearerChallenge(header: string | null): Record<string, string> | undefined {
  if (!header || !/^\s*Bearer\b/i.test(header)) return undefined;
  const params: Record<string, string> = {};
  const re = /([A-Za-z_][A-Za-z0-9_-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g;
  for (const match of header.slice(header.search(/Bearer/i) + 6).matchAll(re))
    params[match[1]!.toLowerCase()] = (match[2] ?? match[3] ?? "").replace(/\\(.)/g, "$1");
  return params;
}

/** An HTTP answer that is not a JSON-RPC message: the status, headers and body text (401/403: `accessDenied`). */
export class HttpError extends TransportRefusalError {
  constructor(
    readonly status: number,
    readonly body: string,
    readonly headers: Headers,
  ) {
    super(`HTTP ${status}${body ? `: ${body.slice(0, 200)}` : ""}`, status === 401 || status === 403);
    this.name = "HttpError";
  }

  /** The bearer challenge of a 401/403, e.g. `{ resource_metadata, scope, error }`. */
  get challenge(): Record<string, string> | undefined {
    return parseBearerChallenge(this.headers.get("www-authenticate"));
  }
}

export const delay = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
