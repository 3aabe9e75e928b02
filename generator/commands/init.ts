/**
 * `mcp-gen init [--dir .] [--name <server name>]`: makes a project that runs. Writes, each only where nothing exists
 * yet: `mcp.yaml`, `src/handlers.ts`, a stdio entry `src/server.ts`, an HTTP entry `src/http.ts`, a `tsconfig.json`
 * (nodenext, strict, Node's types) and a `package.json` when there is none; adds `"type": "module"` and the npm
 * scripts `generate`, `check`, `build`, `start` and `start:http` to an existing package.json where missing; then
 * generates `src/generated/`. The server is named `--name`, else package.json's `name`, else the folder's name.
 * mcp.yaml starts with a `yaml-language-server` line pointing at the manifest's JSON Schema where the project has
 * mcp-gen installed. Never overwrites a file (it says what it skipped) and never deletes one.
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { GeneratedFile } from "../emit/generated-file.ts";
import type { ImportExtension } from "../manifest/defaults.ts";
import { writeFileAtomically, writeNewFiles } from "../pipeline/write.ts";
import { loadTemplates, type Templates } from "./templates.ts";
import { runGenerate, type CommandIo } from "../pipeline/run-generate.ts";

export interface InitArgs {
  readonly dir: string;
  /** The server's name; default: package.json's `name`, else the folder's name. */
  readonly name?: string | undefined;
  readonly runtimeImport: string;
  readonly importExtension: ImportExtension;
}

/** The npm scripts init adds (an existing script of the same name is kept). */
export const INIT_SCRIPTS: Readonly<Record<string, string>> = {
  generate: "mcp-gen generate",
  check: "mcp-gen generate --check && tsc --noEmit",
  build: "tsc",
  start: "node dist/server.js",
  "start:http": "node dist/http.js",
};

/** Where the entry points (in `src/`, one level above `src/generated/`) import the runtime and its HTTP part from. */
function entryImports(runtimeImport: string): { runtime: string; http: string } {
  // A relative specifier is written for the generated folder; the entries sit one level above it.
  const runtime = runtimeImport.startsWith("../") ? runtimeImport.slice(3) : runtimeImport;
  const index = /\/index\.(ts|js)$/.exec(runtime);
  const http = index ? `${runtime.slice(0, index.index)}/http/index.${index[1]}` : `${runtime}/http`;
  return { runtime, http };
}

/** What the scaffold is made of besides the command's arguments: the server's name and the schema line of mcp.yaml. */
interface ScaffoldFacts {
  readonly name: string;
  /** `# yaml-language-server: $schema=<path>\n`, or "" when mcp-gen is not installed for the project. */
  readonly schemaLine: string;
}

function scaffoldFiles(args: InitArgs, facts: ScaffoldFacts, render: Templates): GeneratedFile[] {
  const { runtime, http } = entryImports(args.runtimeImport);
  const ext = args.importExtension;
  const view = { runtimeImport: JSON.stringify(runtime), httpImport: JSON.stringify(http), ext };
  return [
    {
      path: "mcp.yaml",
      // JSON strings are YAML double-quoted scalars: any name or specifier stays one value.
      content: render("mcp.yaml.hbs", {
        schemaLine: facts.schemaLine,
        name: JSON.stringify(facts.name),
        runtimeImport: JSON.stringify(args.runtimeImport),
        importExtension: JSON.stringify(ext),
      }),
    },
    { path: "src/handlers.ts", content: render("handlers.ts.hbs", view) },
    { path: "src/server.ts", content: render("server.ts.hbs", view) },
    { path: "src/http.ts", content: render("http.ts.hbs", view) },
    { path: "tsconfig.json", content: render("tsconfig.json.hbs", {}) },
  ];
}

type PackageJson = Record<string, unknown> & { scripts?: Record<string, unknown> };

/**
 * The package.json edit: `"type": "module"` when it has no `type`, and the scripts it lacks. Returns the new text
 * (undefined when nothing changes) and one line per decision.
 */
