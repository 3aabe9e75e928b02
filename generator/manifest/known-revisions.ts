/**
 * The protocol revisions generated code can ask the runtime for: the revision folders of generated/protocol/. The
 * runtime's registry is built from the same folders (through generated/protocol/revisions.ts, kept in sync by
 * `npm run generate:check`); they are listed from disk rather than imported so that checking a manifest does not
 * load every revision's schemas.
 */
import { existsSync, readdirSync } from "node:fs";

const PROTOCOL_DIR = new URL("../../generated/protocol/", import.meta.url);
const REVISION_NAME = /^\d{4}-\d{2}-\d{2}$/;

let known: readonly string[] | undefined;

/** Every revision with generated bindings, oldest first. */
export function knownRevisions(): readonly string[] {
  known ??= readdirSync(PROTOCOL_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory() && REVISION_NAME.test(e.name))
    .filter((e) => existsSync(new URL(`${e.name}/index.ts`, PROTOCOL_DIR)))
    .map((e) => e.name)
    .sort();
  return known;
}
