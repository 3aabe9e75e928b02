/**
 * The read stage's view of protocol revisions: the built-in ones generated code can ask the runtime for, and the
 * folders of `mcp-gen protocol` output a manifest names (`server.revisions: [{ bindings: ./protocol/draft }]`).
 *
 * A built-in revision is a folder of the runtime package's `generated/protocol/` holding an `ir.json`, whatever its
 * name looks like (`builtinProtocolDir`: the installed package, or runtime/ through the workspace link in this
 * repository, so a newly generated revision counts before any build). The runtime's own list is built from the same
 * folders (generated/protocol/revisions.ts, kept in sync by `npm run generate:check`); they are listed from disk
 * rather than imported so that checking a manifest does not load every revision's schemas.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { builtinIrPath, builtinProtocolDir, loadModel } from "../diff/load.ts";
import { DEFAULT_RUNTIME_IMPORT } from "../manifest/defaults.ts";
import type { BaseBindings } from "./protocol.ts";
import type { BindingsLookup } from "../manifest/lower-manifest.ts";
import { posixRelative } from "./paths.ts";

let known: readonly string[] | undefined;

/** Every revision with generated bindings, by folder name, sorted. */
export function knownRevisions(): readonly string[] {
  known ??= listRevisions(builtinProtocolDir());
  return known;
}

function listRevisions(dir: string): readonly string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(path.join(dir, e.name, "ir.json")))
    .map((e) => e.name)
    .sort();
}

/**
 * A manifest's `{ bindings: <folder> }` revision: the folder (relative to `manifestDir`) must hold `mcp-gen protocol`
 * output, a `revision.ts` descriptor and an `ir.json` with a `protocol` block. Answers the descriptor module as the
 * generated code in `outDir` imports it, or why the folder does not qualify.
 */
export function lookUpBindings(folder: string, manifestDir: string, outDir: string): BindingsLookup {
  const dir = path.resolve(manifestDir, folder);
  const hint = `generate it with \`mcp-gen protocol --schema <schema.ts> --out ${folder}\``;
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return { problem: `no folder ${folder} (${hint})` };
  if (!existsSync(path.join(dir, "revision.ts")))
    return { problem: `${folder} holds no revision.ts, so it is not protocol bindings (${hint})` };
  const ir = path.join(dir, "ir.json");
  if (!existsSync(ir)) return { problem: `${folder} holds no ir.json, so it is not protocol bindings (${hint})` };
  let protocol: unknown;
  try {
    protocol = (JSON.parse(readFileSync(ir, "utf8")) as { protocol?: unknown }).protocol;
  } catch {
    return { problem: `${folder}/ir.json is not JSON (${hint})` };
  }
  if (typeof protocol !== "object" || protocol === null)
    return { problem: `${folder}/ir.json has no protocol block: bindings of a base revision only (${hint})` };
  const module = posixRelative(outDir, path.join(dir, "revision"));
  return { module: module.startsWith(".") ? module : `./${module}` };
}

/**
 * The revisions an extension schema may refer to, in the order they are tried: those the user names (`--base`: a
 * built-in revision's name, or a `mcp-gen protocol` folder relative to the working directory), then the built-in
 * revisions, newest first. Each with the specifier the extension's files in `outDir` import it by: a folder's index
 * module, a built-in's `@mcp-gen/runtime/protocol/<name>` entry.
 */
export function baseBindings(given: readonly string[], outDir: string, importExtension: string): BaseBindings[] {
  const named = given.map((arg) => {
    const builtin = !existsSync(path.resolve(arg)) && builtinIrPath(arg) !== undefined;
    const model = loadModel(arg);
    if (model.extension) throw new Error(`--base ${arg}: these are an extension's bindings, not a revision's`);
    if (builtin) return { model, builtin: true, specifier: `${DEFAULT_RUNTIME_IMPORT}/protocol/${arg}` };
    const index = posixRelative(outDir, path.join(path.resolve(arg), `index${importExtension}`));
    return { model, builtin: false, specifier: index.startsWith(".") ? index : `./${index}` };
  });
  const builtins = [...knownRevisions()]
    .reverse()
    .filter((name) => !named.some((b) => b.builtin && b.model.revision === name))
    .map((name) => ({
      model: loadModel(builtinIrPath(name)!),
      builtin: true,
      specifier: `${DEFAULT_RUNTIME_IMPORT}/protocol/${name}`,
    }));
  return [...named, ...builtins];
}
