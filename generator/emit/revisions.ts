/**
 * runtime/generated/protocol/revisions.ts: every generated revision directory, as a map revision → module namespace, and the
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
  // A literal, not `Object.keys(revisions)`: a bundler cannot drop a call, which would keep every revision's whole
  // namespace (all its schemas and constants) in a bundle that only serves the descriptors.
  f.print("/** Revision names, oldest first. */");
  f.print(`export const revisionNames: ProtocolRevision[] = ${JSON.stringify(sorted)};`);
  f.print("");
  f.print(
    "/** The revision descriptors (each folder's `revision`), oldest first: what the runtime serves by default. */",
  );
  f.print(
    "export const revisionDescriptors = [",
    sorted.map((rev) => [namespace(rev), ".revision"]).map((p, i) => (i ? [", ", p] : p)),
    "] as const;",
  );
  return f.render(tsHeader("the revision directories of runtime/generated/protocol", hash));
}

/** A built-in revision as the release-order table states it: its folder, wire version and transport facts. */
export interface BuiltinRevisionFacts {
  readonly name: string;
  readonly version: string;
  readonly era: "handshake" | "stateless";
  readonly batches: boolean;
}

/**
 * runtime/generated/protocol/release-order.ts: the built-in revisions' wire versions, oldest first (by folder name), with the
 * era and batch facts their IR states, and no imports: the runtime's registry ranks built-ins and the HTTP layer
 * answers a built-in version's transport rules without bundling any revision's bindings.
 */
export function emitReleaseOrderFile(revisions: readonly BuiltinRevisionFacts[]): string {
  const sorted = [...revisions].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const hash = createHash("sha256")
    .update(sorted.map((r) => r.name).join("\n"))
    .digest("hex");
  const f = createPrinter({ runtime: () => "", siblingExtension: ".ts" });
  f.print(
    "/** The wire versions of the built-in revisions, oldest first (release order); no bindings are imported. */",
  );
  f.print(`export const builtinReleaseOrder = ${JSON.stringify(sorted.map((r) => r.version))} as const;`);
  f.print("");
  f.print(
    "/** Each built-in wire version's era and batch support (from its IR), for lookups that load no bindings. */",
  );
  f.print("export const builtinTransportFacts: Readonly<");
  f.print('  Record<string, { readonly era: "handshake" | "stateless"; readonly batches: boolean }>');
  f.print("> = {");
  for (const r of sorted)
    f.print(`  ${JSON.stringify(r.version)}: { era: ${JSON.stringify(r.era)}, batches: ${r.batches} },`);
  f.print("};");
  return f.render(tsHeader("the revision directories of runtime/generated/protocol", hash));
}
