/**
 * The server side of one handshake-era Streamable HTTP session (2025-03-26 … 2025-11-25), as a `Transport`
 * for the server session. Each POST is an `Exchange`; messages the server sends go to the POST of the request
 * they answer or relate to, else to the session's GET stream, and never to two streams.
 */
import {
  deliverClassified,
  type IncomingContext,
  type OutgoingOptions,
  type Transport,
  type TransportSink,
} from "../../transport/transport.ts";
import type { Posted, PostedRequest } from "./answers.ts";
import type { EventStore } from "./event-store.ts";
import { DELIVERED, Exchange, type AbortOutcome, type RequestId } from "./exchange.ts";
import { messageEvent, SseStream, SSE_HEADERS } from "./sse.ts";
import { emptyResponse, jsonResponse, type GoneSource, type HttpResponseOut } from "./types.ts";
import type { RevisionFacts } from "../../protocol/preference.ts";
import { sendsPrimingEvent } from "./transport-revisions.ts";
import type { SharedHooks } from "./shared-sessions.ts";

const GET_STREAM = "g";

/** The answer to a POST of answers some of which were routed to other instances: the first refusal, else 202. */
async function refusalOf(
  routed: ReadonlyArray<Promise<HttpResponseOut | undefined> | undefined>,
): Promise<HttpResponseOut> {
  const refusals = await Promise.all(routed);
  return refusals.find((refusal) => refusal !== undefined) ?? emptyResponse(202);
}

function isResponse(message: object): message is { id: RequestId } {
  return "id" in message && !("method" in message) && ("result" in message || "error" in message);
}

/** `IncomingContext.closeStream` for the requests of one POST. */
function streamCloser(exchange: Exchange): () => boolean {
  return () => exchange.closeConnection();
}

export interface SessionTransportOptions {
  readonly eventStore?: EventStore | undefined;
  readonly retryMs?: number | undefined;
  readonly keepAliveMs?: number;
  readonly pollAfterMs?: number | undefined;
  readonly onClosed: (session: SessionTransport) => void;
  /** The revisions of the server behind the endpoint (which of them prime their streams). */
  readonly served: readonly RevisionFacts[];
  /** Set when instances share state (the `store` option): what crosses to other instances goes through these. */
  readonly shared?: SharedHooks | undefined;
}

export class SessionTransport implements Transport {
  private sink: TransportSink | undefined;
  private readonly exchanges = new Map<RequestId, Exchange>();
  private readonly byStream = new Map<string, Exchange>();
  private getStream: SseStream | undefined;
  private streamCounter = 0;
  private closed = false;
  private abortOutcome: AbortOutcome = "session-gone";
  /** The negotiated protocol version, learnt from the InitializeResult this transport carried. */
  protocolVersion: string | undefined;
  lastActive = Date.now();
  /** Whether the client completed the handshake (`notifications/initialized`); sessions that do not are evicted early. */
  initialized = false;
  /** Who created the session (token subject/client); later requests must come from the same principal. */
  principal: string | undefined;
  /** The header every answer carries; one object per session (answers only read it). */
  private readonly idHeader: Readonly<Record<string, string>>;
  private readonly forgetStream = (exchange: Exchange) => void this.byStream.delete(exchange.streamId);

  constructor(
    readonly sessionId: string,
    private readonly options: SessionTransportOptions,
  ) {
    this.idHeader = { "mcp-session-id": sessionId };
  }

  async start(sink: TransportSink): Promise<void> {
    this.sink = sink;
  }

