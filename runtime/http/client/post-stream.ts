/**
 * The SSE stream a POST is answered with: its messages go to the session, and when it breaks before the response the
 * client resumes it with GET + `Last-Event-ID` where the era does, or fails the request.
 */
import type { HttpClientEra } from "./era.ts";
import { resumeStream, waitToReconnect, type GetContext } from "./get-stream.ts";
import { excerpt, parse, type Id, type Message } from "./options.ts";
import { readSse, type SseCursor } from "./sse.ts";
import type { HttpAnswer, RequestAbort } from "./requester.ts";

/** Where the stream's messages and problems go (the transport's session). */
export interface StreamReceiver {
  deliver(message: Message): void;
  /** Settles the request with an error of the transport's own. */
  fail(id: Id, reason: string): void;
  malformed(reason: string): void;
}

/** Reads a POST's stream until it carries the answer to `id` (or to the end, for a request-less POST). */
export async function readPostStream(
  context: GetContext,
  body: HttpAnswer,
  id: Id | undefined,
  era: HttpClientEra,
  controller: RequestAbort,
  receiver: StreamReceiver,
): Promise<void> {
  const cursor: SseCursor = { lastEventId: undefined, retryMs: undefined };
  let answered = false;
  const onMessage = (data: string) => {
    const parsed = parse(data);
    if (!parsed) {
      if (id === undefined || answered)
        return receiver.malformed(`SSE data is not a JSON-RPC message: ${excerpt(data)}`);
      // The stream that should carry this request's answer is unreadable: fail the request and stop reading.
      answered = true;
      receiver.fail(id, `the server's SSE stream carried data that is not a JSON-RPC message: ${excerpt(data)}`);
      controller.abort();
      return;
    }
    for (const message of parsed) {
      if (id !== undefined && message["id"] === id && !("method" in message)) answered = true;
      receiver.deliver(message);
    }
  };
  let stream: HttpAnswer | undefined = body;
  for (let attempt = 0; ; attempt++) {
    try {
      if (stream) await readSse(stream, cursor, { onMessage });
    } catch {
      // network error: fall through to resumption
    }
    const endedAt = performance.now();
    if (answered || id === undefined || controller.aborted || context.signal.aborted) return;
    const max = context.reconnect?.maxAttempts ?? 5;
    if (!era.resumesStreams || cursor.lastEventId === undefined || attempt >= max) {
      receiver.deliver({
        jsonrpc: "2.0",
        id,
        error: { code: -32000, message: "Connection closed: the HTTP stream ended before the response" },
      });
      return;
    }
    const headers = await waitToReconnect(context, cursor, attempt, endedAt);
    stream = await resumeStream(context, cursor.lastEventId, headers);
  }
}
