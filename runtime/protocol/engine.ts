/**
 * The JSON-RPC 2.0 engine: parses frames once, correlates responses with requests, runs incoming requests with an
 * AbortSignal each, and implements MCP's request utilities that live below the lifecycle: timeouts (optionally reset
 * by progress), `notifications/cancelled` in both directions and progress tokens. It knows nothing about revisions;
 * the session layer above decides what is valid when.
 */
import type { ClassifiedMessage, IncomingContext, Transport, TransportSink } from "../transport/transport.ts";
import {
  asError,
  ConnectionClosedError,
  ErrorCode,
  failure,
  RequestCancelledError,
  RequestTimeoutError,
  RpcError,
} from "../jsonrpc/errors.ts";
import {
  classify,
  type JsonRpcErrorObject,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcRequest,
} from "../jsonrpc/messages.ts";
import { withMeta } from "../jsonrpc/params-meta.ts";
import {
  CANCELLED_NOTIFICATION,
  PROGRESS_NOTIFICATION,
  type EngineHandlers,
  type EngineOptions,
  type IncomingRequest,
  type ProgressUpdate,
  type RequestOptions,
} from "./engine-contract.ts";
import { isThenable } from "./helper-types.ts";
import { IncomingCall } from "./incoming-call.ts";
import { OutgoingRequests, type Pending } from "./outgoing-requests.ts";

export { asError, CANCELLED_NOTIFICATION, PROGRESS_NOTIFICATION };
export type { EngineHandlers, EngineOptions, IncomingRequest, ProgressUpdate, RequestOptions };

/** What answering one incoming message sends: a response, or nothing (a notification, a cancelled request). */
type Reply = JsonRpcMessage | undefined;

/** One connection's JSON-RPC: incoming requests run with a signal each, outgoing ones wait in `OutgoingRequests`. */
export class JsonRpcEngine {
  private nextId = 1;
  private readonly pending: OutgoingRequests;
  private readonly incoming = new Map<JsonRpcId, IncomingCall>();
  private isClosed = false;

  constructor(
    private readonly transport: Transport,
    private readonly handlers: EngineHandlers,
    options: EngineOptions = {},
  ) {
    this.pending = new OutgoingRequests(options.defaultTimeoutMs ?? 60_000, (entry, elapsed) =>
      this.abandon(entry, new RequestTimeoutError(entry.method, elapsed), `timed out after ${elapsed} ms`),
    );
  }

