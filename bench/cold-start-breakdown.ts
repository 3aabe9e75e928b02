/**
 * Cold-start breakdown: what each piece a generated server loads costs, as CPU time of the process (user + system,
 * `process.cpuUsage()`, microsecond resolution), which barely moves when other processes load the machine, unlike
 * wall time. The subject is the weather example (examples/weather) as a user runs it: its TypeScript compiled to
 * plain JavaScript (esbuild, types stripped), importing this runtime as `npm run build` packs it, started with
 * `node`. Each stage is a fresh process that loads everything the stage before it loaded plus one piece, in the
 * order a server loads them, and prints its CPU time on exit; the last stage is the full server answering its first
 * `tools/list` (2025-11-25 handshake), measured when the answer is written. Stages run interleaved, `--runs=N`
 * rounds (default 9), medians; a stage's cost is its median minus the previous stage's.
 * Reference rows: zod's locale modules alone (zod/v4/core re-exports every language zod ships, so any import of zod
 * evaluates them) and zod/v4/core's other modules without the locales (its files imported by path).
 * Standalone: `npx tsx bench/cold-start-breakdown.ts`.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { transformSync } from "esbuild";
import { builtRuntime, PROJECT_ROOT } from "./lib/built-runtime.ts";

const RUNS = Number(process.argv.find((a) => a.startsWith("--runs="))?.slice("--runs=".length) ?? 9);
const DIR = path.join(PROJECT_ROOT, ".tmp/bench-cold-start-breakdown");
const WEATHER = path.join(PROJECT_ROOT, "examples/weather");
const ZOD = path.dirname(createRequire(import.meta.url).resolve("zod/package.json"));

/** Prints this process's CPU milliseconds so far. */
const PRINT_CPU = `{ const u = process.cpuUsage(); process.stdout.write((u.user + u.system) / 1000 + "\\n"); }`;

/** Each stage: a label and the imports it adds to the ones before it. */
const STAGES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ["node boot (empty script)", []],
  ["zod/mini", ["zod/mini"]],
  ["runtime zod helpers (+ en locale)", ["./protocol/zod-helpers.js"]],
  [
    "bindings 2025-11-25 + 2026-07-28",
    ["./generated/protocol/2025-11-25/index.js", "./generated/protocol/2026-07-28/index.js"],
  ],
  ["bindings of the 3 other revisions", ["./generated/protocol/revisions.js"]],
  ["runtime core entry (the rest)", ["./index.js"]],
  ["user's schemas.ts", ["./weather/generated/schemas.js"]],
  ["user's other generated + handlers", ["./weather/generated/index.js", "./weather/handlers.js"]],
];
const ANSWER = "createServer, stdio, first tools/list";

/** Reference scripts, each compared with the empty script. */
const REFERENCES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ["zod locales alone (v4/locales/index.js)", [pathToFileURL(path.join(ZOD, "v4/locales/index.js")).href]],
  [
    "zod core without locales (by path)",
    ["schemas.js", "api.js", "parse.js", "errors.js"].map((f) => pathToFileURL(path.join(ZOD, "v4/core", f)).href),
  ],
];

