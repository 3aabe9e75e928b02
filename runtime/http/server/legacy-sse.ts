/**
 * The deprecated HTTP+SSE transport of 2024-11-05, for old clients: GET on the SSE path opens a stream whose
 * first event, `endpoint`, names the URL to POST messages to; every server message is a `message` event on
 * that one stream. The session lives as long as the stream.
 */
import type { IncomingContext, Transport, TransportSink } from "../../transport/transport.ts";
import { SseStream, SSE_HEADERS } from "./sse.ts";
import type { HttpResponseOut } from "./types.ts";

export class LegacySseTransport implements Transport {
  private sink: TransportSink | undefined;
  private closed = false;
  readonly stream = new SseStream();
  /** Who opened the stream; messages from another principal are refused. */
  principal: string | undefined;

  constructor(
    readonly sessionId: string,
    endpoint: string,
    keepAliveMs: number,
    private readonly onClosed: (transport: LegacySseTransport) => void,
  ) {
    this.stream.send({ event: "endpoint", data: endpoint });
    this.stream.startKeepAlive(keepAliveMs);
    this.stream.onClose(() => void this.close());
  }

  response(): HttpResponseOut {
    return { status: 200, headers: SSE_HEADERS, body: this.stream };
  }

  async start(sink: TransportSink): Promise<void> {
    this.sink = sink;
  }

  receive(message: object, context: IncomingContext): void {
    this.sink?.receive(message, context);
  }

  async send(message: object): Promise<void> {
    if (this.closed) throw new Error("SSE stream closed");
    this.stream.send({ event: "message", data: JSON.stringify(message) });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stream.end();
    this.onClosed(this);
    this.sink?.closed();
  }
}
