/**
 * The two Streamable HTTP rules that depend on the revision but are transport prose (basic/transports.mdx), not
 * anything in schema.ts, so the bindings cannot say them. Kept here, the one place the HTTP layer names a revision.
 */
import { eraOf } from "../protocol/registry.ts";

/** transports.mdx (2025-06-18 on): without an `MCP-Protocol-Version` header a server SHOULD assume this revision. */
export const REVISION_WITHOUT_HEADER = "2025-03-26";

/** SSE polling (SEP-1699) begins with this revision: priming events (an id and empty data) open every stream. */
const FIRST_SSE_PRIMING_REVISION = "2025-11-25";

/** Whether a handshake-era session's streams start with a priming event (revision names order by date). */
export function sendsPrimingEvent(revision: string | undefined): boolean {
  return revision !== undefined && eraOf(revision) === "handshake" && revision >= FIRST_SSE_PRIMING_REVISION;
}
