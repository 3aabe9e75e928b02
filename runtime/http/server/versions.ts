/**
 * `MCP-Protocol-Version` on the HTTP server path: which era a revision belongs to, the answer to a version this server
 * does not speak (-32022, naming ours), and a session asked at a revision it cannot use.
 */
import type { Era } from "../../protocol/profiles.ts";
import { factsOf, type RevisionFacts } from "../../protocol/preference.ts";
import type { RequestId } from "./exchange.ts";
import type { HeaderSource } from "../mcp-headers.ts";
import { rpcError } from "./answers.ts";
import { UNSUPPORTED_VERSION } from "./stateless-checks.ts";
import type { SessionTransport } from "./session-transport.ts";
import type { HttpResponseOut } from "./types.ts";

/** The era of a revision the server serves (from its descriptor), or undefined for any other version. */
export function revisionEra(served: readonly RevisionFacts[], revision: string): Era | undefined {
  return factsOf(served, revision)?.era;
}

/** Whether a served revision has JSON-RPC batches (a fact of its descriptor); false for any other version. */
export function revisionHasBatches(served: readonly RevisionFacts[], revision: string | undefined): boolean {
  return revision !== undefined && factsOf(served, revision)?.batches === true;
}

/** 400 + -32022 naming the versions this server speaks (2026-07-28 `UnsupportedProtocolVersionError`). */
export function unsupportedVersion(
  requested: string,
  id: RequestId | null,
  speaks: readonly string[],
): HttpResponseOut {
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
export function versionMismatch(
  request: HeaderSource,
  session: SessionTransport,
  id: RequestId | null,
  served: readonly RevisionFacts[],
): HttpResponseOut | undefined {
  const version = request.header("mcp-protocol-version");
  const negotiated = session.protocolVersion;
  if (version === undefined || negotiated === undefined || version === negotiated) return undefined;
  if (revisionEra(served, version) === "handshake") return undefined;
  const message = `Bad Request: MCP-Protocol-Version ${version} is not a version this session can use (negotiated: ${negotiated})`;
  return rpcError(400, -32000, message, id);
}
