/**
 * Revisions as values. A revision is its descriptor (`RevisionDescriptor`: the `revision` export of a generated
 * `generated/protocol/<name>/index.ts`, or of any `mcp-gen protocol --out` folder); servers and clients take a
 * list of them (`revisions: [r2026_07_28, myDraft]`). The package's built-in revisions are only the default list,
 * and their names (strings) stay accepted in such lists.
 *
 * Preference order (which revision `initialize` picks, which stateless revision a client probes first) never
 * depends on what a name or version looks like. The rule:
 * - built-in revisions rank in release order, which is the order of the generated list (`revisionDescriptors`);
 * - a descriptor whose wire `version` is a built-in's takes that built-in's rank (a regenerated copy of it);
 * - any other descriptor ranks above every built-in one, and among those, later in the list ranks higher;
 * - a list ordered newest first (`selectProfiles`) is that rank, highest first.
 *
 * Lookups by string (`getProfile`, `eraOf`) take the on-the-wire version, the only name a peer ever sends; they know
 * the built-in revisions and every descriptor a server or client was given in this process.
 */
import { revisionDescriptors } from "../../generated/protocol/revisions.ts";
import type { RevisionDescriptor } from "./method-type.ts";
import { profileOf, type Era, type RevisionProfile } from "./profiles.ts";

/** A revision in a `revisions` list: a descriptor, or the name of a built-in revision. */
export type RevisionInput = RevisionDescriptor | string;

/** The package's revisions, oldest first (release order). */
export const BUILTIN_REVISIONS: readonly RevisionDescriptor[] = revisionDescriptors;

const profilesByDescriptor = new WeakMap<RevisionDescriptor, RevisionProfile>();
/** Every revision seen in this process, by wire version (built-ins first; a later descriptor replaces its entry). */
const known = new Map<string, RevisionProfile>();

function profile(descriptor: RevisionDescriptor): RevisionProfile {
  let p = profilesByDescriptor.get(descriptor);
  if (!p) {
    p = profileOf(descriptor);
    profilesByDescriptor.set(descriptor, p);
  }
  return p;
}

const builtinRank = new Map<string, number>();
const builtinByName = new Map<string, RevisionDescriptor>();
BUILTIN_REVISIONS.forEach((d, i) => {
  builtinRank.set(d.version, i);
  builtinByName.set(d.name, d);
  builtinByName.set(d.version, d);
});

/** Wire versions of the built-in revisions, newest first. */
export const SUPPORTED_REVISIONS: readonly string[] = BUILTIN_REVISIONS.map((d) => d.version).reverse();

function resolveOne(input: RevisionInput): RevisionDescriptor {
  if (typeof input !== "string") return input;
  const builtin = builtinByName.get(input);
  if (!builtin) {
    throw new Error(
      `unsupported MCP revision "${input}": not a built-in revision (${SUPPORTED_REVISIONS.join(", ")}); pass a generated revision descriptor instead`,
    );
  }
  return builtin;
}

/**
 * Profiles for `revisions` (default: the built-in ones), in preference order, newest first (see the rule above).
 * Unknown names, and two entries with the same wire version, are errors.
 */
export function selectProfiles(revisions: readonly RevisionInput[] = BUILTIN_REVISIONS): RevisionProfile[] {
  const ranked: { readonly profile: RevisionProfile; readonly rank: number }[] = [];
  const seen = new Set<string>();
  revisions.forEach((input, position) => {
    const p = profile(resolveOne(input));
    if (seen.has(p.version)) throw new Error(`MCP revision version "${p.version}" is listed twice`);
    seen.add(p.version);
    known.set(p.version, p);
    ranked.push({ profile: p, rank: builtinRank.get(p.version) ?? BUILTIN_REVISIONS.length + position });
  });
  return ranked.sort((a, b) => b.rank - a.rank).map((r) => r.profile);
}

for (const d of BUILTIN_REVISIONS) known.set(d.version, profile(d));

/** The profile of a wire version this process knows (built-in, or given to a server or client), else undefined. */
export function getProfile(version: string): RevisionProfile | undefined {
  return known.get(version);
}

/** The era of a wire version this process knows, else undefined. */
export function eraOf(version: string): Era | undefined {
  return known.get(version)?.era;
}