export function editPackageJson(text: string, hasCode = false): { text?: string; notes: string[] } {
  const parsed = JSON.parse(text) as unknown;
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new Error("package.json is not a JSON object");
  const pkg = parsed as PackageJson;
  const notes: string[] = [];
  let changed = false;
  if (pkg["type"] === undefined) {
    pkg["type"] = "module";
    changed = true;
    notes.push('package.json: added "type": "module" (the scaffold and the generated code are ES modules)');
  } else if (pkg["type"] === "commonjs" && !hasCode) {
    // Recent npm versions write "type": "commonjs" in `npm init -y`: a project without code yet loses nothing.
    pkg["type"] = "module";
    changed = true;
    notes.push('package.json: "type": "commonjs" → "module" (the project has no code yet; the scaffold is ESM)');
  } else if (pkg["type"] !== "module") {
    notes.push(
      `package.json: left "type": ${JSON.stringify(pkg["type"])} as it is (the project has code); the scaffold is ESM: ` +
        'set "type": "module", or rename its files to .mts',
    );
  }
  const scripts = pkg.scripts;
  if (scripts !== undefined && (typeof scripts !== "object" || scripts === null || Array.isArray(scripts)))
    throw new Error('package.json "scripts" is not an object');
  const next: Record<string, unknown> = { ...scripts };
  const added: string[] = [];
  const kept: string[] = [];
  for (const [name, command] of Object.entries(INIT_SCRIPTS)) {
    if (next[name] === undefined) {
      next[name] = command;
      added.push(name);
    } else if (next[name] !== command) kept.push(name);
  }
  if (added.length > 0) {
    pkg.scripts = next;
    changed = true;
    notes.push(`package.json: added scripts ${added.join(", ")}`);
  }
  if (kept.length > 0) notes.push(`package.json: kept your own scripts ${kept.join(", ")} (not replaced)`);
  if (!changed) return { notes };
  const indent = /^[{[]\r?\n([ \t]+)/.exec(text)?.[1] ?? 2;
  return { text: `${JSON.stringify(pkg, null, indent)}\n`, notes };
}

function newPackageJson(name: string): string {
  const pkgName =
    name
      .toLowerCase()
      .replace(/[^a-z0-9._-]+/g, "-")
      .replace(/^[._-]+/, "") || "mcp-server";
  return `${JSON.stringify({ name: pkgName, version: "0.1.0", private: true, type: "module", scripts: INIT_SCRIPTS }, null, 2)}\n`;
}

/** The subpath under which the mcp-gen package exports the manifest's JSON Schema. */
const SCHEMA_EXPORT = "./mcp-manifest.schema.json";

/**
 * The manifest schema of the mcp-gen installed for the project in `dir`, as a path relative to `dir` (where mcp.yaml
 * is): `node_modules/mcp-gen` in `dir` or the nearest folder above that has it, as Node resolves the package (not
 * through symlinks: pnpm's store path changes with every version), then the file its `exports` name.
 */
export function installedSchemaPath(dir: string): string | undefined {
  for (let folder = path.resolve(dir); ; folder = path.dirname(folder)) {
    const pkg = path.join(folder, "node_modules", "mcp-gen");
    const file = schemaExport(pkg);
    if (file !== undefined && existsSync(file)) return path.relative(dir, file).split(path.sep).join("/");
    if (path.dirname(folder) === folder) return undefined;
  }
}

/** The file the package at `pkg` exports as the manifest schema (undefined when there is no such package or export). */
function schemaExport(pkg: string): string | undefined {
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(path.join(pkg, "package.json"), "utf8"));
  } catch {
    return undefined;
  }
  const target = (manifest as { exports?: Record<string, unknown> } | null)?.exports?.[SCHEMA_EXPORT];
  return typeof target === "string" ? path.join(pkg, target) : undefined;
}

/** The server's name: `--name`, else package.json's `name`, else the folder's name. */
function serverName(args: InitArgs, pkgText: string | undefined): string {
  if (args.name !== undefined && args.name !== "") return args.name;
  const pkg = pkgText === undefined ? undefined : (JSON.parse(pkgText) as { name?: unknown });
  if (typeof pkg?.name === "string" && pkg.name !== "") return pkg.name;
  return path.basename(path.resolve(args.dir));
}

const CODE = /\.(c|m)?(j|t)sx?$/;

/** Whether the project already holds JavaScript or TypeScript (its folder and src/, node_modules never read). */
async function hasCode(dir: string): Promise<boolean> {
  for (const folder of [dir, path.join(dir, "src")]) {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    if (entries.some((e) => e.isFile() && CODE.test(e.name))) return true;
  }
  return false;
}

export async function runInit(args: InitArgs, io: CommandIo): Promise<number> {
  const show = (file: string) => path.relative(process.cwd(), path.join(args.dir, file)) || ".";
  const pkgPath = path.join(args.dir, "package.json");
  let pkgEdit: { text?: string; notes: string[] } | undefined;
  let pkgText: string | undefined;
  // Decide everything about package.json before writing anything: a broken one stops init with nothing written.
  if (existsSync(pkgPath)) {
    try {
      pkgText = await readFile(pkgPath, "utf8");
      pkgEdit = editPackageJson(pkgText, await hasCode(args.dir));
    } catch (error) {
      io.err(`mcp-gen: cannot edit ${show("package.json")}: ${error instanceof Error ? error.message : String(error)}`);
      io.err("mcp-gen: init wrote nothing");
      return 1;
    }
  }
  await mkdir(args.dir, { recursive: true });
  const name = serverName(args, pkgText);
  const schema = installedSchemaPath(args.dir);
  const schemaLine = schema === undefined ? "" : `# yaml-language-server: $schema=${schema}\n`;
  const files = scaffoldFiles(args, { name, schemaLine }, await loadTemplates("init"));
  if (!pkgEdit) files.push({ path: "package.json", content: newPackageJson(name) });
  const { written, skipped } = await writeNewFiles(args.dir, files);
  if (pkgEdit?.text !== undefined) await writeFileAtomically(pkgPath, pkgEdit.text);

  if (written.length > 0) io.out(`mcp-gen: wrote ${written.map(show).join(", ")}`);
  if (skipped.length > 0) io.out(`mcp-gen: skipped ${skipped.map(show).join(", ")} (already there; not overwritten)`);
  for (const note of pkgEdit?.notes ?? []) io.out(`mcp-gen: ${note}`);
  const code = await runGenerate({ manifest: path.join(args.dir, "mcp.yaml"), check: false }, io);
  if (code !== 0) return code;
  const scripts = Object.keys(INIT_SCRIPTS)
    .map((s) => `npm run ${s}`)
    .join(", ");
  // The scripts run tsc with Node's types (tsconfig "types": ["node"]): say so when the project lacks either.
  const missing = ["typescript", "@types/node"].filter((p) => !existsSync(path.join(args.dir, "node_modules", p)));
  const install = missing.length > 0 ? `npm i -D ${missing.join(" ")}, then ` : "";
  io.out(`mcp-gen: next: ${install}${scripts} (see package.json)`);
  return 0;
}
