/**
 * Runtime bench: `tools/call` round trips per second and p50/p99 latency at concurrency 1 and 32, in memory and
 * over stdio, for this runtime and the official SDK v1 and v2 in the same run, plus a bare newline-JSON echo over a
 * child process (the physical limit of stdio). Prints ratios. Standalone: `npx tsx bench/runtime-roundtrip.ts`
 * (`--quick` for a short run). The same file is the child-process server: `… --serve=<ours|v1|v2|echo>`.
 */
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport as V1Memory } from "@modelcontextprotocol/sdk/inMemory.js";
import { StdioClientTransport as V1StdioClient } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpServer as V1Server } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport as V1StdioServer } from "@modelcontextprotocol/sdk/server/stdio.js";
import { Client as V2Client, InMemoryTransport as V2Memory } from "@modelcontextprotocol/client";
import { StdioClientTransport as V2StdioClient } from "@modelcontextprotocol/client/stdio";
import { McpServer as V2Server } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { createMemoryTransportPair, McpClient, McpServer, StdioClientTransport, StdioServerTransport } from "../runtime/index.ts";
import { LineDecoder } from "../runtime/jsonrpc/framing.ts";

const SELF = fileURLToPath(import.meta.url);
const QUICK = process.argv.includes("--quick");
const MEASURE_MS = QUICK ? 400 : 1500;
const WARMUP_CALLS = QUICK ? 300 : 3000;
const MODERN = "2026-07-28";
const LEGACY = "2025-11-25";

type Call = (a: number, b: number) => Promise<number>;
interface Peer {
  readonly call: Call;
  close(): Promise<void>;
}

// ---- servers -------------------------------------------------------------------------------------------------

const AddArgs = z.object({ a: z.number(), b: z.number() });
const addResult = (a: number, b: number) => ({ content: [{ type: "text" as const, text: String(a + b) }], structuredContent: { sum: a + b } });

function oursServer(): McpServer {
  return new McpServer({ info: { name: "bench", version: "1" } }).tool(
    { name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } },
    ({ a, b }) => addResult(a, b),
    { arguments: AddArgs },
  );
}

