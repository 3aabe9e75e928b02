/**
 * generated/protocol/revisions.ts: every generated revision directory, as a map revision → module namespace, and the
 * list of their descriptors.
 */
import { createHash } from "node:crypto";
import { tsHeader } from "./generated-file.ts";

export function emitRevisionsFile(revisions: readonly string[]): string {
  const sorted = [...revisions].sort();
  const hash = createHash("sha256").update(sorted.join("\n")).digest("hex");
  const alias = (rev: string) => `r_${rev.replace(/[^A-Za-z0-9]/g, "_")}`;
  return (
    tsHeader("the revision directories of generated/protocol", hash) +
    sorted.map((rev) => `import * as ${alias(rev)} from ${JSON.stringify(`./${rev}/index.ts`)};\n`).join("") +
    `\n/** The protocol bindings of every generated revision, keyed by revision name (sorted). */\n` +
    `export const revisions = {\n${sorted.map((rev) => `  ${JSON.stringify(rev)}: ${alias(rev)},\n`).join("")}} as const;\n\n` +
    `export type ProtocolRevision = keyof typeof revisions;\n\n` +
    `/** Revision names, oldest first. */\n` +
    `export const revisionNames = Object.keys(revisions) as ProtocolRevision[];\n\n` +
    `/** The revision descriptors (each folder's \`revision\`), oldest first: what the runtime serves by default. */\n` +
    `export const revisionDescriptors = [${sorted.map((rev) => `${alias(rev)}.revision`).join(", ")}] as const;\n`
  );
}
