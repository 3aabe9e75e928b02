/**
 * Wall time to generate the protocol bindings (read, lower, emit, format; no writes) of every revision under
 * the spec root (`.spec/`, see scripts/spec-inputs.ts), one after another, and for each revision. Run with
 * `npm run bench` (after `npm run spec`); `--smoke` (`npm run bench -- --smoke`) skips the warm-up run.
 */
import path from "node:path";
import { performance } from "node:perf_hooks";
import { generateProtocol } from "../generator/pipeline/protocol.ts";
import { PROTOCOL_OUT, runtimeSourcesFrom, specRevisions } from "../scripts/generate-protocol.ts";
import { ensureSpecInputs, requireSpecRoot } from "../scripts/spec-inputs.ts";

await ensureSpecInputs();
const specRoot = requireSpecRoot();
const revisions = await specRevisions(specRoot);
const generate = (revision: string) =>
  generateProtocol({
    schemaPath: path.join(specRoot, revision, "schema.ts"),
    revision,
    displayRoot: specRoot,
    runtime: runtimeSourcesFrom(path.join(PROTOCOL_OUT, revision)),
  });

// Warm-up: module loading, prettier plugins, JIT (not in the smoke, whose figures are not read).
const SMOKE = process.argv.includes("--smoke");
if (!SMOKE) await generate(revisions[0]!);
const rows: [string, number][] = [];
const start = performance.now();
for (const revision of revisions) {
  const t0 = performance.now();
  await generate(revision);
  rows.push([revision, performance.now() - t0]);
}
const total = performance.now() - start;

console.log(`generate-protocol: wall time (ms), sequential, ${SMOKE ? "no warm-up (smoke)" : "after one warm-up run"}`);
for (const [revision, ms] of rows) console.log(`  ${revision.padEnd(12)} ${ms.toFixed(0).padStart(6)}`);
console.log(`  ${"all".padEnd(12)} ${total.toFixed(0).padStart(6)}`);
