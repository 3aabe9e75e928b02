/**
 * `mcp-gen init [--dir .] [--name my-mcp-server]`: makes a project that runs. Writes, each only where nothing exists
 * yet: `mcp.yaml`, `src/handlers.ts`, a stdio entry `src/server.ts`, an HTTP entry `src/http.ts`, a `tsconfig.json`
 * (nodenext, strict) and a `package.json` when there is none; adds `"type": "module"` and the npm scripts `generate`,
 * `check`, `build`, `start` and `start:http` to an existing package.json where missing; then generates
 * `src/generated/`. Never overwrites a file (it says what it skipped) and never deletes one.
 */
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { GeneratedFile } from "../emit/generated-file.ts";
import type { ImportExtension } from "../manifest/defaults.ts";
import { writeFileAtomically, writeNewFiles } from "../pipeline/write.ts";
import { loadTemplates, type Templates } from "./templates.ts";
import { runGenerate, type CommandIo } from "./generate.ts";

export interface InitArgs {
  readonly dir: string;
  readonly name: string;
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

function scaffoldFiles(args: InitArgs, render: Templates): GeneratedFile[] {
  const { runtime, http } = entryImports(args.runtimeImport);
  const ext = args.importExtension;
  const view = { runtimeImport: JSON.stringify(runtime), httpImport: JSON.stringify(http), ext };
  return [
    {
      path: "mcp.yaml",
      // JSON strings are YAML double-quoted scalars: any name or specifier stays one value.
      content: render("mcp.yaml.hbs", {
        name: JSON.stringify(args.name),
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
  // Decide everything about package.json before writing anything: a broken one stops init with nothing written.
  if (existsSync(pkgPath)) {
    try {
      pkgEdit = editPackageJson(await readFile(pkgPath, "utf8"), await hasCode(args.dir));
    } catch (error) {
      io.err(`mcp-gen: cannot edit ${show("package.json")}: ${error instanceof Error ? error.message : String(error)}`);
      io.err("mcp-gen: init wrote nothing");
      return 1;
    }
  }
  await mkdir(args.dir, { recursive: true });
  const files = scaffoldFiles(args, await loadTemplates("init"));
  if (!pkgEdit) files.push({ path: "package.json", content: newPackageJson(args.name) });
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
  // The scripts run tsc: say so when the project does not have it yet.
  const tsc = existsSync(path.join(args.dir, "node_modules", "typescript")) ? "" : "npm i -D typescript, then ";
  io.out(`mcp-gen: next: ${tsc}${scripts} (see package.json)`);
  return 0;
}
