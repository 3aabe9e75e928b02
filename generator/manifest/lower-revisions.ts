/**
 * `server.revisions` lowered: built-in names and `{ bindings: <folder> }` entries checked (the read stage looks the
 * folders up), and the IR of each revision the server speaks, which decides what else the manifest may declare
 * (`revision-extras.ts`).
 */
import type { IrModel } from "../ir/model.ts";
import { isRuntimePath } from "./defaults.ts";
import { duplicates } from "./duplicates.ts";
import { SchemaProblem } from "./errors.ts";
import type { Manifest } from "./manifest-schema.ts";
import type { ServedRevision } from "./revision-extras.ts";
import type { UserRevision, UserServerInfo } from "./user-model.ts";

/** A bindings folder as the read stage found it. */
export type BindingsLookup = { readonly module: string } | { readonly problem: string };

/** What lowering `server.revisions` needs from the read stage. */
export interface RevisionLookup {
  /** Every built-in protocol revision the runtime knows: `server.revisions` may name only these (or a folder). */
  readonly knownRevisions: readonly string[];
  /**
   * The read stage's answer for a `{ bindings: <folder> }` revision of this manifest: its `revision` module relative
   * to the output folder, or why the folder holds no bindings. Without it, folders are refused.
   */
  readonly bindings?: (folder: string, manifest: Manifest) => BindingsLookup;
  /**
   * The IR of a revision the server speaks. Fields and capabilities beyond the manifest's own are accepted where a
   * served revision declares them; without it, none are.
   */
  readonly revisionModel?: (revision: UserRevision) => IrModel | undefined;
  /** The declaration listing a server's capabilities in a revision's IR (the lowering's naming convention). */
  readonly serverCapabilities?: string;
}

/**
 * `server.revisions` must name revisions the runtime speaks or folders holding generated bindings: the generated
 * server hands them to the runtime, which would refuse an unknown one only when the server starts. Built-in names
 * come from the runtime's bindings, so a newly generated built-in revision is accepted without a code change.
 */
export function lowerRevisions(
  manifest: Manifest,
  options: RevisionLookup,
  problems: SchemaProblem[],
): UserRevision[] | undefined {
  const declared = manifest.server.revisions;
  if (!declared) return undefined;
  const known = options.knownRevisions;
  const runtimeImport = manifest.generate?.runtimeImport;
  // A built-in revision is the runtime package's `<runtimeImport>/protocol/<name>` entry: a path has no such entries.
  const runtimePath = runtimeImport !== undefined && isRuntimePath(runtimeImport);
  const lowered: UserRevision[] = [];
  declared.forEach((entry, i) => {
    if (typeof entry === "string") {
      if (known.includes(entry) && runtimePath)
        problems.push(
          new SchemaProblem(
            ["server", "revisions", i],
            `built-in revision ${JSON.stringify(entry)} is imported from the runtime package's <runtimeImport>/protocol/${entry} entry, but generate.runtimeImport ${JSON.stringify(runtimeImport)} is a path, not a package name`,
          ),
        );
      else if (known.includes(entry)) lowered.push({ kind: "builtin", name: entry });
      else
        problems.push(
          new SchemaProblem(
            ["server", "revisions", i],
            `unknown protocol revision ${JSON.stringify(entry)} (known: ${known.join(", ")})`,
          ),
        );
      return;
    }
    const found = options.bindings
      ? options.bindings(entry.bindings, manifest)
      : { problem: "bindings folders are not available here" };
    if ("problem" in found) problems.push(new SchemaProblem(["server", "revisions", i, "bindings"], found.problem));
    else lowered.push({ kind: "bindings", folder: entry.bindings, module: found.module });
  });
  const key = (entry: string | { bindings: string }) =>
    typeof entry === "string" ? entry : `{ bindings: ${normalizeFolder(entry.bindings)} }`;
  problems.push(...duplicates(declared, ["server", "revisions"], "protocol revision", key, null));
  return lowered;
}

export function serverInfo(server: Manifest["server"], revisions: readonly UserRevision[] | undefined): UserServerInfo {
  const { revisions: _declared, ...info } = server;
  return revisions ? { ...info, revisions } : info;
}

/** `./protocol/draft/` and `protocol/draft` name the same folder. */
function normalizeFolder(folder: string): string {
  const parts = folder.split(/[\\/]+/).filter((p) => p !== "" && p !== ".");
  return (folder.startsWith("/") ? "/" : "") + parts.join("/");
}

/**
 * The revisions the server speaks with their IR, in the manifest's order (`index` into `server.revisions`; every
 * built-in one, without an index, when the manifest names none). A revision whose IR cannot be read is left out.
 * `needed: "bindings"` answers the user's bindings only (what `newMethods` reads).
 */
export function servedRevisions(
  revisions: readonly UserRevision[] | undefined,
  options: RevisionLookup,
  needed: "all" | "bindings",
): ServedRevision[] {
  const { revisionModel: lookUp, serverCapabilities: capabilities } = options;
  if (!lookUp || capabilities === undefined) return [];
  const listed = revisions ?? options.knownRevisions.map((name): UserRevision => ({ kind: "builtin", name }));
  return listed.flatMap((revision, i) => {
    // Only a user's bindings add methods; the built-in IRs are read when a field needs checking.
    if (needed === "bindings" && revision.kind !== "bindings") return [];
    const model = lookUp(revision);
    if (!model) return [];
    return [revisions ? { model, capabilities, index: i } : { model, capabilities }];
  });
}
