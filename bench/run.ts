/**
 * `npm run bench`: runs every bench/*.ts file except this one, in name order, each in its own process (so one
 * benchmark's warm caches or heap do not skew the next). Add a benchmark by adding a file.
 *
 * `npm run bench -- --smoke`: the same files, each with its own options for its shortest run (SMOKE below: mostly the
 * file's own `--smoke`, every row once with 50 ms cells and the smallest sizes), to prove every benchmark still runs
 * and prints its figures; the figures are not meant to be read. A file SMOKE does not name runs as it always does. CI runs this (.ci/run); test/docs checks it.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Per file, the options of its shortest run (each file's own `--smoke`, `--runs=`, … as its header documents). */
const SMOKE: Readonly<Record<string, readonly string[]>> = {
  "cold-start.ts": ["--smoke"],
  "cold-start-breakdown.ts": ["--runs=1"],
  "generate-protocol.ts": ["--smoke"],
  "http-client.ts": ["--smoke"],
  "http-memory.ts": ["--sessions=20"],
  "http-throughput.ts": ["--smoke"],
  "manifest-generate.ts": ["--smoke"],
  "manifest-tsc.ts": ["--smoke"],
  "public-shape.ts": ["--smoke"],
  "runtime-roundtrip.ts": ["--smoke"],
  "scale-store.ts": ["--smoke"],
  "soak.ts": ["--clients=10", "--calls=5"],
  "stateless-tools.ts": ["--smoke"],
};

const smoke = process.argv.includes("--smoke");
const self = fileURLToPath(import.meta.url);
const dir = path.dirname(self);
const tsx = path.join(dir, "../node_modules/tsx/dist/cli.mjs");
let failed = 0;
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith(".ts") && f !== path.basename(self))
  .sort()) {
  const args = smoke ? (SMOKE[file] ?? []) : [];
  console.log(`\n== ${[file, ...args].join(" ")}`);
  const started = Date.now();
  const result = spawnSync(process.execPath, [tsx, path.join(dir, file), ...args], { stdio: "inherit" });
  console.log(`(${file}: ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (result.status !== 0) {
    failed++;
    console.log(`!! ${file} failed (exit ${result.status ?? result.signal})`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
