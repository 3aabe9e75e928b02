/**
 * workerd, Deno and Bun for the edge harness, from their npm packages, installed on first use into
 * `.tmp/edge-runtimes/` (like the conformance suites' Node 22) rather than as devDependencies: the registry this
 * project's CI uses serves only the Linux builds of their per-platform packages, so a lock file naming them could
 * never be installed with `npm ci` (it checks every platform's entry).
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

/** Pinned like every other tool the tests run. */
export const EDGE_RUNTIMES = { workerd: "1.20261117.1", deno: "2.9.6", bun: "1.4.5" } as const;

const DIR = resolve(import.meta.dirname, "../../.tmp/edge-runtimes");

/** The folder holding the `workerd`, `deno` and `bun` executables. */
export const EDGE_BIN = join(DIR, "node_modules/.bin");

/** Installs the pinned runtimes unless every one is already there (a no-op after the first run). */
export function installEdgeRuntimes(): void {
  const names = Object.keys(EDGE_RUNTIMES) as (keyof typeof EDGE_RUNTIMES)[];
  if (names.every((name) => existsSync(join(EDGE_BIN, name)))) return;
  const specs = names.map((name) => `${name}@${EDGE_RUNTIMES[name]}`);
  execFileSync(
    "npm",
    ["install", "--prefix", DIR, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", ...specs],
    { stdio: ["ignore", "ignore", "inherit"], timeout: 600_000 },
  );
}