  /** Someone is listening or waiting: an open GET stream, or a POST whose client is still connected. */
  get busy(): boolean {
    if (this.getStream !== undefined || this.options.shared?.holdsStream()) return true;
    for (const exchange of this.exchanges.values()) if (!exchange.detached) return true;
    return false;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  hasInFlight(id: RequestId): boolean {
    return this.exchanges.has(id);
  }

  /**
   * Deliver the messages of one POST, as the handler classified them. Requests get an Exchange; the promise is the
   * HTTP answer. `errors`: answers already decided for invalid elements of a batch; they join the batch's answer
   * (JSON-RPC 2.0 §6).
   */
  post(
    requests: readonly PostedRequest[],
    others: readonly Posted[],
    batch: boolean,
    context: IncomingContext,
    mode: "auto" | "sse" | "json",
    client?: GoneSource,
    errors: readonly object[] = [],
  ): HttpResponseOut | Promise<HttpResponseOut> | undefined {
    this.lastActive = Date.now();
    if (requests.length === 0) {
      const routed = others.map((message) => this.receiveOther(message, context));
      if (errors.length > 0) return jsonResponse(200, errors, this.idHeader);
      return routed.some(Boolean) ? refusalOf(routed) : undefined;
    }
    const shared = this.options.shared;
    // Shared state: stream ids are unique across the instances that write the session's events.
    const streamId = shared ? shared.postStream(++this.streamCounter, batch) : String(++this.streamCounter);
    if (shared) for (const request of requests) shared.requestIn(request);
    const exchange = new Exchange({
      streamId,
      mode,
      batch,
      headers: this.idHeader,
      eventStore: this.options.eventStore,
      priming: sendsPrimingEvent(this.options.served, this.protocolVersion),
      retryMs: this.options.retryMs,
      keepAliveMs: this.options.keepAliveMs ?? 0,
      pollAfterMs: this.options.pollAfterMs,
    });
    for (const request of requests) {
      exchange.outstanding.add(request.id);
      this.exchanges.set(request.id, exchange);
    }
    // A stream is looked up by id only to resume it, which needs an event store (or shared state).
    if (shared) {
      this.byStream.set(streamId, exchange);
      exchange.onFinished = (done) => (this.forgetStream(done), shared.streamFinished(done.streamId));
    } else if (this.options.eventStore) {
      this.byStream.set(streamId, exchange);
      exchange.onFinished = this.forgetStream;
    }
    // A client gone before its answer started leaves the exchange to finish into the event store only; it no
    // longer keeps the session from expiring. (Disconnecting is not cancelling in this era.)
    client?.onGone(() => exchange.clientGone());
    if (errors.length > 0) exchange.preset(errors);
    // Answers among a batch's requests that cannot be routed are dropped: the batch's answer is its requests'.
    for (const message of others) void this.receiveOther(message, context);
    // Object.assign, not a spread followed by a key (V8's slow path, see jsonResponse).
    const withClose: IncomingContext = Object.assign({}, context, { closeStream: streamCloser(exchange) });
    for (const request of requests) if (this.sink) deliverClassified(this.sink, request.classified, withClose);
    return exchange.answer;
  }

  /** Undefined once delivered here; the routing's outcome for an answer routed to another instance. */
  private receiveOther(posted: Posted, context: IncomingContext): Promise<HttpResponseOut | undefined> | undefined {
    if (posted.method === "notifications/initialized") this.initialized = true;
    // Shared state: an answer or a cancellation for a request waiting on another instance is routed there.
    const here = this.options.shared?.otherIn(posted, (id) => this.exchanges.has(id)) ?? true;
    if (here instanceof Promise) return here;
    if (here && this.sink) deliverClassified(this.sink, posted.classified, context);
    return undefined;
  }

  /** GET: the stream for messages unrelated to any request, or a resumption with Last-Event-ID. */
  async listen(lastEventId: string | undefined): Promise<HttpResponseOut> {
    this.lastActive = Date.now();
    const headers = Object.assign({}, SSE_HEADERS, this.idHeader);
    const store = this.options.eventStore;
    if (this.options.shared && store) return this.options.shared.listen(lastEventId, headers, GET_STREAM);
    if (lastEventId !== undefined && store) {
      const stream = new SseStream();
      const replayed = store.replayAfter(lastEventId, (id, message) => stream.send(messageEvent(id, message)));
      // With a synchronous store, replay and re-attaching happen in one go: no event can slip in between.
      const streamId = replayed instanceof Promise ? await replayed : replayed;
      if (streamId === undefined) return { status: 400, headers: {}, body: "Unknown Last-Event-ID" };
      if (streamId === GET_STREAM) return this.openGetStream(stream, headers);
      const exchange = this.byStream.get(streamId);
      if (exchange) exchange.resume(stream);
      else stream.end();
      return { status: 200, headers, body: stream };
    }
    if (this.getStream?.open)
      return { status: 409, headers: {}, body: "A GET stream is already open for this session" };
    const stream = new SseStream();
    if (store && sendsPrimingEvent(this.options.served, this.protocolVersion)) {
      const id = await store.storeEvent(GET_STREAM, undefined);
      stream.send({ id, data: "", ...(this.options.retryMs !== undefined ? { retryMs: this.options.retryMs } : {}) });
    }
    return this.openGetStream(stream, headers);
  }

  private openGetStream(stream: SseStream, headers: Record<string, string>): HttpResponseOut {
    this.getStream?.end();
    this.getStream = stream;
    stream.startKeepAlive(this.options.keepAliveMs ?? 0);
    stream.onClose(() => {
      if (this.getStream === stream) this.getStream = undefined;
      this.lastActive = Date.now();
    });
    return { status: 200, headers, body: stream };
  }

  send(message: object, options?: OutgoingOptions): Promise<void> {
    // Not async for the common case, a response answered as plain JSON: it is delivered here, with no promise chain.
    if (!this.closed && !this.options.shared && isResponse(message))
      return this.answered(message)?.deliver(message, message.id) ?? DELIVERED;
    return this.sendAny(message, options);
  }

  /** The POST waiting for this response (now answered), or undefined when it was not ours to answer over HTTP. */
  private answered(message: { id: RequestId }): Exchange | undefined {
    const exchange = this.exchanges.get(message.id);
    if (!exchange) return undefined; // already answered or cancelled
    this.exchanges.delete(message.id);
    // Idle time counts from the last answer, not from when a long request came in.
    this.lastActive = Date.now();
    this.noteVersion(message);
    return exchange;
  }

  private async sendAny(message: object, options?: OutgoingOptions): Promise<void> {
    if (this.closed) throw new Error("session closed");
    const shared = this.options.shared;
    if (shared) message = await shared.outgoing(message);
    if (isResponse(message)) {
      const exchange = this.answered(message);
      if (!exchange) return;
      const sent = shared ? await shared.answered(message, this.replayHere) : message;
      await exchange.deliver(sent, message.id);
      return;
    }
    const related = options?.relatedRequestId !== undefined ? this.exchanges.get(options.relatedRequestId) : undefined;
    if (related) {
      await related.deliver(message);
      return;
    }
    // Shared state: the GET stream may be held by another instance; it is fed from the shared event store only.
    if (shared) return shared.toGetStream(message, GET_STREAM);
    const store = this.options.eventStore;
    const id = store ? await store.storeEvent(GET_STREAM, message) : undefined;
    if (this.getStream?.open) {
      this.getStream.send(messageEvent(id, message));
    } else if ("id" in message && "method" in message) {
      // A server request with nowhere to go would wait forever: fail it now.
      throw new Error("no open stream to deliver the request to; the client has no GET stream");
    }
  }

  /** Shared state: a message routed from another instance (an answer this copy waits for, a cancellation). */
  private readonly replayHere = (posted: Posted): void => this.deliverRouted(posted);

  deliverRouted(posted: Posted): void {
    if (this.sink && !this.closed) deliverClassified(this.sink, posted.classified, {});
  }

  /** Shutting down: end the streams that carry no answer (GET, resumptions), so their clients reconnect elsewhere. */
  endStreams(): void {
    this.getStream?.end();
    this.options.shared?.endStreams();
  }

  /** Requests still unanswered here. */
  get inFlight(): number {
    return this.exchanges.size;
  }

  /** Shutting down, the deadline passed: every POST still waiting gets its retryable error (Exchange.giveUp). */
  async giveUp(): Promise<void> {
    const waiting = new Set(this.exchanges.values());
    this.exchanges.clear();
    await Promise.all([...waiting].map((exchange) => exchange.giveUp()));
  }

  /**
   * The endpoint closes: with a shared store the session lives on there, so POSTs this copy drops get a retryable
   * 503 (sent again, another instance serves them); alone, the session ends with the process (404).
   */
  leave(): Promise<void> {
    if (this.options.shared) this.abortOutcome = "retry";
    return this.close();
  }

  /** The session ends: DELETE, idle expiry, or the server closing it. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const exchange of new Set(this.exchanges.values())) exchange.abort(this.abortOutcome);
    this.exchanges.clear();
    this.byStream.clear();
    this.getStream?.end();
    this.getStream = undefined;
    this.options.shared?.closed();
    if (!this.options.shared) this.options.eventStore?.forgetSession?.(); // shared events outlive a local copy
    this.options.onClosed(this);
    this.sink?.closed();
  }

  private noteVersion(message: object): void {
    if (this.protocolVersion !== undefined || !("result" in message)) return;
    const result = message.result;
    if (typeof result === "object" && result !== null && "protocolVersion" in result) {
      const version = result.protocolVersion;
      if (typeof version === "string") this.protocolVersion = version;
    }
  }
}
