/**
 * One HTTP POST that carries requests, and the answer it is waiting for. The answer is decided lazily: if the
 * first thing the server sends for it is the final response, the POST gets plain JSON (cheapest); if a
 * notification or a server request comes first, the POST turns into an SSE stream (mode "auto").
 */
import { messageEvent, SSE_HEADERS, SseStream } from "./sse.ts";
import type { EventStore } from "./event-store.ts";
import { jsonResponse, type HttpResponseOut } from "./types.ts";

export type ResponseMode = "auto" | "sse" | "json";
/** What a transport's `send` returns for a message delivered at once (no promise of its own per message). */
export const DELIVERED: Promise<void> = Promise.resolve();
export type RequestId = string | number;

export interface ExchangeOptions {
  readonly streamId: string;
  readonly mode: ResponseMode;
  readonly batch: boolean;
  /** Extra response headers (e.g. `mcp-session-id`); undefined: none. */
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** Resumability (handshake era only): events get ids, and a priming event opens the stream. */
  readonly eventStore?: EventStore | undefined;
  readonly priming?: boolean;
  readonly retryMs?: number | undefined;
  readonly keepAliveMs?: number;
  /**
   * SSE polling (2025-11-25): end the connection this long after the stream opened, before the response, so the
   * client resumes with GET + Last-Event-ID after `retry`. Only with an event store and a priming event.
   */
  readonly pollAfterMs?: number | undefined;
  /** Maps a final JSON-RPC response to the HTTP status of a plain-JSON answer (stateless era). */
  readonly statusOf?: ((response: object) => number) | undefined;
}

/**
 * What ending a POST unanswered means: "session-gone" (the session ended: 404) or "retry" (the request may be sent
 * again: its session lives on in a shared store, or it has none; 503 with `Retry-After`).
 */
export type AbortOutcome = "session-gone" | "retry";

/** The JSON-RPC error of a request this instance stopped serving before answering it (shutting down). */
export const SHUTTING_DOWN = {
  code: -32603,
  message: "Service Unavailable: this server instance is shutting down; send the request again",
} as const;

/** 503 with `Retry-After`: the request was not served here, and may be sent again (to another instance). */
export function retryElsewhere(id: RequestId | null, headers?: Readonly<Record<string, string>>): HttpResponseOut {
  const retry = Object.assign({ "retry-after": "1", connection: "close" }, headers);
  return jsonResponse(503, { jsonrpc: "2.0", id, error: SHUTTING_DOWN }, retry);
}

export class Exchange {
  readonly outstanding = new Set<RequestId>();
  /** The HTTP answer, once decided (a plain-JSON answer, a stream's head, or 404). */
  private decision: HttpResponseOut | undefined;
  /** Made only when the answer is asked for before it is decided. */
  private pending: { readonly promise: Promise<HttpResponseOut>; resolve(out: HttpResponseOut): void } | undefined;
  private decided = false;
  private stream: SseStream | undefined;
  private readonly heldResponses: object[] = [];
  /** Set when the client went away; later messages are only stored for replay. */
  detached = false;
  /** Called once when the exchange is over; takes the exchange, so owners can share one listener. */
  onFinished: ((exchange: Exchange) => void) | undefined;
  /** Called when an SSE stream this exchange opened closes (the peer went away, or the stream ended). */
  onStreamClosed: (() => void) | undefined;

  constructor(private readonly options: ExchangeOptions) {
    if (options.mode === "sse") this.openStream();
  }

  /**
   * The HTTP answer: itself when already decided (a handler that answered synchronously costs no promise), else a
   * promise of it.
   */
  get answer(): HttpResponseOut | Promise<HttpResponseOut> {
    if (this.decision) return this.decision;
    if (!this.pending) {
      let resolve!: (out: HttpResponseOut) => void;
      const promise = new Promise<HttpResponseOut>((r) => (resolve = r));
      this.pending = { promise, resolve };
    }
    return this.pending.promise;
  }

  private resolve(out: HttpResponseOut): void {
    this.decision = out;
    this.pending?.resolve(out);
  }

  get streamId(): string {
    return this.options.streamId;
  }

  get finished(): boolean {
    return this.outstanding.size === 0;
  }

  /**
   * A message for this POST: a response to one of its requests, or a related notification/request. Synchronous while
   * the answer is plain JSON; a message for an SSE stream returns the promise of its writing (its event may be stored
   * first).
   */
  deliver(message: object, answers?: RequestId): Promise<void> | undefined {
    if (answers !== undefined) this.outstanding.delete(answers);
    if (this.decided || this.options.mode === "sse") return this.toStream(message, []);
    if (answers !== undefined || this.options.mode === "json") {
      if (answers !== undefined) this.heldResponses.push(message);
      if (this.finished) this.answerWithJson();
      return undefined;
    }
    this.openStream();
    return this.toStream(message, this.heldResponses.splice(0));
  }

