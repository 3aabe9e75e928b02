/**
 * A server as an mcp-gen user runs one, for the cold-start benches: the CLI generates its folder from a manifest, its
 * TypeScript (generated files and the user's entry) is compiled to plain JavaScript (esbuild, types stripped), and
 * `@mcp-gen/runtime` is the package as `npm run build` packs it, installed in the app's own `node_modules`. Other
 * packages (zod, the runtime's dependencies) resolve from the project's node_modules, above the app's folder.
 * `bundled` bundles an entry for Node the way a deployment would: one minified ESM file, every package inlined.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build, transformSync } from "esbuild";
import { PROJECT_ROOT } from "./built-runtime.ts";

/**
 * Installs the runtime into `app/node_modules/@mcp-gen/runtime` as packed (its package.json and dist/): a copy of
 * `built` (what `builtRuntime` wrote).
 */
export function installRuntime(app: string, built: string): void {
  const pkg = path.join(app, "node_modules/@mcp-gen/runtime");
  rmSync(pkg, { recursive: true, force: true });
  cpSync(built, path.join(pkg, "dist"), { recursive: true });
  rmSync(path.join(pkg, "dist/package.json"));
  copyFileSync(path.join(PROJECT_ROOT, "runtime/package.json"), path.join(pkg, "package.json"));
}

/**
 * Writes `manifest` (YAML, generating into `generated/`) and the user's `entries` (TypeScript file name → source) into
 * `app`, runs `mcp-gen generate` and compiles the generated folder and the entries to JavaScript beside them.
 */
export function generatedApp(app: string, manifest: string, entries: Readonly<Record<string, string>>): void {
  mkdirSync(app, { recursive: true });
  writeFileSync(path.join(app, "mcp.yaml"), manifest);
  rmSync(path.join(app, "generated"), { recursive: true, force: true });
  execFileSync(process.execPath, [path.join(PROJECT_ROOT, "bin/mcp-gen.js"), "generate", "-m", "mcp.yaml"], {
    cwd: app,
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (const [file, source] of Object.entries(entries)) writeFileSync(path.join(app, file), source);
  const generated = readdirSync(path.join(app, "generated"))
    .filter((f) => f.endsWith(".ts"))
    .map((f) => `generated/${f}`);
  for (const file of [...Object.keys(entries), ...generated]) {
    const source = readFileSync(path.join(app, file), "utf8");
    const { code } = transformSync(source, { loader: "ts", format: "esm" });
    writeFileSync(path.join(app, file.replace(/\.ts$/, ".js")), code.replace(/(\.\/[^"]+)\.ts"/g, '$1.js"'));
  }
}

/** Bundles `entry` into `outfile` for Node: ESM, minified, every import inlined (node: built-ins stay imports). */
export async function bundled(entry: string, outfile: string): Promise<number> {
  const result = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    minify: true,
    logLevel: "silent",
    metafile: true,
  });
  return Object.values(result.metafile.outputs)[0]!.bytes;
}
