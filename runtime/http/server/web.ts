/**
 * The web-standard edge: `(request: Request) => Promise<Response>` for Node, Bun, Deno and workers. This module and
 * everything it imports use web APIs only (no `node:*`, `Buffer`, `process`, `setImmediate`; nothing random or timed
 * at construction), which test/runtime/http/server/web-only.test.ts checks by bundling it for a neutral platform.
 */
import type { McpHttpHandler } from "./handler.ts";
import { SseStream } from "./sse.ts";
import { BodyTooLargeError, type HttpRequestIn, type HttpResponseOut } from "./types.ts";

async function readLimited(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) {
    // Not a byte of it is wanted: the host must not go on reading the upload for us.
    request.body?.cancel().catch(() => undefined);
    throw new BodyTooLargeError(limit);
  }
  if (!request.body) return "";
  const reader = request.body.getReader();
  // One decoder per body, streaming: a character split across chunks decodes whole. `ignoreBOM` keeps a leading
  // byte-order mark in the text, so JSON.parse refuses it here as serve() and stdio do (RFC 8259 §8.1).
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  let text = "";
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new BodyTooLargeError(limit);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

/** Where a request was sent. Bun gives an HTTP/1.0 request without Host a bare path (`/mcp`) as its URL. */
function targetOf(request: Request): { readonly url: URL | undefined; readonly absolute: boolean } {
  const absolute = /^[a-z][a-z0-9+.-]*:/i.test(request.url);
  try {
    return { url: new URL(request.url, "http://host.invalid"), absolute };
  } catch {
    return { url: undefined, absolute };
  }
}

/** `onTooLarge`: called when the body is refused as too large (the answer should then close the connection). */
export function fromWebRequest(request: Request, onTooLarge?: () => void): HttpRequestIn {
  const { url, absolute } = targetOf(request);
  return {
    method: request.method,
    path: url?.pathname ?? "",
    search: url?.search ?? "",
    // A Request built in-process may lack Host; an absolute URL then says where it was sent.
    header: (name) => request.headers.get(name) ?? (name === "host" && absolute && url?.host ? url.host : undefined),
    readBody: (limit) =>
      readLimited(request, limit).catch((error: unknown) => {
        if (error instanceof BodyTooLargeError) onTooLarge?.();
        throw error;
      }),
    onGone: (listener) => {
      if (request.signal.aborted) listener();
      else request.signal.addEventListener("abort", listener, { once: true });
    },
  };
}

const encoder = new TextEncoder();
const MAX_BUFFERED_SSE_BYTES = 8 * 1024 * 1024;

export function toWebResponse(out: HttpResponseOut): Response {
  const body = out.body;
  if (!(body instanceof SseStream))
    return new Response(body === "" ? null : (body ?? null), {
      status: out.status,
      headers: out.headers,
    });
  const readable = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        body.attach({
          write: (chunk) => {
            controller.enqueue(encoder.encode(chunk));
            // A consumer that stops reading must not make us buffer without bound: drop it like a vanished one.
            if ((controller.desiredSize ?? 0) < -MAX_BUFFERED_SSE_BYTES) {
              controller.error(new Error("SSE consumer too slow"));
              body.peerClosed();
            }
          },
          end: () => {
            try {
              controller.close();
            } catch {
              // already closed by a cancel
            }
            body.peerClosed();
          },
        });
      },
      cancel() {
        body.peerClosed();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
  );
  return new Response(readable, { status: out.status, headers: out.headers });
}

/** A fetch-style handler for an `McpHttpHandler`. */
export function toFetchHandler(handler: McpHttpHandler): (request: Request) => Promise<Response> {
  return async (request) => {
    let tooLarge = false;
    const out = await handler.handle(fromWebRequest(request, () => (tooLarge = true)));
    try {
      // After a refused upload the connection must close: a host keeping it alive would read the rest of the upload.
      return toWebResponse(tooLarge ? { ...out, headers: { ...out.headers, connection: "close" } } : out);
    } catch (error) {
      // e.g. a header value `Headers` refuses: answer 500 rather than reject into the host's error path.
      handler.reportError(error);
      return new Response(null, { status: 500 });
    }
  };
}
