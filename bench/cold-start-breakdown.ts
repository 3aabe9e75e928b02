/**
 * Cold-start breakdown: what each piece a generated server loads costs, as CPU time of the process (user + system,
 * `process.cpuUsage()`, microsecond resolution), which moves far less than wall time when other processes load the
 * machine. The subject is the weather example (examples/weather) as a user runs it: its TypeScript compiled to plain
 * JavaScript (esbuild, types stripped), importing this runtime as `npm run build` packs it, started with `node`. One
 * process loads the pieces one after another in the order a server loads them (dynamic imports), taking its CPU time
 * after each, then answers the 2025-11-25 handshake and its first `tools/list`; a piece's cost is the difference. A
 * second script splits zod's own import the same way: its locale modules (zod/v4/core re-exports every language zod
 * ships, so any import of zod evaluates them), its core's other modules (imported by path) and zod/mini on top.
 * A piece's figure includes whatever garbage collection falls in it (young-generation scavenges of 3–20 ms run at
 * heap-growth points, so about 10 ms can move between neighbouring small pieces); the totals do not depend on it.
 * `--runs=N` rounds (default 9), the two scripts interleaved, medians of each piece; `--no-build` reuses the runtime
 * the last run copied.
 * Standalone: `npx tsx bench/cold-start-breakdown.ts`.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
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
const zodFile = (file: string) => pathToFileURL(path.join(ZOD, file)).href;

/** The pieces of the server, in load order: a label and what it imports. */
const STAGES: ReadonlyArray<readonly [string, readonly string[]]> = [
  ["zod/mini", ["zod/mini"]],
  ["runtime zod helpers (+ en locale)", ["<chunk of protocol/zod-helpers>"]],
  [
    "bindings 2025-11-25 + 2026-07-28",
    ["./generated/protocol/2025-11-25/index.js", "./generated/protocol/2026-07-28/index.js"],
  ],
  ["bindings of the 3 other revisions", ["./generated/protocol/revisions.js"]],
  // The runtime's two dependencies it loads at import although this server calls neither before its first answer.
  ["@cfworker/json-schema (jsonSchemaCheck)", ["@cfworker/json-schema"]],
  ["@noble/hashes sha256 (principalOf)", ["@noble/hashes/sha2.js"]],
  ["runtime core entry (the rest)", ["./index.js"]],
  ["user's schemas.ts", ["./weather/generated/schemas.js"]],
  ["user's other generated + handlers", ["./weather/generated/index.js", "./weather/handlers.js"]],
  ["createServer + connect stdio", ["./weather/server.js"]],
];
const BOOT = "node boot (to the script's first line)";
const ANSWER = "initialize + tools/list answered";

/** zod's import in pieces (each after the ones before it). */
const ZOD_PARTS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ["zod locales (v4/locales/index.js)", [zodFile("v4/locales/index.js")]],
  ["zod core without locales", ["schemas.js", "api.js", "parse.js", "errors.js"].map((f) => zodFile(`v4/core/${f}`))],
  ["zod/mini on top (core index, mini)", ["zod/mini"]],
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

/**
 * The built file holding a runtime module (`<chunk of protocol/zod-helpers>`): the package bundles modules into shared
 * chunks, and esbuild heads each module's code with a `// <path>` comment.
 */
function resolveChunk(specifier: string): string {
  const module = /^<chunk of (.+)>$/.exec(specifier)?.[1];
  if (!module) return specifier;
  const chunk = readdirSync(path.join(DIR, "chunks")).find((file) =>
    new RegExp(`^// ${module}\\.js$`, "m").test(readFileSync(path.join(DIR, "chunks", file), "utf8")),
  );
  if (!chunk) throw new Error(`no chunk of runtime/dist holds ${module}`);
  return `./chunks/${chunk}`;
}

const importsOf = (specifiers: readonly string[]) =>
  specifiers.map((s) => `await import(${JSON.stringify(resolveChunk(s))});`).join(" ");

