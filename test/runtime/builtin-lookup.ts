/**
 * Test-side lookups of the built-in revisions by wire version, now that the runtime keeps no process-wide registry:
 * each reads `builtinRevisions` (the value a server or client is given), so a test names a revision by its version
 * string and passes the descriptor.
 */
import { builtinRevisions } from "../../runtime/protocol/builtin-revisions.ts";
import type { RevisionDescriptor } from "../../runtime/protocol/method-type.ts";
import { rankProfiles } from "../../runtime/protocol/preference.ts";
import { profileOf, type Era, type RevisionProfile } from "../../runtime/protocol/profiles.ts";

/** The built-in revision of wire version `version`; throws for any other version. */
export function builtin(version: string): RevisionDescriptor {
  const found = builtinRevisions.find((r) => r.version === version);
  if (!found) throw new Error(`no built-in revision ${version}`);
  return found;
}

/** The profile of a built-in wire version, else undefined. */
export function getProfile(version: string): RevisionProfile | undefined {
  const found = builtinRevisions.find((r) => r.version === version);
  return found && profileOf(found);
}

/** The era of a built-in wire version, else undefined. */
export function eraOf(version: string): Era | undefined {
  return builtinRevisions.find((r) => r.version === version)?.era;
}

/** `rankProfiles` of a list where built-ins may be given by wire version (default: every built-in revision). */
export function selectProfiles(list: readonly (RevisionDescriptor | string)[] = builtinRevisions): RevisionProfile[] {
  return rankProfiles(list.map((entry) => (typeof entry === "string" ? builtin(entry) : entry)));
}
