/**
 * Cold-start bench: wall time from spawning a stdio MCP server to the answer of its first `tools/list`, for this
 * runtime (2025-11-25 handshake: `initialize`, `notifications/initialized`, `tools/list`; 2026-07-28: one
 * `tools/list` carrying its `_meta`; `McpServer` with every built-in revision, and `McpServer` given the two
 * revisions' descriptors as a generated server naming them builds it), the official SDK v1 and v2, and a bare node
 * process that answers the same lines without MCP (the floor), also with zod imported (the floor of any server
 * validating with zod, and with zod/mini, which generated code uses). What an mcp-gen user runs is timed too: a
 * server the CLI generates from a one-tool manifest (every built-in revision, zod/mini validators, the generated
 * `createServer`) with the runtime installed as packed, started as compiled JavaScript and bundled for Node
 * (bench/lib/generated-server.ts); the official SDK v1 server is bundled the same way for comparison. Every server
 * is plain JavaScript started with `node` (this runtime as `npm run build` packs it, copied into .tmp/), so no
 * TypeScript loader is timed. Runs are interleaved; medians are
 * printed with ratios to the bare process. On Linux the server process's own CPU time until its answer is printed
 * too (from /proc, 10 ms ticks): unlike wall time it barely moves when other processes load the machine.
 * Standalone: `npx tsx bench/cold-start.ts` (`--runs=N`, default 15; `--smoke`, what `npm run bench -- --smoke` runs:
 * one run without the disk-cache warm-up pass, figures not meant to be read).
 */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadavg } from "node:os";
import { LineDecoder } from "../runtime/jsonrpc/framing.ts";
import { builtRuntime, PROJECT_ROOT } from "./lib/built-runtime.ts";
import { bundled, generatedApp, installRuntime } from "./lib/generated-server.ts";

const SMOKE = process.argv.includes("--smoke");
const RUNS = Number(process.argv.find((a) => a.startsWith("--runs="))?.slice("--runs=".length) ?? (SMOKE ? 1 : 15));
const DIR = path.join(PROJECT_ROOT, ".tmp/bench-cold-start");
/**
 * The generated servers' app folders (each one's node_modules holds the runtime as packed): the manifest naming no
 * revisions (every built-in one, the default) and naming two.
 */
const APP = path.join(PROJECT_ROOT, ".tmp/bench-cold-start-app");
const APP_TWO = path.join(PROJECT_ROOT, ".tmp/bench-cold-start-app-two");
const LEGACY = "2025-11-25";
const MODERN = "2026-07-28";

const ADD_TOOL = `{ name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } }`;
const addResult = "({ content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } })";

/** Server scripts, written next to the built runtime; packages resolve from the project's node_modules. */
const SERVERS: Readonly<Record<string, string>> = {
  "bare.mjs": `
let buffered = "";
process.stdin.on("data", (chunk) => {
  buffered += chunk;
  let nl;
  while ((nl = buffered.indexOf("\\n")) >= 0) {
    const request = JSON.parse(buffered.slice(0, nl));
    buffered = buffered.slice(nl + 1);
    if (request.id === undefined) continue;
    const result = request.method === "tools/list" ? { tools: [${ADD_TOOL}] } : { protocolVersion: "${LEGACY}", capabilities: { tools: {} }, serverInfo: { name: "bench", version: "1" } };
    process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: request.id, result }) + "\\n");
  }
});`,
  // The bare process plus `import "zod"` (which every server here loads): the floor for a zod-based server.
  "bare-zod.mjs": `import "zod";\nimport "./bare.mjs";`,
  // The floor for a generated server: its validators and the runtime's are zod/mini.
  "bare-zod-mini.mjs": `import "zod/mini";\nimport "./bare.mjs";`,
  "ours.mjs": `
import { z } from "zod";
import { builtinRevisions, McpServer, StdioServerTransport } from "./index.js";
await new McpServer({ info: { name: "bench", version: "1" }, revisions: builtinRevisions })
  .tool(${ADD_TOOL}, ({ a, b }) => ${addResult}, { arguments: z.object({ a: z.number(), b: z.number() }) })
  .connect(new StdioServerTransport());`,
  // What a generated server whose manifest names two revisions builds: McpServer given their descriptors.
  "ours-core.mjs": `
import { z } from "zod";
import { McpServer, StdioServerTransport } from "./index.js";
import { revision as legacy } from "./generated/protocol/${LEGACY}/index.js";
import { revision as modern } from "./generated/protocol/${MODERN}/index.js";
await new McpServer({ info: { name: "bench", version: "1" }, revisions: [legacy, modern] })
  .tool(${ADD_TOOL}, ({ a, b }) => ${addResult}, { arguments: z.object({ a: z.number(), b: z.number() }) })
  .connect(new StdioServerTransport());`,
  "sdk-v1.mjs": `
import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
const server = new McpServer({ name: "bench", version: "1" });
server.registerTool("add", { inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ${addResult});
await server.connect(new StdioServerTransport());`,
  "sdk-v2.mjs": `
import { z } from "zod";
import { McpServer } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
serveStdio(() => {
  const server = new McpServer({ name: "bench", version: "1" }, { capabilities: { tools: {} } });
  server.registerTool("add", { inputSchema: z.object({ a: z.number(), b: z.number() }) }, async ({ a, b }) => ${addResult});
  return server;
});`,
};

