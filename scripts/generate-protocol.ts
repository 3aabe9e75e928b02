/**
 * `npm run generate`: regenerates runtime/generated/protocol/<revision>/ for every revision directory of the spec root
 * (`.spec/`, filled and verified first by `spec-inputs.ts`) that holds a schema.ts, runtime/generated/protocol/revisions.ts,
 * the fidelity files test/protocol/fidelity/<rev>.ts, and runtime/generated/extensions/<name>/ for every extension schema
 * (`.spec/extensions/<name>/schema.ts`). Headers and `ir.json` name the schemas relative to the spec root
 * (`2025-11-25/schema.ts`), so the output does not depend on where the spec files came from.
 * `npm run generate:check` (`--check`) writes nothing and exits 1 naming every stale, missing or extra file. Writing
 * and checking are the write stage's (`pipeline/write.ts`), as for a manifest; generation owns every file under
 * runtime/generated/protocol and the `.ts` files of the fidelity folder.
 */
import { readdir } from "node:fs/promises";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { emitFidelityFile } from "../generator/emit/fidelity.ts";
import type { GeneratedFile } from "../generator/emit/generated-file.ts";
import type { IrModel } from "../generator/ir/model.ts";
import type { RuntimeEntry } from "../generator/emit/printer.ts";
import { formatTypeScript } from "../generator/pipeline/format.ts";
import { emitReleaseOrderFile, emitRevisionsFile, type BuiltinRevisionFacts } from "../generator/emit/revisions.ts";
import { posixRelative } from "../generator/pipeline/paths.ts";
import { REPO_ROOT } from "./repo-root.ts";
import { generateProtocol, type BaseBindings } from "../generator/pipeline/protocol.ts";
import { compareFiles, writeFiles } from "../generator/pipeline/write.ts";
import { ensureSpecInputs, requireSpecRoot, SPEC_ROOT } from "./spec-inputs.ts";

export { SPEC_ROOT };
export const PROTOCOL_OUT = path.join(REPO_ROOT, "runtime/generated/protocol");
export const FIDELITY_OUT = path.join(REPO_ROOT, "test/protocol/fidelity");
export const EXTENSIONS_OUT = path.join(REPO_ROOT, "runtime/generated/extensions");

/** The runtime's source module of each entry point generated bindings may import. */
const RUNTIME_SOURCES: Readonly<Record<RuntimeEntry, string>> = {
  core: "runtime/index.ts",
  "method-type": "runtime/protocol/method-type.ts",
  "zod-helpers": "runtime/protocol/zod-helpers.ts",
  tasks: "runtime/tasks/index.ts",
  apps: "runtime/apps/index.ts",
  skills: "runtime/skills/index.ts",
};

/**
 * How bindings written to `outDir` (inside runtime/, so part of the runtime package) import the runtime: relatively,
 * its leaf modules' sources (a package does not import itself by name; the build rewrites `.ts` to `.js`).
 */
export function runtimeSourcesFrom(outDir: string): (entry: RuntimeEntry) => string {
  return (entry) => {
    const specifier = posixRelative(outDir, path.join(REPO_ROOT, RUNTIME_SOURCES[entry]));
    return specifier.startsWith(".") ? specifier : `./${specifier}`;
  };
}

/** A built-in revision's bindings (their index module's source) as bindings written to `outDir` import them. */
export function builtinSourceFrom(outDir: string, revision: string): string {
  const specifier = posixRelative(outDir, path.join(PROTOCOL_OUT, revision, "index.ts"));
  return specifier.startsWith(".") ? specifier : `./${specifier}`;
}

/**
 * The identifier of each extension schema under <spec root>/extensions/<name>/ (the `--extension-id` its bindings
 * are generated with): a schema has no standard way to state its own.
 */
const EXTENSION_IDS: Readonly<Record<string, string>> = {
  skills: "io.modelcontextprotocol/skills",
  tasks: "io.modelcontextprotocol/tasks",
};

/**
 * Extension schemas published in npm packages (their types import the base protocol's by package name): generated
 * into runtime/generated/extensions/<name>/ like the spec root's. The package names stand for the base revision the
 * extension was written against: the newest built-in revision not newer than the protocol version the schema
 * declares (its `LATEST_PROTOCOL_VERSION` constant). The package is a devDependency, so the lockfile's integrity
 * hash pins the input; headers name it relative to node_modules.
 */
const PACKAGE_EXTENSIONS: readonly { name: string; id: string; module: string }[] = [
  { name: "apps", id: "io.modelcontextprotocol/ui", module: "@modelcontextprotocol/ext-apps/dist/src/spec.types.d.ts" },
];

