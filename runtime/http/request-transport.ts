/**
 * A transport that lives for one HTTP POST: stateless serving (the 2026-07-28 era, and handshake-era servers
 * run without sessions). The message goes in, related notifications and the response come out on this POST,
 * and the transport closes. When the client closes the response stream, that is the cancellation: the
 * context signal aborts, the transport closes and nothing more is sent for the request.
 */
import type { IncomingContext, OutgoingOptions, Transport, TransportSink } from "../transport/transport.ts";
import { Exchange, type ResponseMode, type RequestId } from "./exchange.ts";
import type { HttpResponseOut } from "./types.ts";

const PREAMBLE_ID = "mcp-gen-stateless-initialize";

export class RequestTransport implements Transport {
  private sink: TransportSink | undefined;
  private closed = false;
  private exchange: Exchange | undefined;

  constructor(
    private readonly message: object,
    private readonly requestId: RequestId | undefined,
    private readonly options: {
      readonly mode: ResponseMode;
      readonly keepAliveMs?: number;
      readonly statusOf?: (response: object) => number;
      /** The HTTP request's own signal (aborted when the client goes away). */
      readonly signal?: AbortSignal | undefined;
      /** Stateless era: going away cancels the request (handlers see an aborted `context.signal`). */
      readonly cancelOnClose: boolean;
      /**
       * Handshake era without sessions: the server session needs an `initialize` before it serves anything, so
       * one is replayed first (at this revision, empty client capabilities) and its answer kept off the wire.
       */
      readonly handshakeRevision?: string;
    },
  ) {}

  async start(sink: TransportSink): Promise<void> {
    this.sink = sink;
  }

  /** Deliver the message; resolves with the HTTP answer (202 for a notification). */
  run(context: IncomingContext): Promise<HttpResponseOut> {
    const sink = this.sink;
    if (!sink) throw new Error("RequestTransport.run before start");
    const revision = this.options.handshakeRevision;
    if (revision !== undefined && (this.message as { method?: unknown }).method !== "initialize") {
      const params = { protocolVersion: revision, capabilities: {}, clientInfo: { name: "stateless-http-client", version: "0" } };
      sink.receive({ jsonrpc: "2.0", id: PREAMBLE_ID, method: "initialize", params }, context);
      sink.receive({ jsonrpc: "2.0", method: "notifications/initialized" }, context);
    }
    if (this.requestId === undefined) {
      sink.receive(this.message, context);
      void this.close();
      return Promise.resolve({ status: 202, headers: {} });
    }
    const exchange = new Exchange({
      streamId: "0",
      mode: this.options.mode,
      batch: false,
      headers: {},
      keepAliveMs: this.options.keepAliveMs ?? 0,
      ...(this.options.statusOf ? { statusOf: this.options.statusOf } : {}),
    });
    this.exchange = exchange;
    exchange.outstanding.add(this.requestId);
    exchange.onFinished = () => void this.close();
    const cancel = this.options.cancelOnClose ? new AbortController() : undefined;
    const gone = () => {
      if (exchange.finished) return;
      cancel?.abort(new Error("the client closed the response stream"));
      void this.close();
    };
    const signal = this.options.signal;
    if (signal?.aborted) gone();
    else signal?.addEventListener("abort", gone, { once: true });
    void exchange.done.then((out) => {
      if (typeof out.body === "object") out.body.onClose(gone);
    });
    sink.receive(this.message, cancel ? { ...context, signal: cancel.signal } : context);
    return exchange.done;
  }

  async send(message: object, options?: OutgoingOptions): Promise<void> {
    const exchange = this.exchange;
    if (this.closed || !exchange) return; // cancelled: MUST NOT send anything more for this request
    if ("id" in message && message.id === PREAMBLE_ID && !("method" in message)) return;
    const answers =
      "id" in message && !("method" in message) && message.id === this.requestId ? this.requestId : undefined;
    if (answers === undefined && options?.relatedRequestId !== this.requestId && "id" in message && "method" in message)
      throw new Error("a stateless HTTP request has no stream for unrelated server requests");
    await exchange.deliver(message, answers);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.exchange?.abort();
    this.sink?.closed();
  }
}
