/**
 * The protocol revisions generated code can ask the runtime for: the revision folders of the runtime's protocol
 * bindings. The runtime's registry is built from the same folders (through generated/protocol/revisions.ts, kept in
 * sync by `npm run generate:check`); they are listed from disk rather than imported so that checking a manifest does
 * not load every revision's schemas.
 *
 * Run from this repository's sources, the folders are generated/protocol/ (so a newly generated revision counts
 * before any build); run as the installed CLI, they are the @mcp-gen/runtime package's built bindings, found through
 * its `./protocol` export.
 */
import { existsSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const REVISION_NAME = /^\d{4}-\d{2}-\d{2}$/;

let known: readonly string[] | undefined;

/** Every revision with generated bindings, oldest first. */
export function knownRevisions(): readonly string[] {
  known ??= listRevisions(...protocolDir());
  return known;
}

/** The bindings folder and the file each revision folder must hold. */
function protocolDir(): [dir: string, index: string] {
  const source = fileURLToPath(new URL("../../generated/protocol/", import.meta.url));
  if (existsSync(path.join(source, "revisions.ts"))) return [source, "index.ts"];
  const revisions = createRequire(import.meta.url).resolve("@mcp-gen/runtime/protocol");
  return [path.dirname(revisions), "index.js"];
}

function listRevisions(dir: string, index: string): readonly string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && REVISION_NAME.test(e.name))
    .filter((e) => existsSync(path.join(dir, e.name, index)))
    .map((e) => e.name)
    .sort();
}
