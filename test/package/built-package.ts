/**
 * A workspace package's dist/ as its package build writes it (scripts/build-packages.mjs, what `npm pack` packs:
 * `runtime` compiles tsconfig.runtime.json and bundles each `exports` entry, `cli` compiles tsconfig.cli.json), for
 * the tests that install a package somewhere (package.test.ts, cli-package.test.ts, protocol-layouts.test.ts). The
 * build script builds a package again only when one of its inputs changed since its dist/ was built, so a test never
 * reads a stale dist/, and after `npm ci` (whose `prepare` builds both) the tests copy what it built instead of
 * compiling the runtime (~25 s of CPU) and the CLI (~14 s) again.
 */
import { execFileSync } from "node:child_process";
import { cpSync, rmSync } from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "../../scripts/repo-root.ts";

const BUILD = path.join(REPO_ROOT, "scripts/build-packages.mjs");
const DIST = { runtime: path.join(REPO_ROOT, "runtime/dist"), cli: path.join(REPO_ROOT, "generator/dist") };

/** Brings `target`'s dist/ up to date: builds it only if stale (after `npm ci`, a 0.5 s no-op). */
export function buildPackage(target: "runtime" | "cli"): void {
  // The CLI is compiled against the runtime's declarations: the runtime comes first, as in `npm run build`.
  execFileSync(process.execPath, [BUILD, ...(target === "cli" ? ["runtime", "cli"] : ["runtime"])], {
    cwd: REPO_ROOT,
    stdio: "pipe",
  });
}

/** Brings `target`'s dist/ up to date (building it only if stale) and copies it to `to`. */
export function copyBuiltPackage(target: "runtime" | "cli", to: string): void {
  buildPackage(target);
  // A build running meanwhile (another test's `npm pack`, when sources changed) swaps its dist/ in whole: a copy that
  // met the swap half-way is made again.
  for (let attempt = 1; ; attempt++) {
    try {
      rmSync(to, { recursive: true, force: true });
      cpSync(DIST[target], to, { recursive: true });
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}