/** The base a package schema builds on: the newest revision dated no later than the version it declares. */
function baseRevisionOf(schemaPath: string, revisions: readonly string[]): string {
  const declared = /\bLATEST_PROTOCOL_VERSION\s*=\s*"([^"]+)"/.exec(readFileSync(schemaPath, "utf8"))?.[1];
  if (declared === undefined)
    throw new Error(`${schemaPath}: declares no LATEST_PROTOCOL_VERSION, so its base revision is unknown`);
  const base = [...revisions]
    .sort()
    .filter((revision) => revision <= declared)
    .pop();
  if (base === undefined) throw new Error(`${schemaPath}: no built-in revision is as old as its version ${declared}`);
  return base;
}

/** The node_modules folder a package is installed in (as Node resolves it from this repository). */
function nodeModulesOf(pkg: string): string {
  const entry = createRequire(import.meta.url).resolve(pkg);
  const marker = `${path.sep}node_modules${path.sep}`;
  return entry.slice(0, entry.lastIndexOf(marker) + marker.length - 1);
}

export async function specRevisions(specRoot = requireSpecRoot()): Promise<string[]> {
  const entries = await readdir(specRoot, { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory() && existsSync(path.join(specRoot, e.name, "schema.ts")))
    .map((e) => e.name)
    .sort();
}

/** Every file `npm run generate` owns, with paths relative to the repository root. */
/**
 * `warn` hears what lowering reports without failing: irregular declarations of an input (`file:line: …`, each with
 * how it was handled) and the like; `npm run generate` prints them.
 */
export async function generateAll(
  specRoot = requireSpecRoot(),
  warn: (warning: string) => void = () => {},
): Promise<GeneratedFile[]> {
  const revisions = await specRevisions(specRoot);
  const all: GeneratedFile[] = [];
  const builtins: BuiltinRevisionFacts[] = [];
  const models: IrModel[] = [];
  const jobs = revisions.map(async (revision) => {
    const outDir = path.join(PROTOCOL_OUT, revision);
    const schemaPath = path.join(specRoot, revision, "schema.ts");
    const { model, files } = await generateProtocol({
      schemaPath,
      revision,
      displayRoot: specRoot,
      runtime: runtimeSourcesFrom(outDir),
    });
    const { era, version, batches } = model.protocol;
    if (era === undefined)
      throw new Error(`built-in revision ${revision}: its schema has neither initialize nor server/discover`);
    builtins.push({ name: revision, version, era, batches });
    models.push(model);
    const fidelity = emitFidelityFile(model, {
      generated: posixRelative(FIDELITY_OUT, outDir),
      // Always the repository's spec root, whatever root this run read: tsc checks the fidelity files against it.
      spec: posixRelative(FIDELITY_OUT, path.join(SPEC_ROOT, revision, "schema.ts")),
    });
    return [
      ...files.map((f) => ({ path: posixRelative(REPO_ROOT, path.join(outDir, f.path)), content: f.content })),
      {
        path: posixRelative(REPO_ROOT, path.join(FIDELITY_OUT, `${revision}.ts`)),
        content: await formatTypeScript(fidelity),
      },
    ];
  });
  for (const files of await Promise.all(jobs)) all.push(...files);
  // Extensions refer to the built-in revision their base matches (lowered just now, so a changed revision counts).
  models.sort((a, b) => (a.revision < b.revision ? 1 : -1));
  for (const files of await Promise.all(extensionJobs(specRoot, models, warn))) all.push(...files);
  for (const files of await Promise.all(packageExtensionJobs(models, warn))) all.push(...files);
  all.push({
    path: posixRelative(REPO_ROOT, path.join(PROTOCOL_OUT, "revisions.ts")),
    content: await formatTypeScript(emitRevisionsFile(revisions)),
  });
  all.push({
    path: posixRelative(REPO_ROOT, path.join(PROTOCOL_OUT, "release-order.ts")),
    content: await formatTypeScript(emitReleaseOrderFile(builtins)),
  });
  return all;
}

/** runtime/generated/extensions/<name>/ for every <spec root>/extensions/<name>/schema.ts (an extension of a revision). */
function extensionJobs(
  specRoot: string,
  builtins: readonly IrModel[],
  warn: (warning: string) => void,
): Promise<GeneratedFile[]>[] {
  const root = path.join(specRoot, "extensions");
  if (!existsSync(root)) return [];
  const names = readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(path.join(root, e.name, "schema.ts")))
    .map((e) => e.name)
    .sort();
  return names.map(async (name) => {
    const extensionId = EXTENSION_IDS[name];
    if (extensionId === undefined) throw new Error(`extension schema ${name} has no identifier in EXTENSION_IDS`);
    const outDir = path.join(EXTENSIONS_OUT, name);
    const schemaPath = path.join(root, name, "schema.ts");
    const { files, warnings } = await generateProtocol({
      schemaPath,
      revision: name,
      extensionId,
      displayRoot: specRoot,
      runtime: runtimeSourcesFrom(outDir),
      bases: builtinBases(outDir, builtins),
    });
    warnings.forEach(warn);
    return files.map((f) => ({ path: posixRelative(REPO_ROOT, path.join(outDir, f.path)), content: f.content }));
  });
}