/** A user's project: a manifest with one tool, generated by the CLI, and the entry that serves it over stdio. */
const appManifest = (revisions: string) => `server:
  name: bench
  version: 1.0.0
${revisions}tools:
  - name: add
    description: Adds two numbers.
    inputSchema:
      type: object
      properties: { a: { type: number }, b: { type: number } }
      required: [a, b]
generate:
  out: generated
`;
const APP_ENTRY = `import { StdioServerTransport } from "@mcp-gen/runtime";
import { createServer } from "./generated/index.ts";

const server = createServer({ tools: { add: ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }] }) } });
await server.connect(new StdioServerTransport());
`;

const clientInfo = { name: "bench", version: "1" };
const handshake = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion: LEGACY, capabilities: {}, clientInfo },
});
const INITIALIZED = { jsonrpc: "2.0", method: "notifications/initialized" };
const toolsList = (id: number, modern: boolean) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/list",
  params: modern
    ? {
        _meta: {
          "io.modelcontextprotocol/protocolVersion": MODERN,
          "io.modelcontextprotocol/clientCapabilities": {},
          "io.modelcontextprotocol/clientInfo": clientInfo,
        },
      }
    : {},
});

/** User + system CPU milliseconds a live process has used (Linux /proc; NaN elsewhere). */
function cpuMsOf(pid: number | undefined): number {
  try {
    // Fields after the parenthesised command name: state is the 3rd field, utime the 14th, stime the 15th.
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

interface Sample {
  readonly wallMs: number;
  readonly cpuMs: number;
}

/** Spawns `script`; wall and CPU milliseconds until the first `tools/list` answer (with a tool named add). */
function coldStart(script: string, modern: boolean): Promise<Sample> {
  const start = performance.now();
  const file = path.resolve(DIR, script);
  const child = spawn(process.execPath, [file], { cwd: path.dirname(file), stdio: ["pipe", "pipe", "inherit"] });
  const send = (message: object) => child.stdin.write(JSON.stringify(message) + "\n");
  const decoder = new LineDecoder();
  return new Promise<Sample>((resolve, reject) => {
    const fail = (why: string) => {
      child.kill("SIGKILL");
      reject(new Error(`${script}: ${why}`));
    };
    child.once("exit", (code) => fail(`exited with ${code} before answering tools/list`));
    child.stdout.on("data", (chunk: Buffer) => {
      for (const line of decoder.push(chunk)) {
        const message = JSON.parse(line as string) as {
          id?: number;
          result?: { tools?: Array<{ name: string }> };
          error?: unknown;
        };
        if (message.error) return fail(`error ${JSON.stringify(message.error)}`);
        if (message.id === 1 && !modern) {
          send(INITIALIZED);
          send(toolsList(2, false));
        } else if (message.result?.tools?.[0]?.name === "add") {
          const sample = { wallMs: performance.now() - start, cpuMs: cpuMsOf(child.pid) };
          child.removeAllListeners("exit");
          child.once("exit", () => resolve(sample));
          child.kill("SIGKILL");
        }
      }
    });
    send(modern ? toolsList(1, true) : handshake(1));
  });
}

const PLAN: ReadonlyArray<readonly [string, string, boolean]> = [
  ["bare node", "bare.mjs", false],
  ["bare node + zod", "bare-zod.mjs", false],
  ["bare node + zod/mini", "bare-zod-mini.mjs", false],
  [`ours ${LEGACY}`, "ours.mjs", false],
  [`ours ${MODERN}`, "ours.mjs", true],
  [`ours core ${LEGACY}`, "ours-core.mjs", false],
  [`ours core ${MODERN}`, "ours-core.mjs", true],
  ["generated 2025-11-25", path.join(APP, "server.js"), false],
  ["generated 2026-07-28", path.join(APP, "server.js"), true],
  ["generated bundled 2025", "bundles/generated.mjs", false],
  ["generated bundled 2026", "bundles/generated.mjs", true],
  ["generated, 2 revisions", path.join(APP_TWO, "server.js"), false],
  ["same bundled", "bundles/generated-two.mjs", false],
  ["sdk-v1", "sdk-v1.mjs", false],
  ["sdk-v1 bundled", "bundles/sdk-v1.mjs", false],
  [`sdk-v2 ${LEGACY}`, "sdk-v2.mjs", false],
];

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)] ?? NaN;

