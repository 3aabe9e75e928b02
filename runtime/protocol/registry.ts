/**
 * Revisions as values. A revision is its descriptor (`RevisionDescriptor`: the `revision` export of a generated
 * `runtime/generated/protocol/<name>/index.ts`, or of any `mcp-gen protocol --out` folder); servers and clients take a
 * list of them (`revisions: [r2026_07_28, myDraft]`). The package's built-in revisions are only the default list,
 * and their names (strings) stay accepted in such lists.
 *
 * Preference order (which revision `initialize` picks, which stateless revision a client probes first) never
 * depends on what a name or version looks like. The rule:
 * - built-in revisions rank in release order, which is the order of the generated table (`builtinReleaseOrder`);
 * - a descriptor whose wire `version` is a built-in's takes that built-in's rank (a regenerated copy of it);
 * - any other descriptor ranks above every built-in one, and among those, later in the list ranks higher;
 * - a list ordered newest first (`rankProfiles`) is that rank, highest first.
 *
 * Lookups by string (`getProfile`, `eraOf`) take the on-the-wire version, the only name a peer ever sends; they know
 * every revision a server or client of this process was configured with (the HTTP paths only ever ask about those).
 *
 * Bundle size: this module imports no bindings (the release order is a table of strings). The default list and the
 * built-in names live in `builtin-revisions.ts`, which `McpServer` and `McpClient` use and which bundles every
 * built-in revision; `McpServerCore` / `McpClientCore` given descriptors bundle only those descriptors' revisions.
 */
import { builtinReleaseOrder, builtinTransportFacts } from "../generated/protocol/release-order.ts";
import type { RevisionDescriptor } from "./method-type.ts";
import { profileOf, type Era, type RevisionProfile } from "./profiles.ts";

/** A revision in a `revisions` list: a descriptor, or the name of a built-in revision. */
export type RevisionInput = RevisionDescriptor | string;

/** Wire versions of the built-in revisions, newest first. */
export const SUPPORTED_REVISIONS: readonly string[] = [...builtinReleaseOrder].reverse();

const builtinRank = new Map<string, number>(builtinReleaseOrder.map((version, i) => [version, i]));

const profilesByDescriptor = new WeakMap<RevisionDescriptor, RevisionProfile>();
/** Every revision a server or client of this process was configured with, by wire version (the latest wins). */
const known = new Map<string, RevisionProfile>();

function profile(descriptor: RevisionDescriptor): RevisionProfile {
  let p = profilesByDescriptor.get(descriptor);
  if (!p) {
    p = profileOf(descriptor);
    profilesByDescriptor.set(descriptor, p);
  }
  return p;
}

/**
 * Profiles for `revisions` (descriptors; `selectProfiles` in `builtin-revisions.ts` also takes names), in preference
 * order, newest first (see the rule above). Two entries with the same wire version, and an empty list, are errors.
 */
export function rankProfiles(revisions: readonly RevisionDescriptor[]): RevisionProfile[] {
  if (revisions.length === 0) throw new Error("no MCP revisions configured");
  const ranked: { readonly profile: RevisionProfile; readonly rank: number }[] = [];
  const seen = new Set<string>();
  revisions.forEach((descriptor, position) => {
    if (typeof descriptor !== "object" || descriptor === null) {
      throw new Error(`MCP revision ${JSON.stringify(descriptor)} is not a revision descriptor`);
    }
    const p = profile(descriptor);
    if (seen.has(p.version)) throw new Error(`MCP revision version "${p.version}" is listed twice`);
    seen.add(p.version);
    known.set(p.version, p);
    ranked.push({ profile: p, rank: builtinRank.get(p.version) ?? builtinReleaseOrder.length + position });
  });
  return ranked.sort((a, b) => b.rank - a.rank).map((r) => r.profile);
}

/**
 * `revisions` of a `McpServerCore` / `McpClientCore`, which take descriptors only: neither the default list nor a
 * built-in name (both need every built-in revision's bindings, see `builtin-revisions.ts`).
 */
export function descriptorsOnly(revisions: readonly RevisionInput[] | undefined): readonly RevisionDescriptor[] {
  if (revisions === undefined) {
    throw new Error(
      "no MCP revisions configured: pass revision descriptors (McpServer and McpClient default to every built-in one)",
    );
  }
  for (const input of revisions) {
    if (typeof input === "string") {
      throw new Error(
        `MCP revision "${input}" given by name: pass its descriptor (import { revision } from "@mcp-gen/runtime/protocol/${input}"), or use McpServer / McpClient, which resolve built-in names`,
      );
    }
  }
  return revisions as readonly RevisionDescriptor[];
}

/** The profile of a wire version a server or client of this process was configured with, else undefined. */
export function getProfile(version: string): RevisionProfile | undefined {
  return known.get(version);
}

/**
 * The era of a wire version a server or client of this process was configured with, or of a built-in revision (from
 * the release-order table, which loads no bindings), else undefined.
 */
export function eraOf(version: string): Era | undefined {
  return known.get(version)?.era ?? transportFactsOf(version)?.era;
}

/** Whether a wire version (configured, or built-in) has JSON-RPC batches; false for an unknown version. */
export function batchesOf(version: string): boolean {
  return known.get(version)?.batches ?? transportFactsOf(version)?.batches ?? false;
}

function transportFactsOf(version: string): { readonly era: Era; readonly batches: boolean } | undefined {
  return Object.hasOwn(builtinTransportFacts, version) ? builtinTransportFacts[version] : undefined;
}
