/**
 * JSON-RPC 2.0 message shapes and a structural classifier. Classification looks at `id`, `method`, `result`
 * and `error` only; params and results are validated later, by the method table of the negotiated revision.
 */

export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  readonly jsonrpc: "2.0";
  readonly id: JsonRpcId;
  readonly method: string;
  readonly params?: unknown;
}

export interface JsonRpcNotification {
  readonly jsonrpc: "2.0";
  readonly method: string;
  readonly params?: unknown;
}

export interface JsonRpcSuccess {
  readonly jsonrpc: "2.0";
  readonly id: JsonRpcId;
  readonly result: unknown;
}

/** The `error` member of a JSON-RPC error response (what `RpcError.toJSON()` returns). */
export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export interface JsonRpcFailure {
  readonly jsonrpc: "2.0";
  readonly id: JsonRpcId | null;
  readonly error: JsonRpcErrorObject;
}

export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcSuccess | JsonRpcFailure;

export type Classified =
  | { readonly kind: "request"; readonly message: JsonRpcRequest }
  | { readonly kind: "notification"; readonly message: JsonRpcNotification }
  | { readonly kind: "response"; readonly message: JsonRpcSuccess | JsonRpcFailure }
  | { readonly kind: "invalid"; readonly id: JsonRpcId | null; readonly reason: string };

/**
 * Numeric ids must be safe integers: `JSON.parse` rounds a literal beyond 2^53 − 1 (always to a value of at least
 * 2^53, so this test catches every one), and an answer with the rounded id would name another request. Such a
 * request is rejected with -32600 and a null id rather than answered with an id the peer never sent.
 */
function isId(value: unknown): value is JsonRpcId {
  return typeof value === "string" || (typeof value === "number" && Number.isSafeInteger(value));
}

/** Sorts one decoded JSON value into a request, notification or response, or says why it is not one. */
export function classify(value: unknown): Classified {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { kind: "invalid", id: null, reason: "a JSON-RPC message must be a JSON object" };
  }
  const m = value as Record<string, unknown>;
  const rawId = m["id"];
  const id = isId(rawId) ? rawId : null;
  if (m["jsonrpc"] !== "2.0") return { kind: "invalid", id, reason: 'jsonrpc must be exactly "2.0"' };
  const method = m["method"];
  if (method !== undefined) {
    if (typeof method !== "string") return { kind: "invalid", id, reason: "method must be a string" };
    const params = m["params"];
    if (params !== undefined && (typeof params !== "object" || params === null)) {
      return { kind: "invalid", id, reason: "params must be an object or an array" };
    }
    if (rawId === undefined) return { kind: "notification", message: value as JsonRpcNotification };
    if (id === null)
      return {
        kind: "invalid",
        id: null,
        reason: "id must be a string or an integer of magnitude at most 2^53-1 (not null)",
      };
    return { kind: "request", message: value as JsonRpcRequest };
  }
  const hasResult = "result" in m;
  const error = m["error"];
  if (hasResult === (error !== undefined)) {
    return { kind: "invalid", id, reason: "a response must carry exactly one of result and error" };
  }
  if (error !== undefined) {
    const e = error as Record<string, unknown>;
    if (
      typeof error !== "object" ||
      error === null ||
      !Number.isInteger(e["code"]) ||
      typeof e["message"] !== "string"
    ) {
      return { kind: "invalid", id, reason: "error must be an object with an integer code and a string message" };
    }
    if (rawId !== null && rawId !== undefined && id === null)
      return { kind: "invalid", id: null, reason: "bad response id" };
    return { kind: "response", message: value as JsonRpcFailure };
  }
  if (id === null) return { kind: "invalid", id: null, reason: "a result response needs a string or integer id" };
  return { kind: "response", message: value as JsonRpcSuccess };
}
