/** `MCP-Protocol-Version` answers: an unknown version (-32022, naming ours) and a session asked at another revision. */
import type { RequestId } from "./exchange.ts";
import { eraOf } from "../protocol/registry.ts";
import { metaVersionOf, rpcError, type Message } from "./answers.ts";
import { UNSUPPORTED_VERSION } from "./modern.ts";
import type { SessionTransport } from "./session-transport.ts";
import type { HttpResponseOut } from "./types.ts";

interface HeaderSource {
  header(name: string): string | undefined;
}

/** 400 + -32022 naming the versions this server speaks (2026-07-28 `UnsupportedProtocolVersionError`). */
export function unsupportedVersion(requested: string, id: RequestId | null, speaks: readonly string[]): HttpResponseOut {
  const supported = [...speaks];
  const message = `Unsupported protocol version: ${requested} (supported: ${supported.join(", ")})`;
  return rpcError(400, UNSUPPORTED_VERSION, message, id, { supported, requested });
}

/**
 * A session request whose `MCP-Protocol-Version` this session cannot honour: 400 naming both, or undefined. The spec
 * (2025-11-25 transports) makes 400 a MUST for an invalid or unsupported version, while the client only SHOULD send
 * the negotiated one; so another handshake-era revision this server serves is accepted (the session keeps its
 * negotiated revision), as the official conformance suite expects (it sends 2025-03-26 on a 2025-11-25 session).
 */
export function versionMismatch(request: HeaderSource, session: SessionTransport, id: RequestId | null, serves: readonly string[]): HttpResponseOut | undefined {
  const version = request.header("mcp-protocol-version");
  const negotiated = session.protocolVersion;
  if (version === undefined || negotiated === undefined || version === negotiated) return undefined;
  if (eraOf(version) === "handshake" && serves.includes(version)) return undefined;
  const message = `Bad Request: MCP-Protocol-Version ${version} is not a version this session can use (negotiated: ${negotiated})`;
  return rpcError(400, -32000, message, id);
}

/** A request of the stateless era: it names its version in `_meta` (even `initialize`, which that era lacks → 404). */
export function isModern(message: Message, request: HeaderSource): boolean {
  if (metaVersionOf(message) !== undefined) return true;
  if (message["method"] === "initialize") return false;
  const header = request.header("mcp-protocol-version");
  // A version this runtime does not know is treated as a newer stateless one (the server answers -32022).
  return header !== undefined && eraOf(header) !== "handshake";
}

/** The stateless-era (or newer, unknown) revision a batch names in `_meta`, or a known stateless-era header. */
export function statelessRevisionOf(messages: readonly Message[], request: HeaderSource): string | undefined {
  for (const m of messages) {
    const version = metaVersionOf(m);
    if (version !== undefined && eraOf(version) !== "handshake") return version;
  }
  const header = request.header("mcp-protocol-version");
  return header !== undefined && eraOf(header) === "stateless" ? header : undefined;
}