/** The weather example as plain JavaScript in `DIR/weather`, importing the built runtime by relative path. */
function compileWeather(): void {
  const files = [
    "server.ts",
    "handlers.ts",
    ...["index", "types", "schemas", "definitions", "server", "client"].map((f) => `generated/${f}.ts`),
  ];
  mkdirSync(path.join(DIR, "weather/generated"), { recursive: true });
  for (const file of files) {
    const out = path.join(DIR, "weather", file.replace(/\.ts$/, ".js"));
    const runtime = path.relative(path.dirname(out), path.join(DIR, "index.js")).split(path.sep).join("/");
    const { code } = transformSync(readFileSync(path.join(WEATHER, file), "utf8"), { loader: "ts", format: "esm" });
    writeFileSync(out, code.replaceAll('"@mcp-gen/runtime"', JSON.stringify(runtime)).replace(/\.ts"/g, '.js"'));
  }
}

const importsOf = (specifiers: readonly string[]) =>
  specifiers.map((s) => `await import(${JSON.stringify(s)});`).join("\n");

/** Writes the stage scripts; returns [label, script] pairs in stage order, then the references. */
function writeScripts(): { stages: Array<[string, string]>; references: Array<[string, string]> } {
  const stages: Array<[string, string]> = [];
  const loaded: string[] = [];
  STAGES.forEach(([label, adds], i) => {
    loaded.push(...adds);
    writeFileSync(path.join(DIR, `stage-${i}.mjs`), `${importsOf(loaded)}\n${PRINT_CPU}\n`);
    stages.push([label, `stage-${i}.mjs`]);
  });
  // The full server: CPU time when the first line holding a tools/list result is written to stdout.
  const write = `const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  const done = write(chunk, ...rest);
  if (String(chunk).includes('"tools":[')) { const u = process.cpuUsage(); process.stderr.write("cpu " + (u.user + u.system) / 1000 + "\\n"); }
  return done;
};`;
  writeFileSync(path.join(DIR, "stage-answer.mjs"), `${write}\n${importsOf([...loaded, "./weather/server.js"])}\n`);
  stages.push([ANSWER, "stage-answer.mjs"]);
  const references = REFERENCES.map(([label, adds], i): [string, string] => {
    writeFileSync(path.join(DIR, `reference-${i}.mjs`), `${importsOf(adds)}\n${PRINT_CPU}\n`);
    return [label, `reference-${i}.mjs`];
  });
  return { stages, references };
}

/** Runs `script`; its CPU milliseconds (printed on exit, or when the server answers tools/list). */
function cpuOf(script: string): Promise<number> {
  const child = spawn(process.execPath, [path.join(DIR, script)], { cwd: DIR, stdio: ["pipe", "pipe", "pipe"] });
  const answers = script === "stage-answer.mjs";
  let out = "";
  let err = "";
  let initialized = false;
  return new Promise<number>((resolve, reject) => {
    // The full server: once initialize is answered the handshake goes on; the figure is the "cpu" line on stderr.
    const progress = () => {
      const cpu = /^cpu (\S+)$/m.exec(err);
      if (cpu) {
        child.removeAllListeners("exit");
        child.kill("SIGKILL");
        resolve(Number(cpu[1]));
      } else if (!initialized && out.includes('"id":1')) {
        initialized = true;
        child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
        child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} })}\n`);
      }
    };
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (answers) progress();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
      if (answers) progress();
    });
    child.once("exit", (code) => {
      const value = Number(out.trim().split("\n").pop());
      if (!answers && code === 0 && Number.isFinite(value)) resolve(value);
      else reject(new Error(`${script} exited with ${code} without a figure: ${err.slice(0, 500)}`));
    });
    if (answers) {
      const initialize = {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "bench", version: "1" },
      };
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: initialize })}\n`);
    }
  });
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? NaN;

async function main(): Promise<void> {
  builtRuntime(DIR);
  compileWeather();
  const { stages, references } = writeScripts();
  const all = [...stages, ...references];
  const cpu = new Map<string, number[]>(all.map(([label]) => [label, []]));
  for (const [, script] of all) await cpuOf(script); // warm the disk cache
  for (let run = 0; run < RUNS; run++) {
    for (const [label, script] of all) cpu.get(label)!.push(await cpuOf(script));
  }
  const bare = median(cpu.get(stages[0]![0])!);
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  console.log(
    `# cold-start breakdown: process CPU ms (user+sys), median of ${RUNS} interleaved, node ${process.version}, load average ${load}`,
  );
  console.log(`${"stage (cumulative)".padEnd(40)} ${"total".padStart(8)} ${"this stage".padStart(11)}  × bare`);
  let previous = 0;
  for (const [label] of stages) {
    const m = median(cpu.get(label)!);
    const own = label === stages[0]![0] ? m : m - previous;
    console.log(
      `${label.padEnd(40)} ${m.toFixed(1).padStart(8)} ${own.toFixed(1).padStart(11)}  ${(m / bare).toFixed(2)}`,
    );
    previous = m;
  }
  console.log("# references (each alone after node boot)");
  for (const [label] of references) {
    const m = median(cpu.get(label)!);
    console.log(
      `${label.padEnd(40)} ${m.toFixed(1).padStart(8)} ${(m - bare).toFixed(1).padStart(11)}  ${(m / bare).toFixed(2)}`,
    );
  }
}

await main();