function builtinBases(outDir: string, builtins: readonly IrModel[]): BaseBindings[] {
  return builtins.map((model) => ({ model, builtin: true, specifier: builtinSourceFrom(outDir, model.revision) }));
}

/** runtime/generated/extensions/<name>/ for every `PACKAGE_EXTENSIONS` entry, its package names mapped onto its base. */
function packageExtensionJobs(builtins: readonly IrModel[], warn: (w: string) => void): Promise<GeneratedFile[]>[] {
  return PACKAGE_EXTENSIONS.map(async ({ name, id, module }) => {
    const outDir = path.join(EXTENSIONS_OUT, name);
    const nodeModules = nodeModulesOf(module.split("/").slice(0, 2).join("/"));
    const bases = builtinBases(outDir, builtins);
    const base = baseRevisionOf(
      path.join(nodeModules, module),
      builtins.map((model) => model.revision),
    );
    const packageBase = bases.find((b) => b.model.revision === base);
    if (!packageBase) throw new Error(`extension ${name}: its base ${base} is no built-in revision`);
    const { files, warnings } = await generateProtocol({
      schemaPath: path.join(nodeModules, module),
      revision: name,
      extensionId: id,
      displayRoot: nodeModules,
      runtime: runtimeSourcesFrom(outDir),
      bases,
      packageBase,
    });
    warnings.forEach(warn);
    return files.map((f) => ({ path: posixRelative(REPO_ROOT, path.join(outDir, f.path)), content: f.content }));
  });
}

/**
 * Where generated files live: every file under runtime/generated/protocol and runtime/generated/extensions, the `.ts` files of the
 * fidelity folder.
 */
const GENERATED_AREAS = [
  { dir: PROTOCOL_OUT, owns: (_name: string) => true },
  { dir: EXTENSIONS_OUT, owns: (_name: string) => true },
  { dir: FIDELITY_OUT, owns: (name: string) => name.endsWith(".ts") },
];

/** Files present on disk in the generated areas that generation would not produce. */
async function extraFiles(expected: ReadonlySet<string>, root: string): Promise<string[]> {
  const found: string[] = [];
  for (const area of GENERATED_AREAS) {
    const dir = path.join(root, posixRelative(REPO_ROOT, area.dir));
    if (!existsSync(dir)) continue;
    for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !area.owns(entry.name)) continue;
      const rel = posixRelative(root, path.join(entry.parentPath, entry.name));
      if (!expected.has(rel)) found.push(rel);
    }
  }
  return found.sort();
}

/** Stale (differing), missing and extra files under `root` (default: this repository), as relative paths. */
export async function checkGenerated(files: readonly GeneratedFile[], root = REPO_ROOT): Promise<string[]> {
  return compareFiles(root, files, await extraFiles(new Set(files.map((f) => f.path)), root));
}

/** `--check [--root <dir>]`: compare instead of writing (`--root` compares a copy of the tree, for tests). */
async function main(): Promise<void> {
  const check = process.argv.includes("--check");
  const rootFlag = process.argv.indexOf("--root");
  const root = rootFlag >= 0 ? path.resolve(process.argv[rootFlag + 1] ?? ".") : REPO_ROOT;
  try {
    await ensureSpecInputs();
  } catch (error) {
    process.stderr.write(`generate: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
    return;
  }
  const files = await generateAll(undefined, (warning) => process.stderr.write(`generate: warning: ${warning}\n`));
  if (check) {
    const problems = await checkGenerated(files, root);
    if (problems.length > 0) {
      process.stderr.write(
        `generated files are out of date (run npm run generate):\n${problems.map((p) => `  ${p}\n`).join("")}`,
      );
      process.exitCode = 1;
      return;
    }
    process.stdout.write(`generate:check: ${files.length} generated files are up to date\n`);
    return;
  }
  await writeFiles(REPO_ROOT, files, await extraFiles(new Set(files.map((f) => f.path)), REPO_ROOT));
  process.stdout.write(`generate: wrote ${files.length} files\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
