/**
 * Revisions as values. A revision is its descriptor (`RevisionDescriptor`: the `revision` export of a generated
 * `runtime/generated/protocol/<name>/index.ts`, or of any `mcp-gen protocol --out` folder); servers and clients take a
 * list of them (`revisions: [r2026_07_28, myDraft]`, or `builtinRevisions` for every built-in one). Nothing here is
 * process-wide: a server, a client and the HTTP layer in front of a server decide from the descriptors they were given.
 *
 * Preference order (which revision `initialize` picks, which stateless revision a client probes first) never
 * depends on what a name or version looks like. The rule:
 * - built-in revisions rank in release order, which is the order of the generated table (`builtinReleaseOrder`);
 * - a descriptor whose wire `version` is a built-in's takes that built-in's rank (a regenerated copy of it);
 * - any other descriptor ranks above every built-in one, and among those, later in the list ranks higher;
 * - a list ordered newest first (`rankProfiles`) is that rank, highest first.
 *
 * Bundle size: this module imports no bindings (the release order is a table of strings), so code that passes
 * descriptors bundles the bindings of those revisions and no others.
 */
import { builtinReleaseOrder } from "../generated/protocol/release-order.ts";
import type { RevisionDescriptor } from "./method-type.ts";
import { profileOf, type RevisionProfile } from "./profiles.ts";

/** Wire versions of the built-in revisions, newest first (a table of strings: it loads no bindings). */
export const SUPPORTED_REVISIONS: readonly string[] = [...builtinReleaseOrder].reverse();

/** What the HTTP layer reads of a served revision: its wire version, era and whether it has JSON-RPC batches. */
export type RevisionFacts = Pick<RevisionDescriptor, "version" | "era" | "batches">;

/**
 * Profiles for `revisions` (descriptors), in preference order, newest first (see the rule above). Two entries with
 * the same wire version, an empty or missing list, and anything that is not a descriptor are errors.
 */
export function rankProfiles(revisions: readonly RevisionDescriptor[] | undefined): RevisionProfile[] {
  if (revisions === undefined || revisions.length === 0) {
    throw new Error(
      'no MCP revisions configured: pass revision descriptors (`revisions: builtinRevisions` from "@mcp-gen/runtime" for every built-in one)',
    );
  }
  const ranked: { readonly profile: RevisionProfile; readonly rank: number }[] = [];
  const seen = new Set<string>();
  revisions.forEach((descriptor, position) => {
    if (typeof descriptor === "string") {
      throw new Error(
        `MCP revision "${descriptor}" given by name: pass its descriptor (import { revision } from "@mcp-gen/runtime/protocol/${descriptor}", or pick it from builtinRevisions)`,
      );
    }
    if (typeof descriptor !== "object" || descriptor === null) {
      throw new Error(
        `MCP revision ${JSON.stringify(descriptor)} is not a revision descriptor (import { revision } from "@mcp-gen/runtime/protocol/<name>", or pick from builtinRevisions)`,
      );
    }
    const p = profileOf(descriptor);
    if (seen.has(p.version)) throw new Error(`MCP revision version "${p.version}" is listed twice`);
    seen.add(p.version);
    ranked.push({ profile: p, rank: builtinRank(p.version) ?? builtinReleaseOrder.length + position });
  });
  return ranked.sort((a, b) => b.rank - a.rank).map((r) => r.profile);
}

function builtinRank(version: string): number | undefined {
  const index = (builtinReleaseOrder as readonly string[]).indexOf(version);
  return index < 0 ? undefined : index;
}

/** The facts of `version` among `revisions` (what a server serves), else undefined: nothing outside them is known. */
export function factsOf(revisions: readonly RevisionFacts[], version: string): RevisionFacts | undefined {
  return revisions.find((r) => r.version === version);
}
