/**
 * Generation time for a 200-tool manifest (load, lower, emit, format) and a no-op `--check` of its up-to-date
 * output: in-process (median of 5 after a warm-up; `--reps=N`) and as the CLI a user runs (one cold process each).
 * Standalone: `npx tsx bench/manifest-generate.ts [--reps=5]` (`--smoke`, what `npm run bench -- --smoke` runs: 20
 * tools, one rep; figures not meant to be read).
 */
import { spawnSync } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { stringify } from "yaml";
import { generateFromManifest } from "../generator/pipeline/manifest.ts";
import { checkOutputFolder, writeOutputFolder } from "../generator/pipeline/output-folder.ts";

const REPO = path.resolve(import.meta.dirname, "..");
const DIR = path.join(REPO, ".tmp", "bench-manifest-generate");
const SMOKE = process.argv.includes("--smoke");
const TOOLS = SMOKE ? 20 : 200;
const REPS = Number(process.argv.find((a) => a.startsWith("--reps="))?.slice("--reps=".length) ?? (SMOKE ? 1 : 5));

const manifest = {
  server: { name: "bench", version: "1.0.0" },
  tools: Array.from({ length: TOOLS }, (_, i) => ({
    name: `tool_${i}`,
    description: `Tool number ${i}.`,
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", minLength: 1 },
        limit: { type: "integer", minimum: 1, maximum: 100 },
        mode: { enum: ["a", "b", `m${i}`] },
        where: { $ref: "#/$defs/where" },
      },
      required: ["query"],
      $defs: {
        where: {
          type: "object",
          properties: { field: { type: "string" }, value: { type: ["string", "number", "null"] } },
        },
      },
    },
    outputSchema: {
      type: "object",
      properties: {
        rows: { type: "array", items: { type: "object", additionalProperties: { type: "string" } } },
        total: { type: "integer" },
      },
      required: ["rows", "total"],
    },
  })),
};

async function timed<T>(fn: () => Promise<T>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

await rm(DIR, { recursive: true, force: true });
await mkdir(DIR, { recursive: true });
const manifestPath = path.join(DIR, "mcp.yaml");
await writeFile(manifestPath, stringify(manifest));

const first = await generateFromManifest({ manifestPath }); // warm-up: module loading, prettier, JIT
await writeOutputFolder(first.outDir, first.files);
const generate: number[] = [];
const check: number[] = [];
for (let i = 0; i < REPS; i++) {
  generate.push(await timed(() => generateFromManifest({ manifestPath })));
  check.push(
    await timed(async () => {
      const output = await generateFromManifest({ manifestPath });
      if ((await checkOutputFolder(output.outDir, output.files)).length > 0)
        throw new Error("output should be up to date");
    }),
  );
}

const cli = (...args: string[]) => {
  const t0 = performance.now();
  const result = spawnSync(process.execPath, [path.join(REPO, "bin/mcp-gen.js"), ...args], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(result.stderr);
  return performance.now() - t0;
};
const cliGenerate = cli("generate", "-m", manifestPath);
const cliCheck = cli("generate", "-m", manifestPath, "--check");

const lines = first.files.reduce((n, f) => n + f.content.split("\n").length, 0);
console.log(`manifest-generate: ${TOOLS} tools → ${first.files.length} files, ${lines} lines (ms)`);
console.log(`  in-process generate (median of ${REPS})      ${median(generate).toFixed(0).padStart(6)}`);
console.log(`  in-process no-op --check (median of ${REPS}) ${median(check).toFixed(0).padStart(6)}`);
console.log(`  CLI generate, cold process              ${cliGenerate.toFixed(0).padStart(6)}`);
console.log(`  CLI no-op --check, cold process         ${cliCheck.toFixed(0).padStart(6)}`);
await rm(DIR, { recursive: true, force: true });
