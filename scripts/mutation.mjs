#!/usr/bin/env node
/**
 * Runs StrykerJS with stryker.config.json:
 * `node scripts/mutation.mjs [--mutate a.ts,b.ts] [--concurrency N] [--reporters r1,r2] [--ignore-static]
 * [--incremental reports/x.json]`.
 * Stryker is pinned to 9.6.1, the last release whose engines include Node 20 (10 requires Node 22 and, through Babel 8,
 * 22.18: 48 of the 49 EBADENGINE warnings `npm ci` printed on Node 20); this script loads its engine directly.
 * Narrow the tests with STRYKER_TESTS=test/runtime/protocol,test/runtime/http (see vitest.stryker.config.ts).
 */
import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { dirname, join } from "node:path";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const config = JSON.parse(readFileSync(join(root, "stryker.config.json"), "utf8"));
const args = process.argv.slice(2);
const options = { ...config };
delete options._comment;
for (let i = 0; i < args.length; i++) {
  const [flag, value] = [args[i], args[i + 1]];
  if (flag === "--mutate" && value) options.mutate = value.split(",").filter(Boolean);
  else if (flag === "--concurrency" && value) options.concurrency = Number(value);
  else if (flag === "--reporters" && value) options.reporters = value.split(",").filter(Boolean);
  else if (flag === "--incremental" && value) {
    // Reuses the results in `value` for mutants whose code and covering tests did not change since that run.
    options.incremental = true;
    options.incrementalFile = value;
  } else if (flag === "--ignore-static") {
    // Mutants in module-level tables run every test; ignored, they leave the score (reported as Ignored).
    options.ignoreStatic = true;
    continue;
  } else {
    console.error(
      `unknown or incomplete option ${flag}; use --mutate a,b --concurrency N --reporters r1,r2 --ignore-static --incremental file`,
    );
    process.exit(2);
  }
  i++;
}
const engine = pathToFileURL(join(root, "node_modules/@stryker-mutator/core/dist/src/stryker.js")).href;
const { Stryker } = await import(engine);
const results = await new Stryker(options).runMutationTest();
const killed = results.filter((r) => r.status === "Killed" || r.status === "Timeout").length;
const valid = results.filter(
  (r) => r.status !== "CompileError" && r.status !== "RuntimeError" && r.status !== "Ignored",
).length;
console.log(`mutation score: ${valid ? ((100 * killed) / valid).toFixed(2) : "n/a"}% (${killed}/${valid})`);
