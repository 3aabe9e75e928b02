/** Talking to the attacked process: newline-delimited stdio, HTTP POSTs, and SSE streams (legacy and POST answers). */
import { request as httpRequest, type IncomingMessage } from "node:http";
import type { Writable, Readable } from "node:stream";
import type { Answer } from "../check.ts";

/** Everything the peer has received, in order, parsed (a line that is not JSON is kept with value undefined). */
export class MessageLog {
  readonly received: Answer[] = [];
  private waiters: Array<() => void> = [];

  push(raw: string): void {
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      value = undefined;
    }
    this.received.push({ value, raw });
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Resolves once `ready()` holds; rejects after `timeoutMs` with `what` in the message. */
  async until(ready: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!ready()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 1000));
        this.waiters.push(() => (clearTimeout(timer), resolve()));
      });
    }
  }
}

/** A newline-delimited JSON peer over a child's stdin/stdout. */
export class StdioPeer extends MessageLog {
  private buffered = "";

  constructor(
    private readonly stdin: Writable,
    stdout: Readable,
  ) {
    super();
    stdout.setEncoding("utf8");
    stdout.on("data", (chunk: string) => {
      this.buffered += chunk;
      let nl: number;
      while ((nl = this.buffered.indexOf("\n")) !== -1) {
        const line = this.buffered.slice(0, nl);
        this.buffered = this.buffered.slice(nl + 1);
        if (line.trim() !== "") this.push(line);
      }
    });
  }

  write(bytes: Buffer): Promise<void> {
    return new Promise((resolve, reject) =>
      this.stdin.write(Buffer.concat([bytes, Buffer.from("\n")]), (e) => (e ? reject(e) : resolve())),
    );
  }
}

/** The `data` of each SSE event in `text` (complete events only), with their event names. */
export function sseEvents(text: string): Array<{ event: string; data: string }> {
  const events: Array<{ event: string; data: string }> = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    let event = "message";
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    if (data.length > 0) events.push({ event, data: data.join("\n") });
  }
  return events;
}

export interface HttpAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly headers: Headers;
  readonly text: string;
  /** JSON-RPC messages in the body: the JSON value, or each SSE `message` event. */
  readonly answers: Answer[];
}

export const POST_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

export async function postFrame(
  url: string,
  body: Buffer | string,
  headers: Record<string, string>,
  timeoutMs = 15_000,
): Promise<HttpAnswer> {
  // A server that never answers must fail the property, not hang it.
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { ...POST_HEADERS, ...headers },
      body: typeof body === "string" ? body : new Uint8Array(body),
      signal,
    });
    text = await response.text();
  } catch (error) {
    if (signal.aborted) throw new Error(`no complete HTTP answer within ${timeoutMs} ms`, { cause: error });
    throw error;
  }
  const contentType = response.headers.get("content-type") ?? "";
  const answers: Answer[] = [];
  const log = new MessageLog();
  if (contentType.startsWith("text/event-stream"))
    for (const e of sseEvents(text)) if (e.event === "message") log.push(e.data);
  if (contentType.startsWith("application/json") && text !== "") log.push(text);
  answers.push(...log.received);
  return { status: response.status, contentType, headers: response.headers, text, answers };
}

/** A legacy (2024-11-05) SSE stream: the endpoint to POST to, and every `message` event as it arrives. */
export class LegacyStream extends MessageLog {
  endpoint = "";
  private response: IncomingMessage | undefined;
  private buffered = "";

  static async open(sseUrl: string): Promise<LegacyStream> {
    const stream = new LegacyStream();
    await new Promise<void>((resolve, reject) => {
      const req = httpRequest(sseUrl, { headers: { accept: "text/event-stream" } }, (res) => {
        stream.response = res;
        if (res.statusCode !== 200) return reject(new Error(`GET /sse: HTTP ${res.statusCode}`));
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          stream.buffered += chunk;
          const end = stream.buffered.lastIndexOf("\n\n");
          if (end === -1) return;
          const complete = stream.buffered.slice(0, end + 2);
          stream.buffered = stream.buffered.slice(end + 2);
          for (const e of sseEvents(complete)) {
            if (e.event === "endpoint") {
              stream.endpoint = new URL(e.data, sseUrl).toString();
              resolve();
            } else if (e.event === "message") stream.push(e.data);
          }
        });
      });
      req.on("error", reject);
      req.end();
    });
    return stream;
  }

  close(): void {
    this.response?.destroy();
  }
}