  start(): Promise<void> {
    const sink: TransportSink = {
      receive: (frame, context) => this.receive(frame, context),
      receiveClassified: (message, context) => this.answer(this.dispatch(message, context)),
      closed: (error) => this.onTransportClosed(error),
      malformed: (reason) => this.sendError(null, new RpcError(ErrorCode.ParseError, `Parse error: ${reason}`)),
    };
    return this.transport.start(sink);
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** Number of requests this side sent that still wait for a response. */
  get pendingCount(): number {
    return this.pending.size;
  }

  request(method: string, params: unknown, options?: RequestOptions): Promise<unknown> {
    if (this.isClosed) return Promise.reject(new ConnectionClosedError());
    const signal = options?.signal;
    if (signal?.aborted) return Promise.reject(new RequestCancelledError(method, signal.reason));
    const id = this.nextId++;
    options?.onRequestId?.(id);
    if (options?.onProgress) params = withMeta(params, { progressToken: id });
    const message: JsonRpcRequest =
      params === undefined ? { jsonrpc: "2.0", id, method } : { jsonrpc: "2.0", id, method, params };
    return new Promise<unknown>((resolve, reject) => {
      const entry: Pending = {
        id,
        method,
        resolve,
        reject,
        options,
        startedAt: Date.now(),
        deadline: Infinity,
        onAbort: undefined,
      };
      this.pending.add(entry);
      if (signal) {
        entry.onAbort = () => this.abandon(entry, new RequestCancelledError(method, signal.reason), signal.reason);
        signal.addEventListener("abort", entry.onAbort, { once: true });
      }
      const sendOptions =
        options?.relatedRequestId === undefined ? undefined : { relatedRequestId: options.relatedRequestId };
      this.transport.send(message, sendOptions).catch((error: unknown) => {
        if (this.pending.get(id) === entry) this.pending.settle(entry, undefined, asError(error));
      });
    });
  }

  notify(method: string, params?: unknown, relatedRequestId?: JsonRpcId): Promise<void> {
    if (this.isClosed) return Promise.reject(new ConnectionClosedError());
    const message = params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
    return this.transport.send(message, relatedRequestId === undefined ? undefined : { relatedRequestId });
  }

  /** The peer cancelled one of its requests: abort the handler and send no response. Unknown ids are ignored. */
  cancelIncoming(id: JsonRpcId, reason?: string): void {
    const entry = this.incoming.get(id);
    if (!entry) return;
    entry.cancelled = true;
    entry.abort(new RequestCancelledError(String(id), reason));
  }

  /** The peer cancelled a request this side sent (2026-07-28: a server ending a listen stream). No notice is sent back. */
  cancelOutgoing(id: JsonRpcId, reason?: string): boolean {
    const entry = this.pending.get(id);
    if (!entry) return false;
    this.pending.settle(entry, undefined, new RequestCancelledError(entry.method, reason ?? "cancelled by the peer"));
    return true;
  }

  /** Routes a `notifications/progress` to the request that asked for it. Returns false for unknown tokens. */
  deliverProgress(token: unknown, update: ProgressUpdate): boolean {
    if (typeof token !== "number" && typeof token !== "string") return false;
    const entry = this.pending.get(token);
    const onProgress = entry?.options?.onProgress;
    if (!entry || !onProgress) return false;
    if (entry.options?.resetTimeoutOnProgress) this.pending.arm(entry);
    try {
      onProgress(update);
    } catch (error) {
      this.report(`progress callback threw: ${asError(error).message}`);
    }
    return true;
  }

  /** Closes the transport; pending requests fail with `ConnectionClosedError`. */
  async close(): Promise<void> {
    if (this.isClosed) return;
    await this.transport.close();
    this.onTransportClosed();
  }

  // ---- incoming -------------------------------------------------------------------------------------------

  private receive(frame: string | object, context: IncomingContext | undefined): void {
    let value: unknown = frame;
    if (typeof frame === "string") {
      try {
        value = JSON.parse(frame);
      } catch (error) {
        this.sendError(null, new RpcError(ErrorCode.ParseError, `Parse error: ${asError(error).message}`));
        return;
      }
    }
    if (!Array.isArray(value)) {
      this.answer(this.processOne(value, context));
      return;
    }
    if (value.length === 0 || !(this.handlers.acceptsBatch?.() ?? false)) {
      const reason = value.length === 0 ? "an empty batch is invalid" : "batches are not accepted here";
      this.sendError(null, new RpcError(ErrorCode.InvalidRequest, `Invalid request: ${reason}`));
      return;
    }
    const replies: Array<Reply | Promise<Reply>> = [];
    for (const item of value) {
      const reply = this.processOne(item, context);
      if (reply) replies.push(reply);
    }
    if (replies.length === 0) return;
    void Promise.all(replies).then((all) => {
      const answered = all.filter((m): m is JsonRpcMessage => m !== undefined);
      if (answered.length > 0 && !this.isClosed) this.transport.send(answered).catch((e) => this.diagnose(e));
    });
  }

  /** Handles one decoded message; returns the reply to send (now, or once the handler settles), if any. */
  private processOne(value: unknown, context: IncomingContext | undefined): Reply | Promise<Reply> {
    const c = classify(value);
    if (c.kind === "invalid") {
      return failure(c.id, new RpcError(ErrorCode.InvalidRequest, `Invalid request: ${c.reason}`));
    }
    return this.dispatch(c, context);
  }

  /** Sends a reply now, or when it is ready. */
  private answer(reply: Reply | Promise<Reply>): void {
    if (reply instanceof Promise) reply.then(this.sendIfAny, this.diagnose);
    else if (reply) this.sendReply(reply);
  }

  private dispatch(c: ClassifiedMessage, context: IncomingContext | undefined): Reply | Promise<Reply> {
    switch (c.kind) {
      case "request":
        return this.runRequest(c.message, context);
      case "notification":
        try {
          this.handlers.onNotification(c.message.method, c.message.params, context);
        } catch (error) {
          this.report(`notification ${c.message.method} handler threw: ${asError(error).message}`);
        }
        return undefined;
      case "response":
        this.onResponse(c.message);
        return undefined;
    }
  }

  /**
   * Runs a request's handler. Not async, and no promise at all for a handler that answers synchronously: its reply
   * is sent at once (this is per request); a pending one is answered with one `then`.
   */
  private runRequest(message: JsonRpcRequest, context: IncomingContext | undefined): Reply | Promise<Reply> {
    const { id, method } = message;
    if (this.incoming.has(id)) {
      return failure(
        id,
        new RpcError(ErrorCode.InvalidRequest, `Invalid request: id ${JSON.stringify(id)} is already in flight`),
      );
    }
    const entry = new IncomingCall(id, method, message.params, context);
    const carrier = context?.signal;
    if (carrier) {
      if (carrier.aborted) return undefined;
      entry.onCarrierGone = () => this.cancelIncoming(id, "the request's carrier closed");
      carrier.addEventListener("abort", entry.onCarrierGone, { once: true });
    }
    this.incoming.set(id, entry);
    let outcome: unknown;
    try {
      outcome = this.handlers.onRequest(entry);
    } catch (error) {
      return this.finishRequest(entry, error, true);
    }
    if (!isThenable(outcome)) return this.finishRequest(entry, outcome, false);
    return Promise.resolve(outcome).then(
      (result) => this.finishRequest(entry, result, false),
      (error: unknown) => this.finishRequest(entry, error, true),
    );
  }

  /** The reply to a request whose handler returned (`failed`: threw) `outcome`; none once cancelled or closed. */
  private finishRequest(entry: IncomingCall, outcome: unknown, failed: boolean): Reply {
    const reply: JsonRpcMessage = failed
      ? failure(entry.id, this.toRpcError(outcome, entry))
      : { jsonrpc: "2.0", id: entry.id, result: outcome ?? {} };
    this.incoming.delete(entry.id);
    if (entry.onCarrierGone) entry.context?.signal?.removeEventListener("abort", entry.onCarrierGone);
    return entry.cancelled || this.isClosed ? undefined : reply;
  }

  private toRpcError(error: unknown, request: IncomingRequest): RpcError {
    if (error instanceof RpcError) return error;
    if (this.handlers.toRpcError) {
      try {
        return this.handlers.toRpcError(error, request);
      } catch (mapperError) {
        this.report(`toRpcError threw: ${asError(mapperError).message}`);
      }
    }
    return new RpcError(ErrorCode.InternalError, `Internal error: ${asError(error).message}`);
  }

  /** Diagnostics go to the user's callback; one that throws must not leave a request unanswered or the engine broken. */
  private report(message: string): void {
    try {
      this.handlers.onDiagnostic?.(message);
    } catch {
      // Nowhere left to report to.
    }
  }

  private onResponse(message: {
    readonly id: JsonRpcId | null;
    readonly result?: unknown;
    readonly error?: JsonRpcErrorObject;
  }): void {
    const entry = message.id === null ? undefined : this.pending.get(message.id);
    if (!entry) {
      const what = message.error ? `error ${message.error.code} "${message.error.message}"` : "result";
      this.report(`dropped a response (${what}) for unknown or finished request id ${JSON.stringify(message.id)}`);
      return;
    }
    if (message.error) this.pending.settle(entry, undefined, RpcError.from(message.error));
    else this.pending.settle(entry, message.result, undefined);
  }

  // ---- outgoing bookkeeping -------------------------------------------------------------------------------

  /** Gives up on a request locally and tells the peer to stop working on it. */
  private abandon(entry: Pending, error: Error, reason: unknown): void {
    if (this.pending.get(entry.id) !== entry) return;
    this.pending.settle(entry, undefined, error);
    if (this.isClosed || entry.options?.cancellable === false) return;
    const params = { requestId: entry.id, reason: typeof reason === "string" ? reason : String(reason ?? "cancelled") };
    this.notify(CANCELLED_NOTIFICATION, params, entry.options?.relatedRequestId).catch((e) => this.diagnose(e));
  }

  private onTransportClosed(error?: Error): void {
    if (this.isClosed) return;
    this.isClosed = true;
    // Built only when something is pending: a stateless HTTP session closes after every request, and an Error
    // (with its stack) per close is measurable there.
    let failure: ConnectionClosedError | undefined;
    const closedError = () => (failure ??= new ConnectionClosedError(error));
    this.pending.stop(closedError);
    if (this.incoming.size > 0) {
      for (const entry of this.incoming.values()) entry.abort(closedError());
      this.incoming.clear();
    }
    this.handlers.onClose?.(error);
  }

  private sendReply(message: JsonRpcMessage): void {
    if (this.isClosed) return;
    const id = "id" in message ? message.id : null;
    const options = id === null ? undefined : { relatedRequestId: id };
    try {
      this.transport.send(message, options).catch(this.diagnose);
    } catch (error) {
      this.diagnose(error); // a transport whose send throws instead of rejecting
    }
  }

  private sendError(id: JsonRpcId | null, error: RpcError): void {
    this.sendReply(failure(id, error));
  }

  private readonly diagnose = (error: unknown): void => {
    this.report(asError(error).message);
  };

  private readonly sendIfAny = (message: JsonRpcMessage | undefined): void => {
    if (message) this.sendReply(message);
  };
}
