/**
 * The test set for mutation testing (`npm run mutation`, stryker.config.json): every test file except those that
 * spawn processes (child servers, the CLI, tsc) or run long fuzz loops. A mutant in a spawned child is invisible to
 * Stryker's coverage and those files are the slow ones, so leaving them out loses nothing and keeps a run short.
 */
import { existsSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Stryker runs the tests in a copy at <repo>/.stryker-tmp/sandbox-*; the spec texts the generator tests read are
// copied into its `.spec/` by the global setup from `../shared/spec` beside it, so give the copy the same neighbour.
const sandbox = dirname(fileURLToPath(import.meta.url));
const neighbour = join(sandbox, "..", "shared");
if (basename(dirname(sandbox)) === ".stryker-tmp" && !existsSync(neighbour)) {
  const original = join(sandbox, "..", "..", "..", "shared");
  try {
    if (existsSync(original)) symlinkSync(original, neighbour, "dir");
  } catch {
    // Another test runner process linked it first.
  }
}

/** Text that marks a test file (or a helper it names) as starting processes. */
const SPAWNS = /child_process|StdioClientTransport|\bspawn\(|execFile|\bfork\(|harness\/process/;
/** Known to start processes through helpers, or too slow for a mutation run. */
const ALWAYS_OUT = [
  "test/fuzz/",
  "test/protocol/fidelity",
  "test/manifest/compile",
  "test/manifest/package",
  "test/generator/pipeline/regenerate",
];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "fixtures" || entry.name === "golden" ? [] : testFiles(path);
    return entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/** `STRYKER_TESTS=test/runtime/protocol,test/runtime/http` narrows the set to some folders (e.g. to skip another area's failing tests). */
const only = process.env["STRYKER_TESTS"]?.split(",").filter(Boolean);

const excluded = testFiles("test").filter(
  (file) =>
    (only !== undefined && !only.some((prefix) => file.startsWith(prefix))) ||
    ALWAYS_OUT.some((prefix) => file.startsWith(prefix)) ||
    SPAWNS.test(readFileSync(file, "utf8")),
);

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: ["**/node_modules/**", ...excluded],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    globalSetup: ["test/protocol/spec-setup.ts"],
    // STRYKER_ISOLATE=0 reuses one worker's module cache across mutant runs (no ts-morph re-import per mutant). Only
    // sound with --ignore-static (mutants that run at module load would keep their first-loaded form) and with tests
    // that memoise nothing computed by the mutated code across files. The lowering's fast subset, for example:
    // STRYKER_TESTS=test/generator/lower STRYKER_ISOLATE=0 node scripts/mutation.mjs
    //   --mutate generator/lower/methods.ts --concurrency 1 --ignore-static (quirks.ts, whose tables are module-level:
    //   add test/generator/lower/quirks, keep isolation and leave out --ignore-static).
    isolate: process.env["STRYKER_ISOLATE"] !== "0",
  },
});
