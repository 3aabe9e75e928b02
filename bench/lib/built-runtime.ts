/**
 * The runtime package as `npm run build` emits it (runtime/dist: one JavaScript file per `exports` entry plus shared
 * chunks), copied into a scratch directory inside the project, so a bench can start a server the way a user runs
 * one: `node server.js`, no TypeScript loader. Imports of packages (zod, …) resolve from the project's node_modules
 * because the directory lies inside the project. The layout is the package's `dist/` (`index.js`,
 * `generated/protocol/<revision>/index.js`).
 */
import { execFileSync } from "node:child_process";
import { cpSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** Where bench/http-memory.ts puts the built runtime for bench/lib/http-servers.ts's `built` server. */
export const HTTP_BUILT_DIR = path.join(PROJECT_ROOT, ".tmp/bench-http-built");

/** Builds the runtime package and copies its JavaScript to `outDir`; returns `outDir`. */
export function builtRuntime(outDir: string): string {
  execFileSync(process.execPath, [path.join(PROJECT_ROOT, "scripts/build-packages.mjs"), "runtime"], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  rmSync(outDir, { recursive: true, force: true });
  cpSync(path.join(PROJECT_ROOT, "runtime/dist"), outDir, {
    recursive: true,
    filter: (source) => !source.endsWith(".d.ts"),
  });
  writeFileSync(path.join(outDir, "package.json"), JSON.stringify({ type: "module", private: true }));
  return outDir;
}
