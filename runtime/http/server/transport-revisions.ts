/**
 * The Streamable HTTP rules that depend on the revision but are transport prose (basic/transports.mdx), not anything
 * in schema.ts, so no descriptor can carry them. They are stated per era (the era comes from the revision's
 * descriptor, see `protocol/era.ts`), with the released versions that are exceptions listed by their exact wire
 * version; nothing here orders versions or assumes they look like dates.
 */
import { factsOf, type RevisionFacts } from "../../protocol/preference.ts";
/** transports.mdx (2025-06-18 on): without an `MCP-Protocol-Version` header a server SHOULD assume this version. */
export const REVISION_WITHOUT_HEADER = "2025-03-26";

/**
 * Handshake-era versions released before SSE polling (SEP-1699): their clients do not expect priming events. The
 * handshake era is closed (the stateless era replaced `initialize`), so this list is complete; every other
 * handshake-era revision, including one a user generates, primes its streams.
 */
const RELEASED_BEFORE_SSE_PRIMING: ReadonlySet<string> = new Set(["2024-11-05", "2025-03-26", "2025-06-18"]);

/**
 * Whether a session's streams start with a priming event (an id and empty data): a served handshake-era revision,
 * SEP-1699 on. `served` are the revisions of the server behind the endpoint (`SessionHost.revisions`).
 */
export function sendsPrimingEvent(served: readonly RevisionFacts[], revision: string | undefined): boolean {
  if (revision === undefined || RELEASED_BEFORE_SSE_PRIMING.has(revision)) return false;
  return factsOf(served, revision)?.era === "handshake";
}
