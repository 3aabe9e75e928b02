/** Options of the Streamable HTTP client transport, and its helpers that need no transport state (body parsing, errors). */

export interface HttpClientOptions {
  /** The fetch to send every request with (e.g. `oauthFetch(…)`); given, it is used on every platform. */
  readonly fetch?: typeof fetch;
  /**
   * How requests are sent when no `fetch` is given: "auto" (default) uses `node:http` with a keep-alive agent on
   * Node (a fraction of `fetch`'s CPU per request) and `fetch` elsewhere (browsers, Deno, Bun, workers); "fetch"
   * or "node" force one.
   */
  readonly http?: "auto" | "fetch" | "node";
  /** On the node:http path: connections kept to the server at most; more requests wait for one (default 256). */
  readonly maxConnections?: number;
  /** Extra headers on every request. */
  readonly headers?: Readonly<Record<string, string>>;
  /** A static bearer token, or a provider called before every request (return undefined for none). */
  readonly token?: string | (() => Promise<string | undefined> | string | undefined);
  /** Reconnection of SSE streams: first delay (when the server sent no `retry`), cap, and attempts. */
  readonly reconnect?: {
    readonly initialDelayMs?: number;
    readonly maxDelayMs?: number;
    readonly maxAttempts?: number;
  };
  /** Try the 2024-11-05 HTTP+SSE transport when the first POST is refused with 400/404/405 (default true). */
  readonly legacyFallback?: boolean;
  /** Open the GET stream for server-initiated messages after initialization (default true). */
  readonly openGetStream?: boolean;
}

export type Message = Record<string, unknown>;
export type Id = string | number;
export const isObject = (v: unknown): v is Message => typeof v === "object" && v !== null && !Array.isArray(v);
/** Error codes a stateless-era server answers a first POST with (the spec calls them "modern" JSON-RPC errors). */
export const STATELESS_ERA_ERRORS = new Set([-32020, -32021, -32022, -32601, -32602, -32600]);

/** The start of an unusable body, for error messages. */
export function excerpt(text: string): string {
  const flat = JSON.stringify(text.length > 80 ? `${text.slice(0, 80)}…` : text);
  return text.trim() === "" ? "(empty)" : flat;
}

/** Visible ASCII and spaces: text a server sent that may be echoed in a request header. */
export function isHeaderText(text: string): boolean {
  return /^[\x20-\x7e]+$/.test(text);
}

export function jsonRpcBody(text: string, type: string): Message | undefined {
  if (!type.includes("application/json")) return undefined;
  try {
    const body: unknown = JSON.parse(text);
    return isObject(body) && body["jsonrpc"] === "2.0" ? body : undefined;
  } catch {
    return undefined;
  }
}

export function errorCode(body: Message): number | undefined {
  const error = body["error"];
  return isObject(error) && typeof error["code"] === "number" ? error["code"] : undefined;
}

export function isStatelessEraError(body: Message | undefined): boolean {
  const error = body?.["error"];
  return isObject(error) && typeof error["code"] === "number" && STATELESS_ERA_ERRORS.has(error["code"]);
}

/** The JSON-RPC message(s) in `data` (a 2025-03-26 server may batch), or undefined when it is not JSON objects. */
export function parse(data: string): Message[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  const items = Array.isArray(value) ? value : [value];
  return items.length > 0 && items.every(isObject) ? items : undefined;
}

/**
 * A POST's JSON answer: the messages it holds, and what is wrong with it (not JSON-RPC, not JSON at all, or not
 * answering the request `id`), for a transport error.
 */
export function jsonAnswer(
  text: string,
  type: string,
  status: number,
  id: Id | undefined,
): { messages: Message[]; problem: string | undefined } {
  const json = type === "" || type.includes("application/json");
  const messages = json ? parse(text) : undefined;
  const problem =
    messages === undefined
      ? json
        ? `the server's JSON response is not a JSON-RPC message: ${excerpt(text)}`
        : `the server answered HTTP ${status} with Content-Type "${type}", not JSON or an SSE stream`
      : id !== undefined && !messages.some((m) => m["id"] === id && !("method" in m))
        ? `the server's JSON response does not answer request ${JSON.stringify(id)}: ${excerpt(text)}`
        : undefined;
  return { messages: messages ?? [], problem };
}
