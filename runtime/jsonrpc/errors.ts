/**
 * Error codes and error classes. `RpcError` is what travels on the wire (a JSON-RPC error object);
 * the other classes are local failures of a request this side sent.
 */
import type { JsonRpcErrorObject, JsonRpcFailure, JsonRpcId } from "./messages.ts";

/** JSON-RPC 2.0 codes plus the MCP-defined ones (basic/index.mdx#error-codes). */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** 2026-07-28: an HTTP header disagrees with the body. */
  HeaderMismatch: -32020,
  /** 2026-07-28: `data.requiredCapabilities` lists what the client did not declare. */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28: `data.supported` and `data.requested`. */
  UnsupportedProtocolVersion: -32022,
} as const;

/**
 * This runtime's own error codes, outside JSON-RPC's reserved range (-32768 to -32000) as MCP 2026-07-28 asks of
 * codes not defined by the specification.
 */
export const RuntimeErrorCode = {
  /** The session already runs `maxRequestsInFlight` requests; `data.limit` says how many. Retry when some finish. */
  TooManyRequestsInFlight: -31429,
  /**
   * The caller already has its quota of unfinished tasks (the Tasks extension; `maxTasksPerOwner` of the task
   * store); `data.limit` says how many. Retry when one of them ends.
   */
  TaskQuotaExceeded: -31430,
  /**
   * The session already holds `maxSubscriptionsPerSession` resource subscriptions (`resources/subscribe`);
   * `data.limit` says how many. Unsubscribe from one first.
   */
  TooManySubscriptions: -31431,
} as const;

/** An error received from, or to be sent to, the peer as a JSON-RPC error object. */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "RpcError";
  }

  toJSON(): JsonRpcErrorObject {
    return this.data === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, data: this.data };
  }

  static from(error: JsonRpcErrorObject): RpcError {
    return new RpcError(error.code, error.message, error.data);
  }
}

/** The connection went away before the response arrived. */
export class ConnectionClosedError extends Error {
  constructor(reason?: Error) {
    super(
      reason ? `connection closed: ${reason.message}` : "connection closed",
      reason ? { cause: reason } : undefined,
    );
    this.name = "ConnectionClosedError";
  }
}

/** No response arrived within the request's timeout (the request was cancelled at the peer). */
export class RequestTimeoutError extends Error {
  constructor(
    readonly method: string,
    readonly timeoutMs: number,
  ) {
    super(`request ${method} timed out after ${timeoutMs} ms`);
    this.name = "RequestTimeoutError";
  }
}

/** The caller aborted the request (the peer was told with `notifications/cancelled`). */
export class RequestCancelledError extends Error {
  constructor(
    readonly method: string,
    reason?: unknown,
  ) {
    super(`request ${method} was cancelled${typeof reason === "string" ? `: ${reason}` : ""}`);
    this.name = "RequestCancelledError";
  }
}

/**
 * A request the transport could not deliver because the peer refused it below the protocol (an HTTP status without
 * a JSON-RPC answer). `accessDenied` for a refused credential (HTTP 401 or 403: missing, rejected or lacking scope):
 * that says nothing of the peer's era or revision, so negotiation reports it rather than trying an older era.
 */
export class TransportRefusalError extends Error {
  constructor(
    message: string,
    readonly accessDenied: boolean,
  ) {
    super(message);
    this.name = "TransportRefusalError";
  }
}

/** A local rule stops a message before it is sent (e.g. a capability the peer did not declare). */
export class ProtocolUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProtocolUsageError";
  }
}

/** The error response to request `id` (null when the id could not be read). */
export function failure(id: JsonRpcId | null, error: RpcError): JsonRpcFailure {
  return { jsonrpc: "2.0", id, error: error.toJSON() };
}

/** Anything thrown, as an Error (a thrown string or object keeps its text). */
export function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
