/**
 * The web-standard edge: `(request: Request) => Promise<Response>` for Node, Bun, Deno and workers. This module and
 * everything it imports use web APIs only (no `node:*`, `Buffer`, `process`, `setImmediate`; nothing random or timed
 * at construction), which test/http/web-only.test.ts checks by bundling it for a neutral platform.
 */
import type { McpHttpHandler } from "./handler.ts";
import { SseStream } from "./sse.ts";
import { BodyTooLargeError, type HttpRequestIn, type HttpResponseOut } from "./types.ts";

async function readLimited(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw new BodyTooLargeError(limit);
  if (!request.body) return "";
  const reader = request.body.getReader();
  // One decoder per body, streaming: a character split across chunks decodes whole.
  const decoder = new TextDecoder();
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

export function fromWebRequest(request: Request): HttpRequestIn {
  const url = new URL(request.url);
  return {
    method: request.method,
    path: url.pathname,
    search: url.search,
    // A Request built in-process may lack Host; its URL then says where it was sent.
    header: (name) => request.headers.get(name) ?? (name === "host" ? url.host : undefined),
    readBody: (limit) => readLimited(request, limit),
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
    const out = await handler.handle(fromWebRequest(request));
    try {
      return toWebResponse(out);
    } catch (error) {
      // e.g. a header value `Headers` refuses: answer 500 rather than reject into the host's error path.
      handler.reportError(error);
      return new Response(null, { status: 500 });
    }
  };
}
