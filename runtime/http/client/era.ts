/**
 * The client side of Streamable HTTP, one strategy per era, consulted by the transport (client-transport.ts)
 * instead of branching. A message's era is visible on the message itself: a stateless-era request carries its
 * revision in `_meta["io.modelcontextprotocol/protocolVersion"]`; everything else (handshake-era requests,
 * notifications, our answers to the server) belongs to the handshake era's connection.
 *
 * - handshake era (streamable-http.mdx of 2025-03-26 … 2025-11-25): a session (`Mcp-Session-Id`, renewed after 404),
 *   the negotiated `MCP-Protocol-Version` on every request, cancellation as a POSTed notification, SSE streams
 *   resumed with `Last-Event-ID`, a GET stream for server-initiated messages, and the HTTP+SSE fallback.
 * - stateless era (2026-07-28): no session; `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` and `Mcp-Param-*`
 *   mirrored from the body; cancellation by closing the request's response stream; a -32020 header mismatch on
 *   `tools/call` re-lists the tools (their `x-mcp-header` annotations) and retries once.
 */
import type { Era } from "../../protocol/method-type.ts";
import { MetaKey } from "../../protocol/meta.ts";
import { isObject, type Message } from "./options.ts";
import { encodeHeaderValue, NAME_FIELD, paramHeadersFor, type HeaderParam } from "../mcp-headers.ts";

/** Transport state the era's header rules read. */
export interface HeaderState {
  readonly sessionId: string | undefined;
  readonly protocolVersion: string | undefined;
  readonly toolParams: ReadonlyMap<string, readonly HeaderParam[]>;
}

export interface HttpClientEra {
  readonly era: Era;
  /** The era's MCP headers for `message` (undefined: a GET or DELETE of the connection). */
  headers(message: Message | undefined, state: HeaderState): Record<string, string>;
  /** Cancelling a request closes its response stream; nothing is POSTed. */
  readonly cancelsByClosingStream: boolean;
  /** The server's `Mcp-Session-Id` is kept and sent back. */
  readonly keepsSession: boolean;
  /** A 404 on a request of a session starts a new session (replaying `initialize`) and retries once. */
  readonly renewsSessionOn404: boolean;
  /** A -32020 answer to `tools/call` re-lists the tools and retries once (our `x-mcp-header` knowledge was stale). */
  readonly relistsOnHeaderMismatch: boolean;
  /** `tools/list` answers are read for `x-mcp-header` annotations; tools whose annotations are invalid are dropped. */
  readonly readsToolHeaders: boolean;
  /** A response stream that breaks before the answer is resumed with GET and `Last-Event-ID`. */
  readonly resumesStreams: boolean;
  /** A refused `initialize` (400/404/405 without a modern error) may mean a 2024-11-05 HTTP+SSE server. */
  readonly fallsBackToLegacySse: boolean;
}

const handshake: HttpClientEra = {
  era: "handshake",
  headers(_message, state) {
    const headers: Record<string, string> = {};
    if (state.sessionId !== undefined) headers["mcp-session-id"] = state.sessionId;
    if (state.protocolVersion !== undefined) headers["mcp-protocol-version"] = state.protocolVersion;
    return headers;
  },
  cancelsByClosingStream: false,
  keepsSession: true,
  renewsSessionOn404: true,
  relistsOnHeaderMismatch: false,
  readsToolHeaders: false,
  resumesStreams: true,
  fallsBackToLegacySse: true,
};

const stateless: HttpClientEra = {
  era: "stateless",
  headers(message, state) {
    const headers: Record<string, string> = {};
    const version = message ? metaVersion(message) : undefined;
    if (version === undefined || !message) return headers;
    headers["mcp-protocol-version"] = version;
    const method = message["method"];
    if (typeof method !== "string") return headers;
    headers["mcp-method"] = method;
    const params = isObject(message["params"]) ? message["params"] : {};
    const field = Object.hasOwn(NAME_FIELD, method) ? NAME_FIELD[method] : undefined;
    const name = field !== undefined ? params[field] : undefined;
    if (typeof name === "string") headers["mcp-name"] = encodeHeaderValue(name);
    const toolParams = method === "tools/call" && typeof name === "string" ? state.toolParams.get(name) : undefined;
    if (toolParams) Object.assign(headers, paramHeadersFor(toolParams, params["arguments"]));
    return headers;
  },
  cancelsByClosingStream: true,
  keepsSession: false,
  renewsSessionOn404: false,
  relistsOnHeaderMismatch: true,
  readsToolHeaders: true,
  resumesStreams: false,
  fallsBackToLegacySse: false,
};

/** The revision a stateless-era request names in its `_meta`, else undefined. */
export function metaVersion(message: Message): string | undefined {
  const params = message["params"];
  const meta = isObject(params) ? params["_meta"] : undefined;
  const version = isObject(meta) ? meta[MetaKey.protocolVersion] : undefined;
  return typeof version === "string" ? version : undefined;
}

/** The era `message` belongs to (see the header). */
export function eraOfMessage(message: Message | undefined): HttpClientEra {
  return message !== undefined && metaVersion(message) !== undefined ? stateless : handshake;
}

export function httpClientEra(era: Era): HttpClientEra {
  return era === "stateless" ? stateless : handshake;
}
