/**
 * generated/protocol/revisions.ts: every generated revision directory, as a map revision → module namespace, and the
 * list of their descriptors.
 */
import { createHash } from "node:crypto";
import { tsHeader } from "./generated-file.ts";
import { createPrinter } from "./printer.ts";
import { relativeModule } from "./runtime-symbols.ts";

export function emitRevisionsFile(revisions: readonly string[]): string {
  const sorted = [...revisions].sort();
  const hash = createHash("sha256").update(sorted.join("\n")).digest("hex");
  const f = createPrinter({ runtime: () => "", siblingExtension: ".ts" });
  const namespace = (rev: string) => relativeModule(`r_${rev.replace(/[^A-Za-z0-9]/g, "_")}`, `./${rev}/index.ts`);
  f.print("/** The protocol bindings of every generated revision, keyed by revision name (sorted). */");
  f.print("export const revisions = {");
  for (const rev of sorted) f.print(`  ${JSON.stringify(rev)}: `, namespace(rev), ",");
  f.print("} as const;");
  f.print("");
  f.print("export type ProtocolRevision = keyof typeof revisions;");
  f.print("");
  f.print("/** Revision names, oldest first. */");
  f.print("export const revisionNames = Object.keys(revisions) as ProtocolRevision[];");
  f.print("");
  f.print(
    "/** The revision descriptors (each folder's `revision`), oldest first: what the runtime serves by default. */",
  );
  f.print(
    "export const revisionDescriptors = [",
    sorted.map((rev) => [namespace(rev), ".revision"]).map((p, i) => (i ? [", ", p] : p)),
    "] as const;",
  );
  return f.render(tsHeader("the revision directories of generated/protocol", hash));
}

/**
 * generated/protocol/release-order.ts: the built-in revisions' wire versions, oldest first, with no imports, so that
 * the runtime's registry can rank built-ins (and name them in errors) without bundling their bindings. A built-in
 * revision's wire version is its folder name (the generator writes both from the same string).
 */
export function emitReleaseOrderFile(revisions: readonly string[]): string {
  const sorted = [...revisions].sort();
  const hash = createHash("sha256").update(sorted.join("\n")).digest("hex");
  const f = createPrinter({ runtime: () => "", siblingExtension: ".ts" });
  f.print(
    "/** The wire versions of the built-in revisions, oldest first (release order); no bindings are imported. */",
  );
  f.print(`export const builtinReleaseOrder = ${JSON.stringify(sorted)} as const;`);
  return f.render(tsHeader("the revision directories of generated/protocol", hash));
}
