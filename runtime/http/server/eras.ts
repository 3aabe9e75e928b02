/**
 * The eras of the HTTP server path as strategies: one object per era that the handler consults for everything that
 * differs between them — which POSTs it admits (sessions or not, header rules, batches), how it reads
 * `MCP-Protocol-Version`, and its stream rules (what a disconnect means, how an answer's status is chosen, priming).
 *
 * - handshake era (2025-03-26 … 2025-11-25 on Streamable HTTP, handshake-era.ts): `initialize` opens a session
 *   (`Mcp-Session-Id`) unless `sessions: false`; batches where the negotiated revision has them; a GET stream and
 *   DELETE; a client going away is not a cancellation.
 * - stateless era (2026-07-28 on, stateless-era.ts): every POST stands alone and names its revision in `_meta` and
 *   the headers; no batches, no GET or DELETE; a client going away cancels its request; error codes map to statuses.
 *
 * The HTTP+SSE transport of 2024-11-05 is the handshake era on endpoints of its own (legacy-sse.ts), chosen by path.
 * A POST is parsed and classified once (`Posted`, answers.ts); the eras and the transports below read that.
 */
import { ERA_RULES, type Era } from "../../protocol/era.ts";
import type { RevisionFacts } from "../../protocol/preference.ts";
import type { AuthInfo, IncomingContext, Transport } from "../../transport/transport.ts";
import type { Posted } from "./answers.ts";
import type { McpHttpOptions, SessionHost } from "./options.ts";
import type { HttpRequestIn, HttpResponseOut } from "./types.ts";
import { revisionEra, unsupportedVersion } from "./versions.ts";

/** One HTTP request as an era sees it: the request and who made it. */
export interface EraCall {
  readonly request: HttpRequestIn;
  readonly authInfo: AuthInfo | undefined;
}

/** What the eras use of the endpoint that holds them. */
export interface EraServices {
  readonly host: SessionHost;
  readonly options: McpHttpOptions;
  /** The versions named when a client asks for one this endpoint does not speak. */
  serves(): readonly string[];
  /** The context every message of this call is delivered with (auth info, forwarded headers). */
  context(call: EraCall): IncomingContext;
  /** 403 when a `tools/call` lacks its tool's scopes. Every era checks it before routing, so no path skips it. */
  scopeFailure(posted: readonly Posted[], authInfo: AuthInfo | undefined): HttpResponseOut | undefined;
  /** Hands an error to `onError` (a store failure a request was answered 503 for, with its cause). */
  report(error: unknown): void;
}

export interface HttpEra {
  readonly era: Era;
  /** One POSTed message. */
  post(posted: Posted, call: EraCall): HttpResponseOut | Promise<HttpResponseOut>;
  /** A POSTed JSON-RPC batch: its valid elements, and the -32600 answers already decided for the invalid ones. */
  postBatch(
    valid: readonly Posted[],
    errors: readonly object[],
    call: EraCall,
  ): HttpResponseOut | Promise<HttpResponseOut>;
  /** Let go of what the era keeps between requests. */
  close(): Promise<void>;
}

/**
 * Which era's rules a POSTed message falls under, or the refusal of a version nobody here knows. A message that
 * names its revision in `_meta` is of the stateless era (even `initialize`, which that era lacks → 404 there);
 * `initialize` is of the handshake era; otherwise the `MCP-Protocol-Version` header decides, and a version the server
 * does not serve is refused with -32022 naming the ones it does.
 */
export function eraOfPost(
  posted: Posted,
  header: string | undefined,
  served: readonly RevisionFacts[],
  serves: () => readonly string[],
): Era | HttpResponseOut {
  if (posted.metaVersion !== undefined) return "stateless"; // only that era's requests carry `_meta` state
  if (posted.method === ERA_RULES.handshake.openingMethod || header === undefined) return "handshake";
  const era = revisionEra(served, header);
  // Neither `_meta` nor a known header: say so, naming ours.
  if (era === undefined) return unsupportedVersion(header, posted.id ?? null, serves());
  return era;
}

/**
 * A batch is of the stateless era (which refuses it) when an element names a revision outside the handshake era in
 * `_meta`, or the header names a stateless-era one.
 */
export function eraOfBatch(
  served: readonly RevisionFacts[],
  valid: readonly Posted[],
  header: string | undefined,
): Era {
  for (const posted of valid)
    if (posted.metaVersion !== undefined && revisionEra(served, posted.metaVersion) !== "handshake") return "stateless";
  return header !== undefined && revisionEra(served, header) === "stateless" ? "stateless" : "handshake";
}

/** Start a server session on `transport`; one whose server could not be started is closed (and leaves the registry). */
export async function connectOrForget(host: SessionHost, transport: Transport): Promise<void> {
  try {
    await host.connect(transport);
  } catch (error) {
    await transport.close();
    throw error;
  }
}
