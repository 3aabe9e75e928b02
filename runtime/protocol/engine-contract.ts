/** The JSON-RPC engine's public contract: what it hands to handlers and what callers pass per request. */
import type { RpcError } from "../jsonrpc/errors.ts";
import type { JsonRpcId } from "../jsonrpc/messages.ts";
import type { IncomingContext } from "../transport/transport.ts";

export const CANCELLED_NOTIFICATION = "notifications/cancelled";
export const PROGRESS_NOTIFICATION = "notifications/progress";

export interface IncomingRequest {
  readonly id: JsonRpcId;
  readonly method: string;
  readonly params: unknown;
  /** Aborted when the peer cancels, the carrier (e.g. an HTTP stream) goes away, or the connection closes. */
  readonly signal: AbortSignal;
  readonly context: IncomingContext | undefined;
}

export interface EngineHandlers {
  /** Returns the result, or throws (an `RpcError` becomes that error; anything else becomes -32603). */
  onRequest(request: IncomingRequest): unknown;
  onNotification(method: string, params: unknown, context: IncomingContext | undefined): void;
  /** Whether an incoming JSON array (a batch) is acceptable right now. Default: never. */
  acceptsBatch?(): boolean;
  /** Turns a non-`RpcError` thrown by `onRequest` into the error sent to the peer (default: -32603). */
  toRpcError?(error: unknown, request: IncomingRequest): RpcError;
  /** Diagnostics that are not the peer's fault to hear about (late responses, unreadable error responses). */
  onDiagnostic?(message: string): void;
  onClose?(error?: Error): void;
}

export interface ProgressUpdate {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

export interface RequestOptions {
  /** Aborting cancels the request: the peer gets `notifications/cancelled` and the promise rejects. */
  readonly signal?: AbortSignal;
  /** Milliseconds without a response before the request is cancelled (default: the engine's). 0 = none. */
  readonly timeoutMs?: number;
  /** Asks for progress (adds `_meta.progressToken`) and receives each `notifications/progress`. */
  readonly onProgress?: (update: ProgressUpdate) => void;
  /** Restart the timeout on every progress notification. */
  readonly resetTimeoutOnProgress?: boolean;
  /** Hard cap in milliseconds, progress or not. */
  readonly maxTotalTimeoutMs?: number;
  /** The incoming request this one is made on behalf of (routing hint for HTTP). */
  readonly relatedRequestId?: JsonRpcId;
  /** False for requests that must not be cancelled at the peer (e.g. `initialize`): abort/timeout only stop waiting. */
  readonly cancellable?: boolean;
  /** Called with the request's id just before it is sent (to correlate notifications that name it). */
  readonly onRequestId?: (id: JsonRpcId) => void;
}

export interface EngineOptions {
  readonly defaultTimeoutMs?: number;
}