  /** Writes the responses held so far, then `message`, to the SSE stream; ends it when nothing is outstanding. */
  private async toStream(message: object, held: readonly object[]): Promise<void> {
    for (const response of held) await this.write(response);
    await this.write(message);
    if (this.finished) this.finish();
  }

  /** Answers decided before the server saw the batch (its invalid elements): they are part of this POST's answer. */
  preset(responses: readonly object[]): void {
    if (this.decided && this.stream) for (const response of responses) this.write(response).catch(() => undefined);
    else this.heldResponses.push(...responses);
  }

  /** Attach a resumed stream (GET with Last-Event-ID) that continues this exchange. */
  resume(stream: SseStream): void {
    this.stream = stream;
    this.detached = false;
    stream.onClose(() => this.streamClosed(stream));
    if (this.finished) this.finish();
  }

  /**
   * SSE polling (SEP-1699), asked for by the handler: end this POST's connection before the answer; the stream goes
   * on in the event store and the client resumes it with GET + Last-Event-ID. Only where resumption works (an event
   * store and a revision with priming events); returns whether the connection was ended.
   */
  closeConnection(): boolean {
    if (!this.options.eventStore || !this.options.priming || this.finished) return false;
    if (!this.decided) this.openStream();
    return this.endConnection();
  }

  private endConnection(): boolean {
    const stream = this.stream;
    if (!stream || this.finished) return false;
    this.detached = true;
    this.stream = undefined;
    stream.end(); // the SSE stream goes on in the event store; the client polls for the rest
    return true;
  }

  /** The HTTP client went away (before or during the answer). */
  clientGone(): void {
    if (!this.finished) this.detached = true;
  }

  /**
   * End without a response: the session or transport is closing. An undecided POST gets 404 (session gone), or 503
   * with `Retry-After` where the request may be sent again ("retry").
   */
  abort(outcome: AbortOutcome = "session-gone"): void {
    if (!this.decided) {
      this.decided = true;
      // The id of the one request this POST carried; null for a batch (no single request to name).
      const id = !this.options.batch && this.outstanding.size === 1 ? [...this.outstanding][0]! : null;
      this.resolve(
        outcome === "retry"
          ? retryElsewhere(id, this.options.headers)
          : jsonResponse(404, { jsonrpc: "2.0", id, error: { code: -32000, message: "Session terminated" } }),
      );
    }
    this.stream?.end();
    this.finishListeners();
  }

  /**
   * Shutting down, the deadline passed: an undecided POST gets 503 with `Retry-After`; a stream already open gets a
   * JSON-RPC error per unanswered request (stored for a resumption elsewhere), then ends.
   */
  async giveUp(): Promise<void> {
    if (this.finished && this.decided) return;
    if (!this.decided) {
      this.abort("retry");
      return;
    }
    const ids = [...this.outstanding];
    this.outstanding.clear();
    for (const id of ids) await this.write({ jsonrpc: "2.0", id, error: SHUTTING_DOWN }).catch(() => undefined);
    this.finish();
  }

  private answerWithJson(): void {
    this.decided = true;
    const body = this.options.batch ? this.heldResponses : this.heldResponses[0];
    const status = !this.options.batch && body && this.options.statusOf ? this.options.statusOf(body) : 200;
    this.resolve(jsonResponse(status, body, this.options.headers));
    this.finishListeners();
  }

  private openStream(): void {
    this.decided = true;
    const stream = new SseStream();
    this.stream = stream;
    stream.onClose(() => {
      this.streamClosed(stream);
      this.onStreamClosed?.();
    });
    const { eventStore, priming, retryMs, keepAliveMs, pollAfterMs } = this.options;
    if (eventStore && priming) {
      const id = eventStore.storeEvent(this.streamId, undefined);
      if (typeof id === "string") stream.send({ id, data: "", ...(retryMs !== undefined ? { retryMs } : {}) });
      if (pollAfterMs !== undefined) {
        const timer = setTimeout(() => this.endConnection(), pollAfterMs);
        timer.unref?.();
        stream.onClose(() => clearTimeout(timer));
      }
    }
    if (keepAliveMs) stream.startKeepAlive(keepAliveMs);
    this.resolve({ status: 200, headers: Object.assign({}, SSE_HEADERS, this.options.headers), body: stream });
  }

  private async write(message: object): Promise<void> {
    const store = this.options.eventStore;
    const id = store ? await store.storeEvent(this.streamId, message) : undefined;
    if (!this.stream?.open) return;
    this.stream.send(messageEvent(id, message));
  }

  private streamClosed(stream: SseStream): void {
    if (stream !== this.stream) return;
    this.stream = undefined;
    if (!this.finished) this.detached = true;
  }

  private finish(): void {
    this.stream?.end();
    this.finishListeners();
  }

  private finishListeners(): void {
    const listener = this.onFinished;
    this.onFinished = undefined;
    listener?.(this);
  }
}
