/**
 * A transport for stateless serving (the 2026-07-28 era, and handshake-era servers run without sessions): one
 * HTTP POST at a time. The message goes in, related notifications and the response come out on that POST. When the
 * client closes the response stream, that is the cancellation: the context signal aborts, the transport closes and
 * nothing more is sent for the request. A transport whose request finished normally can serve the next POST
 * (`onIdle`), so a server session is not built and torn down for every request.
 */
import {
  deliverClassified,
  type IncomingContext,
  type OutgoingOptions,
  type Transport,
  type TransportSink,
} from "../../transport/transport.ts";
import type { Posted } from "./answers.ts";
import { DELIVERED, Exchange, type ResponseMode, type RequestId } from "./exchange.ts";
import type { GoneSource, HttpResponseOut } from "./types.ts";

const PREAMBLE_ID = "mcp-gen-stateless-initialize";

export interface StatelessServeOptions {
  readonly mode: ResponseMode;
  readonly keepAliveMs?: number;
  readonly statusOf?: ((response: object) => number) | undefined;
  /** Stateless era: going away cancels the request (handlers see an aborted `context.signal`). */
  readonly cancelOnClose: boolean;
  /**
   * Handshake era without sessions: the server session needs an `initialize` before it serves anything, so one is
   * replayed first (at this revision, empty client capabilities) and its answer kept off the wire.
   */
  readonly handshakeRevision?: string | undefined;
}

export class RequestTransport implements Transport {
  private sink: TransportSink | undefined;
  private closed = false;
  private exchange: Exchange | undefined;
  private requestId: RequestId | undefined;
  /**
   * The carrier signal of every request this transport serves. One per transport, not per request: it is aborted
   * only when a client goes away mid-request, and then the transport closes and serves nothing more.
   */
  private cancel: AbortController | undefined;
  private readonly onExchangeFinished = () => this.idle();

  /**
   * `onIdle`: called when a request finished normally and the transport may serve another; else it closes.
   * `running`: holds this transport while it serves a request (what a shutdown waits for).
   */
  constructor(
    private readonly onIdle?: (transport: RequestTransport) => void,
    private readonly running?: Set<RequestTransport>,
  ) {}

  async start(sink: TransportSink): Promise<void> {
    this.sink = sink;
  }

  /** Deliver one message, as the handler classified it; resolves with the HTTP answer (202 for a notification). */
  run(
    posted: Posted,
    options: StatelessServeOptions,
    context: IncomingContext,
    client?: GoneSource,
  ): HttpResponseOut | Promise<HttpResponseOut> {
    const sink = this.sink;
    if (!sink || this.closed || this.exchange) throw new Error("RequestTransport.run: not started, closed or busy");
    const revision = options.handshakeRevision;
    // Without a session, no later POST can carry the client's answer to a request from the server.
    // Object.assign, not a spread followed by a key (V8's slow path, see jsonResponse): this is per request.
    if (revision !== undefined) context = Object.assign({}, context, { serverRequests: false as const });
    if (revision !== undefined && posted.method !== "initialize") {
      const params = {
        protocolVersion: revision,
        capabilities: {},
        clientInfo: { name: "stateless-http-client", version: "0" },
      };
      const initialize = { jsonrpc: "2.0", id: PREAMBLE_ID, method: "initialize", params } as const;
      deliverClassified(sink, { kind: "request", message: initialize }, context);
      deliverClassified(
        sink,
        { kind: "notification", message: { jsonrpc: "2.0", method: "notifications/initialized" } },
        context,
      );
    }
    const { classified, id: requestId } = posted;
    if (requestId === undefined) {
      deliverClassified(sink, classified, context);
      this.idle();
      return { status: 202, headers: {} };
    }
    const cancel = options.cancelOnClose ? (this.cancel ??= new AbortController()) : undefined;
    const exchange = new Exchange({
      streamId: "0",
      mode: options.mode,
      batch: false,
      headers: undefined,
      keepAliveMs: options.keepAliveMs ?? 0,
      statusOf: options.statusOf,
    });
    const gone = this.goneListener(exchange, cancel);
    exchange.onStreamClosed = gone;
    this.exchange = exchange;
    this.requestId = requestId;
    exchange.outstanding.add(requestId);
    exchange.onFinished = this.onExchangeFinished;
    this.running?.add(this);
    client?.onGone(gone);
    deliverClassified(sink, classified, cancel ? Object.assign({}, context, { signal: cancel.signal }) : context);
    return exchange.answer;
  }

  /** Not async: a plain-JSON answer is delivered here, with no promise chain (this is per request). */
  send(message: object, options?: OutgoingOptions): Promise<void> {
    const exchange = this.exchange;
    if (this.closed || !exchange) return DELIVERED; // cancelled or finished: MUST NOT send anything more for it
    if ("id" in message && message.id === PREAMBLE_ID && !("method" in message)) return DELIVERED;
    const answers =
      "id" in message && !("method" in message) && message.id === this.requestId ? this.requestId : undefined;
    if (answers === undefined && options?.relatedRequestId !== this.requestId && "id" in message && "method" in message)
      return Promise.reject(new Error("a stateless HTTP request has no stream for unrelated server requests"));
    return exchange.deliver(message, answers) ?? DELIVERED;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.running?.delete(this);
    // No session to lose: a request this transport drops may simply be sent again.
    this.exchange?.abort("retry");
    this.sink?.closed();
  }

  /** Shutting down, the deadline passed: the request still running gets its retryable error, and the transport closes. */
  async giveUp(): Promise<void> {
    if (this.closed) return;
    this.closed = true; // serves nothing more, and is not parked for another request
    this.running?.delete(this);
    await this.exchange?.giveUp();
    this.sink?.closed();
  }

  /** Runs when the client of `exchange` goes away mid-request: cancel it and close (a transport is not reused after). */
  private goneListener(exchange: Exchange, cancel: AbortController | undefined): () => void {
    return () => {
      if (exchange.finished || this.exchange !== exchange) return;
      cancel?.abort(new Error("the client closed the response stream"));
      void this.close();
    };
  }

  private idle(): void {
    this.running?.delete(this);
    this.exchange = undefined;
    this.requestId = undefined;
    if (this.onIdle && !this.closed) this.onIdle(this);
    else void this.close();
  }
}