function v1Server(): V1Server {
  const server = new V1Server({ name: "bench", version: "1" });
  server.registerTool("add", { inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => addResult(a, b));
  return server;
}

function v2Server(): V2Server {
  const server = new V2Server({ name: "bench", version: "1" }, { capabilities: { tools: {} } });
  server.registerTool("add", { inputSchema: z.object({ a: z.number(), b: z.number() }) }, async ({ a, b }) => addResult(a, b));
  return server;
}

async function serve(kind: string): Promise<void> {
  if (kind === "ours") await oursServer().connect(new StdioServerTransport());
  else if (kind === "v1") await v1Server().connect(new V1StdioServer());
  else if (kind === "v2") serveStdio(() => v2Server());
  else if (kind === "echo") {
    const decoder = new LineDecoder();
    process.stdin.on("data", (chunk: Buffer) => {
      let out = "";
      for (const line of decoder.push(chunk)) {
        const request = JSON.parse(line as string) as { id: number; params: { arguments: { a: number; b: number } } };
        const { a, b } = request.params.arguments;
        out += JSON.stringify({ jsonrpc: "2.0", id: request.id, result: addResult(a, b) }) + "\n";
      }
      process.stdout.write(out);
    });
  }
}

// ---- clients -------------------------------------------------------------------------------------------------

const sumOf = (result: object): number => ((result as { structuredContent?: { sum: number } }).structuredContent as { sum: number }).sum;

async function oursPeer(revision: string, transport: "memory" | "stdio"): Promise<Peer> {
  const client = new McpClient({ info: { name: "bench", version: "1" }, revisions: [revision] });
  if (transport === "memory") {
    const [a, b] = createMemoryTransportPair();
    await oursServer().connect(b);
    await client.connect(a);
  } else {
    await client.connect(new StdioClientTransport({ command: process.execPath, args: ["--import", "tsx", SELF, "--serve=ours"] }));
  }
  return { call: async (a, b) => sumOf(await client.callTool("add", { a, b })), close: () => client.close() };
}

async function v1Peer(transport: "memory" | "stdio"): Promise<Peer> {
  const client = new V1Client({ name: "bench", version: "1" });
  if (transport === "memory") {
    const [a, b] = V1Memory.createLinkedPair();
    await v1Server().connect(b);
    await client.connect(a);
  } else {
    await client.connect(new V1StdioClient({ command: process.execPath, args: ["--import", "tsx", SELF, "--serve=v1"] }));
  }
  return { call: async (a, b) => sumOf(await client.callTool({ name: "add", arguments: { a, b } })), close: () => client.close() };
}

async function v2Peer(revision: string, transport: "memory" | "stdio"): Promise<Peer> {
  const mode = revision === MODERN ? { pin: MODERN } : ("legacy" as const);
  const client = new V2Client({ name: "bench", version: "1" }, { versionNegotiation: { mode } });
  if (transport === "memory") {
    const [a, b] = V2Memory.createLinkedPair();
    await v2Server().connect(b);
    await client.connect(a);
  } else {
    await client.connect(new V2StdioClient({ command: process.execPath, args: ["--import", "tsx", SELF, "--serve=v2"] }));
  }
  return { call: async (a, b) => sumOf(await client.callTool({ name: "add", arguments: { a, b } })), close: () => client.close() };
}

/** Newline JSON over a child's stdio with no MCP at all: the floor of what any stdio runtime can do. */
async function echoPeer(): Promise<Peer> {
  const child = spawn(process.execPath, ["--import", "tsx", SELF, "--serve=echo"], { stdio: ["pipe", "pipe", "inherit"] });
  const pending = new Map<number, (sum: number) => void>();
  const decoder = new LineDecoder();
  child.stdout.on("data", (chunk: Buffer) => {
    for (const line of decoder.push(chunk)) {
      const response = JSON.parse(line as string) as { id: number; result: { structuredContent: { sum: number } } };
      pending.get(response.id)?.(response.result.structuredContent.sum);
      pending.delete(response.id);
    }
  });
  let nextId = 1;
  return {
    call: (a, b) =>
      new Promise((resolve) => {
        const id = nextId++;
        pending.set(id, resolve);
        child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "add", arguments: { a, b } } }) + "\n");
      }),
    close: async () => {
      child.stdin.end();
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

// ---- measurement ---------------------------------------------------------------------------------------------

interface Measurement {
  readonly callsPerSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

async function measure(call: Call, concurrency: number): Promise<Measurement> {
  for (let i = 0; i < WARMUP_CALLS; i += concurrency) await Promise.all(Array.from({ length: concurrency }, (_, k) => call(i, k)));
  const latencies: number[] = [];
  const start = performance.now();
  const deadline = start + MEASURE_MS;
  const worker = async (w: number) => {
    for (let i = 0; performance.now() < deadline; i++) {
      const t = performance.now();
      const sum = await call(i, w);
      latencies.push(performance.now() - t);
      if (sum !== i + w) throw new Error(`wrong result ${sum} for ${i}+${w}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  const elapsed = performance.now() - start;
  latencies.sort((x, y) => x - y);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN;
  return { callsPerSecond: (latencies.length / elapsed) * 1000, p50Ms: pct(0.5), p99Ms: pct(0.99) };
}

interface Row {
  readonly name: string;
  readonly transport: "memory" | "stdio";
  readonly c1: Measurement;
  readonly c32: Measurement;
}

async function run(name: string, transport: "memory" | "stdio", open: () => Promise<Peer>): Promise<Row> {
  const peer = await open();
  try {
    const c1 = await measure(peer.call, 1);
    const c32 = await measure(peer.call, 32);
    return { name, transport, c1, c32 };
  } finally {
    await peer.close();
  }
}

function format(rows: readonly Row[]): string {
  const fmt = (m: Measurement) => `${Math.round(m.callsPerSecond).toString().padStart(7)}/s p50 ${m.p50Ms.toFixed(3)} p99 ${m.p99Ms.toFixed(3)} ms`;
  return rows.map((r) => `${`${r.transport} ${r.name}`.padEnd(28)} c1 ${fmt(r.c1)} | c32 ${fmt(r.c32)}`).join("\n");
}

function ratios(rows: readonly Row[]): string {
  const find = (transport: string, name: string) => rows.find((r) => r.transport === transport && r.name === name);
  const lines: string[] = [];
  const ratio = (label: string, a: Row | undefined, b: Row | undefined) => {
    if (!a || !b) return;
    const r = (k: "c1" | "c32") => (a[k].callsPerSecond / b[k].callsPerSecond).toFixed(2);
    lines.push(`${label.padEnd(52)} c1 ${r("c1")}×  c32 ${r("c32")}×`);
  };
  for (const transport of ["memory", "stdio"] as const) {
    ratio(`${transport}: ours ${LEGACY} / SDK v1`, find(transport, `ours ${LEGACY}`), find(transport, "sdk-v1"));
    ratio(`${transport}: ours ${LEGACY} / SDK v2 ${LEGACY}`, find(transport, `ours ${LEGACY}`), find(transport, `sdk-v2 ${LEGACY}`));
    ratio(`${transport}: ours ${MODERN} / SDK v2 ${MODERN}`, find(transport, `ours ${MODERN}`), find(transport, `sdk-v2 ${MODERN}`));
    ratio(`${transport}: ours ${MODERN} / ours ${LEGACY}`, find(transport, `ours ${MODERN}`), find(transport, `ours ${LEGACY}`));
  }
  ratio(`stdio: ours ${LEGACY} / bare echo`, find("stdio", `ours ${LEGACY}`), find("stdio", "bare echo"));
  ratio(`stdio: ours ${MODERN} / bare echo`, find("stdio", `ours ${MODERN}`), find("stdio", "bare echo"));
  return lines.join("\n");
}

const PLAN: ReadonlyArray<readonly [string, "memory" | "stdio", () => Promise<Peer>]> = [
  [`ours ${LEGACY}`, "memory", () => oursPeer(LEGACY, "memory")],
  [`ours ${MODERN}`, "memory", () => oursPeer(MODERN, "memory")],
  ["sdk-v1", "memory", () => v1Peer("memory")],
  // SDK v2's in-memory McpServer.connect does not answer server/discover; its 2025 path is what runs in memory.
  [`sdk-v2 ${LEGACY}`, "memory", () => v2Peer(LEGACY, "memory")],
  [`ours ${LEGACY}`, "stdio", () => oursPeer(LEGACY, "stdio")],
  [`ours ${MODERN}`, "stdio", () => oursPeer(MODERN, "stdio")],
  ["sdk-v1", "stdio", () => v1Peer("stdio")],
  [`sdk-v2 ${MODERN}`, "stdio", () => v2Peer(MODERN, "stdio")],
  ["bare echo", "stdio", () => echoPeer()],
];

/** Runs one scenario in a fresh process, so no implementation inherits another's JIT state or heap. */
function runIsolated(index: number): Promise<Row> {
  const args = ["--import", "tsx", SELF, `--scenario=${index}`, ...(QUICK ? ["--quick"] : [])];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString("utf8")));
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => {
      const line = out.trim().split("\n").pop() ?? "";
      if (code === 0 && line.startsWith("{")) resolve(JSON.parse(line) as Row);
      else reject(new Error(`scenario ${index} exited with ${code}: ${out.trim().slice(-300)}`));
    });
  });
}

async function main(): Promise<void> {
  const serveArg = process.argv.find((a) => a.startsWith("--serve="));
  if (serveArg) return serve(serveArg.slice("--serve=".length));
  const scenarioArg = process.argv.find((a) => a.startsWith("--scenario="));
  if (scenarioArg) {
    const [name, transport, open] = PLAN[Number(scenarioArg.slice("--scenario=".length))]!;
    console.log(JSON.stringify(await run(name, transport, open)));
    return;
  }
  const rows: Row[] = [];
  for (let i = 0; i < PLAN.length; i++) {
    try {
      rows.push(await runIsolated(i));
    } catch (error) {
      console.log(`${PLAN[i]![1]} ${PLAN[i]![0]}: failed: ${(error as Error).message}`);
      process.exitCode = 1;
    }
  }
  console.log(`# runtime round trips (tools/call add, ${MEASURE_MS} ms per measurement, one process per scenario, node ${process.version})`);
  console.log(format(rows));
  console.log("# ratios (throughput, same run)");
  console.log(ratios(rows));
}

await main();