/**
 * A script that imports each piece in turn and records its CPU time after each (`mark`), then prints the marks as
 * JSON on stderr: at once, or with `untilAnswer` when the first line holding a tools/list result has been written.
 */
function piecesScript(pieces: ReadonlyArray<readonly [string, readonly string[]]>, untilAnswer: boolean): string {
  const lines = [
    `const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };`,
    `const marks = [[${JSON.stringify(BOOT)}, cpu()]];`,
    `const report = () => process.stderr.write("marks " + JSON.stringify(marks) + "\\n");`,
  ];
  if (untilAnswer) {
    lines.push(
      `const write = process.stdout.write.bind(process.stdout);`,
      `process.stdout.write = (chunk, ...rest) => {`,
      `  const done = write(chunk, ...rest);`,
      `  if (String(chunk).includes('"tools":[')) { marks.push([${JSON.stringify(ANSWER)}, cpu()]); report(); }`,
      `  return done;`,
      `};`,
    );
  }
  for (const [label, imports] of pieces)
    lines.push(`${importsOf(imports)} marks.push([${JSON.stringify(label)}, cpu()]);`);
  if (!untilAnswer) lines.push("report();");
  return lines.join("\n") + "\n";
}

type Marks = Array<[string, number]>;

/** Runs `script` (driving the handshake when it serves); its marks. */
function marksOf(script: string, serves: boolean): Promise<Marks> {
  const child = spawn(process.execPath, [path.join(DIR, script)], { cwd: DIR, stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  let initialized = false;
  return new Promise<Marks>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (!serves || initialized || !out.includes('"id":1')) return;
      initialized = true;
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} })}\n`);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
      const marks = /^marks (.+)$/m.exec(err);
      if (!marks) return;
      child.removeAllListeners("exit");
      child.kill("SIGKILL");
      resolve(JSON.parse(marks[1]!) as Marks);
    });
    child.once("exit", (code) =>
      reject(new Error(`${script} exited with ${code} before its marks: ${err.slice(0, 500)}`)),
    );
    if (serves) {
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

/** Prints each piece's median cost, the running total of those medians and its ratio to node boot. */
function printPieces(title: string, rounds: readonly Marks[]): void {
  console.log(`${title.padEnd(42)} ${"this piece".padStart(10)} ${"total".padStart(8)}  × boot`);
  const labels = rounds[0]!.map(([label]) => label);
  const costs = labels.map((_, i) => median(rounds.map((marks) => marks[i]![1] - (i > 0 ? marks[i - 1]![1] : 0))));
  let total = 0;
  labels.forEach((label, i) => {
    total += costs[i]!;
    const row = `${label.padEnd(42)} ${costs[i]!.toFixed(1).padStart(10)} ${total.toFixed(1).padStart(8)}`;
    console.log(`${row}  ${(total / costs[0]!).toFixed(2)}`);
  });
}

async function main(): Promise<void> {
  if (!process.argv.includes("--no-build") || !existsSync(path.join(DIR, "index.js"))) builtRuntime(DIR);
  compileWeather();
  writeFileSync(path.join(DIR, "server-pieces.mjs"), piecesScript(STAGES, true));
  writeFileSync(path.join(DIR, "zod-pieces.mjs"), piecesScript(ZOD_PARTS, false));
  const server: Marks[] = [];
  const zod: Marks[] = [];
  await marksOf("server-pieces.mjs", true); // warm the disk cache
  await marksOf("zod-pieces.mjs", false);
  for (let run = 0; run < RUNS; run++) {
    server.push(await marksOf("server-pieces.mjs", true));
    zod.push(await marksOf("zod-pieces.mjs", false));
  }
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
  console.log(
    `# cold-start breakdown: process CPU ms (user+sys) per piece, median of ${RUNS}, node ${process.version}, load average ${load}`,
  );
  printPieces("weather server, piece by piece", server);
  printPieces("zod's import, piece by piece", zod);
}

await main();
