/**
 * The revisions this runtime speaks: every revision in `generated/protocol/revisions.ts`, profiled once.
 * Revision names are dates (YYYY-MM-DD), so string order is release order; newest is preferred.
 */
import * as generated from "../../generated/protocol/revisions.ts";
import { profileOf, type RevisionBindings, type RevisionProfile } from "./profiles.ts";

function isBindings(value: unknown): value is RevisionBindings {
  return typeof value === "object" && value !== null && typeof (value as { methods?: unknown }).methods === "object";
}

/** Finds the revision → bindings map among the module's exports, whatever it is called. */
function findRevisionMap(module: Readonly<Record<string, unknown>>): Readonly<Record<string, RevisionBindings>> {
  for (const value of Object.values(module)) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) continue;
    const entries = Object.values(value as Record<string, unknown>);
    if (entries.length > 0 && entries.every(isBindings)) return value as Record<string, RevisionBindings>;
  }
  throw new Error("generated/protocol/revisions.ts exports no map of revision → bindings");
}

const profiles = new Map<string, RevisionProfile>();
for (const [revision, bindings] of Object.entries(findRevisionMap(generated as Readonly<Record<string, unknown>>))) {
  profiles.set(revision, profileOf(revision, bindings));
}

/** Every supported revision, newest first. */
export const SUPPORTED_REVISIONS: readonly string[] = [...profiles.keys()].sort().reverse();

export function getProfile(revision: string): RevisionProfile | undefined {
  return profiles.get(revision);
}

/** Profiles for `revisions` (default: all), newest first; unknown names are an error. */
export function selectProfiles(revisions?: readonly string[]): RevisionProfile[] {
  const names = revisions ?? SUPPORTED_REVISIONS;
  const out = names.map((name) => {
    const profile = profiles.get(name);
    if (!profile) throw new Error(`unsupported MCP revision "${name}" (supported: ${SUPPORTED_REVISIONS.join(", ")})`);
    return profile;
  });
  return out.sort((a, b) => (a.revision < b.revision ? 1 : a.revision > b.revision ? -1 : 0));
}

/** The era of a supported revision (from its bindings), or undefined for an unknown revision. */
export function eraOf(revision: string): "handshake" | "stateless" | undefined {
  return profiles.get(revision)?.era;
}
