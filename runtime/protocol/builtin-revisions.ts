/**
 * The package's built-in revisions as descriptors: the default `revisions` list of `McpServer` and `McpClient`, and
 * what a built-in revision's name (a string in such a list) stands for. This is the one runtime module that imports
 * every built-in revision's bindings, so whatever references it bundles all of them; code that passes descriptors to
 * `McpServerCore` / `McpClientCore` never does (see `registry.ts`).
 */
import { revisionDescriptors } from "../generated/protocol/revisions.ts";
import type { RevisionDescriptor } from "./method-type.ts";
import type { RevisionProfile } from "./profiles.ts";
import { rankProfiles, SUPPORTED_REVISIONS, type RevisionInput } from "./registry.ts";

/** The package's revisions, oldest first (release order). */
export const BUILTIN_REVISIONS: readonly RevisionDescriptor[] = revisionDescriptors;

/**
 * `revisions` as descriptors: built-in names (or wire versions) replaced by their descriptors, undefined by every
 * built-in revision. An unknown name is an error.
 */
export function withBuiltinRevisions(revisions: readonly RevisionInput[] | undefined): readonly RevisionDescriptor[] {
  if (revisions === undefined) return BUILTIN_REVISIONS;
  return revisions.map((input) => {
    if (typeof input !== "string") return input;
    const builtin = BUILTIN_REVISIONS.find((d) => d.name === input || d.version === input);
    if (!builtin) {
      throw new Error(
        `unsupported MCP revision "${input}": not a built-in revision (${SUPPORTED_REVISIONS.join(", ")}); pass a generated revision descriptor instead`,
      );
    }
    return builtin;
  });
}

/** `rankProfiles` of `revisions` (default: the built-in ones), built-in names accepted. */
export function selectProfiles(revisions?: readonly RevisionInput[]): RevisionProfile[] {
  return rankProfiles(withBuiltinRevisions(revisions));
}

// Wherever the built-ins are loaded, string lookups (`getProfile`, `eraOf`) know them all, as before this module
// was split from the registry; a bundle that never references this module knows only its configured revisions.
rankProfiles(BUILTIN_REVISIONS);