async function main(): Promise<void> {
  builtRuntime(DIR);
  for (const [file, source] of Object.entries(SERVERS)) writeFileSync(path.join(DIR, file), source);
  for (const [app, revisions] of [
    [APP, ""],
    [APP_TWO, `  revisions: [${LEGACY}, ${MODERN}]\n`],
  ] as const) {
    installRuntime(app, DIR);
    generatedApp(app, appManifest(revisions), { "server.ts": APP_ENTRY });
  }
  const sizes = [
    `generated ${await bundled(path.join(APP, "server.js"), path.join(DIR, "bundles/generated.mjs"))}`,
    `2 revisions ${await bundled(path.join(APP_TWO, "server.js"), path.join(DIR, "bundles/generated-two.mjs"))}`,
    `sdk-v1 ${await bundled(path.join(DIR, "sdk-v1.mjs"), path.join(DIR, "bundles/sdk-v1.mjs"))}`,
  ];
  const times = new Map<string, Sample[]>(PLAN.map(([name]) => [name, []]));
  // Warm the disk cache (not in the smoke, whose figures are not read).
  if (!SMOKE) for (const [, script, modern] of PLAN) await coldStart(script, modern).catch(() => undefined);
  for (let run = 0; run < RUNS; run++) {
    for (const [name, script, modern] of PLAN) times.get(name)!.push(await coldStart(script, modern));
  }
  const bare = median(times.get("bare node")!.map((s) => s.wallMs));
  const bareCpu = median(times.get("bare node")!.map((s) => s.cpuMs));
  console.log(
    `# cold start: spawn → first tools/list answer over stdio (median of ${RUNS}, interleaved, node ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")})`,
  );
  console.log(`# bundles (esbuild --bundle --platform=node --format=esm --minify), bytes: ${sizes.join(", ")}`);
  for (const [name] of PLAN) {
    const values = times.get(name)!.map((s) => s.wallMs);
    const m = median(values);
    const cpu = median(times.get(name)!.map((s) => s.cpuMs));
    console.log(
      `${name.padEnd(24)} ${m.toFixed(1).padStart(7)} ms  min ${Math.min(...values)
        .toFixed(1)
        .padStart(
          7,
        )} ms  ${(m / bare).toFixed(2)}× bare  cpu ${cpu.toFixed(0).padStart(4)} ms ${(cpu / bareCpu).toFixed(2)}× bare`,
    );
  }
}

await main();
