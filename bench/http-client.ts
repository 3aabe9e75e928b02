/**
 * HTTP client bench: `tools/call add` over Streamable HTTP (2025-11-25, JSON answers), measuring the CLIENT: calls/s
 * at concurrency 1 and 32 (one client, 32 calls in flight) and the client process's CPU per call. Servers run in
 * child processes (bench/lib/http-servers.ts), so this process's CPU is the client's alone. Pairs:
 * - bare pair: a node:http keep-alive client (raw JSON-RPC, bench/lib/http-client.ts) and the bare node:http server;
 * - the bare client with our server (our server's own share of the end-to-end gap);
 * - our client (McpClient + StreamableHttpClientTransport, node:http path and fetch path) with our server, and with
 *   the bare server (the client's own cost against the cheapest server);
 * - the official SDK v1 and v2 clients with our server.
 * Pairs run interleaved, `--reps` rounds (median per pair), so the ratios compare figures from the same minutes.
 * Targets (issue 25): our client's CPU per call ≤ 1.5× the bare client's; our client + server at c32 ≥ 0.6× the
 * bare pair. Standalone: `npx tsx bench/http-client.ts [--quick] [--reps=3] [--only=bare,ours-node]`
 * (`--server-flags=--cpu-prof` passes node flags to the server children, e.g. to profile them; `--smoke`, what
 * `npm run bench -- --smoke` runs: every pair once, 50 ms cells, one server child per kind; figures not to be read).
 */
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Http } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from "@modelcontextprotocol/client";
import { builtinRevisions, McpClient } from "../runtime/index.ts";
import { StreamableHttpClientTransport } from "../runtime/http/client/transport.ts";
import { caller, LEGACY, serverChildren, stats } from "./lib/http-client.ts";

const SMOKE = process.argv.includes("--smoke");
const QUICK = process.argv.includes("--quick");
const MEASURE_MS = SMOKE ? 50 : QUICK ? 400 : 1500;
const WARMUP_CALLS = SMOKE ? 32 : QUICK ? 300 : 2000;
const argValue = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const REPS = Number(argValue("reps") ?? (QUICK || SMOKE ? 1 : 3));
const ONLY = argValue("only")?.split(",");
const SERVER_FLAGS = argValue("server-flags")?.split(" ").filter(Boolean) ?? [];

type Call = (a: number, b: number) => Promise<void>;
interface Client {
  readonly call: Call;
  close(): Promise<void>;
}
interface Cell {
  readonly callsPerSec: number;
  /** This (the client's) process. */
  readonly cpuUsPerCall: number;
  /** The server child's (its /__stats before and after the cell). */
  readonly serverCpuUsPerCall: number;
}
interface Row {
  readonly c1: Cell;
  readonly c32: Cell;
}

const textOf = (result: unknown): string | undefined =>
  (result as { content?: Array<{ text?: string }> }).content?.[0]?.text;

function checked(call: (a: number, b: number) => Promise<unknown>): Call {
  return async (a, b) => {
    const text = textOf(await call(a, b));
    if (text !== String(a + b)) throw new Error(`bad answer ${text} for ${a} + ${b}`);
  };
}

async function bareClient(port: number): Promise<Client> {
  const c = await caller(port, LEGACY);
  return { call: (a, b) => c.call(a, b), close: async () => {} };
}

async function oursClient(port: number, http: "node" | "fetch"): Promise<Client> {
  const client = new McpClient({
    info: { name: "bench", version: "1" },
    revisions: builtinRevisions.filter((r) => r.version === LEGACY),
  });
  await client.connect(new StreamableHttpClientTransport(`http://127.0.0.1:${port}/mcp`, { http }));
  return { call: checked((a, b) => client.callTool("add", { a, b })), close: () => client.close() };
}

async function v1Client(port: number): Promise<Client> {
  const client = new V1Client({ name: "bench", version: "1" });
  await client.connect(new V1Http(new URL(`http://127.0.0.1:${port}/mcp`)));
  return {
    call: checked((a, b) => client.callTool({ name: "add", arguments: { a, b } })),
    close: () => client.close(),
  };
}

async function v2Client(port: number): Promise<Client> {
  const client = new V2Client({ name: "bench", version: "1" }, { versionNegotiation: { mode: "legacy" } });
  await client.connect(new V2Http(new URL(`http://127.0.0.1:${port}/mcp`)));
  return {
    call: checked((a, b) => client.callTool({ name: "add", arguments: { a, b } })),
    close: () => client.close(),
  };
}

/** Name, server kind, client factory. */
const PAIRS: ReadonlyArray<readonly [string, string, (port: number) => Promise<Client>]> = [
  ["bare client + bare server", "bare", bareClient],
  ["bare client + ours", "ours", bareClient],
  ["ours (node:http) + ours", "ours", (port) => oursClient(port, "node")],
  ["ours (fetch) + ours", "ours", (port) => oursClient(port, "fetch")],
  ["ours (node:http) + bare", "bare", (port) => oursClient(port, "node")],
  ["ours (fetch) + bare", "bare", (port) => oursClient(port, "fetch")],
  ["sdk-v1 client + ours", "ours", v1Client],
  ["sdk-v2 client + ours", "ours", v2Client],
];

async function measure(client: Client, port: number, concurrency: number): Promise<Cell> {
  let i = 0;
  const warm = async () => {
    while (i < WARMUP_CALLS) await client.call(i++, 1);
  };
  await Promise.all(Array.from({ length: concurrency }, warm));
  let calls = 0;
  const server = await stats(port);
  const cpu = process.cpuUsage();
  const start = performance.now();
  const deadline = start + MEASURE_MS;
  const worker = async () => {
    while (performance.now() < deadline) {
      await client.call(calls, 2);
      calls++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = performance.now() - start;
  const used = process.cpuUsage(cpu);
  const serverUs = (await stats(port)).cpuUs - server.cpuUs;
  return {
    callsPerSec: (calls / elapsed) * 1000,
    cpuUsPerCall: (used.user + used.system) / calls,
    serverCpuUsPerCall: serverUs / calls,
  };
}

const servers = serverChildren(SMOKE, SERVER_FLAGS);

async function runPair(kind: string, make: (port: number) => Promise<Client>): Promise<Row> {
  return servers.use(kind, async (server) => {
    const client = await make(server.port);
    const c1 = await measure(client, server.port, 1);
    const c32 = await measure(client, server.port, 32);
    await client.close();
    return { c1, c32 };
  });
}

const median = (cells: readonly Cell[], key: keyof Cell): number =>
  cells.map((c) => c[key]).sort((x, y) => x - y)[Math.floor(cells.length / 2)]!;
const medianCell = (cells: readonly Cell[]): Cell => ({
  callsPerSec: median(cells, "callsPerSec"),
  cpuUsPerCall: median(cells, "cpuUsPerCall"),
  serverCpuUsPerCall: median(cells, "serverCpuUsPerCall"),
});

async function main(): Promise<void> {
  const chosen = PAIRS.filter(([name]) => !ONLY || ONLY.some((o) => name.includes(o)));
  const results = new Map<string, Row[]>(chosen.map(([name]) => [name, []]));
  for (let rep = 0; rep < REPS; rep++)
    for (const [name, kind, make] of chosen) {
      results.get(name)!.push(await runPair(kind, make));
      process.stderr.write(`rep ${rep + 1}: ${name}\n`);
    }
  const rows = new Map<string, Row>(
    [...results].map(([name, reps]) => [
      name,
      { c1: medianCell(reps.map((r) => r.c1)), c32: medianCell(reps.map((r) => r.c32)) },
    ]),
  );
  const n = (x: number, w = 9, d = 0) => x.toFixed(d).padStart(w);
  console.log(
    `# HTTP client: tools/call add, 2025-11-25 JSON answers, ${MEASURE_MS} ms per cell, median of ${REPS} interleaved rounds, node ${process.version}`,
  );
  console.log(
    `${"client + server".padEnd(28)}${"c1/s".padStart(9)}${"cpuµs".padStart(9)}${"c32/s".padStart(9)}${"cpuµs".padStart(9)}${"srvµs".padStart(9)}`,
  );
  for (const [name, r] of rows)
    console.log(
      `${name.padEnd(28)}${n(r.c1.callsPerSec)}${n(r.c1.cpuUsPerCall, 9, 1)}${n(r.c32.callsPerSec)}${n(r.c32.cpuUsPerCall, 9, 1)}${n(r.c32.serverCpuUsPerCall, 9, 1)}`,
    );
  const bare = rows.get("bare client + bare server");
  if (!bare) return;
  console.log(
    "# ratios (same run): client CPU per call × the bare node:http client; c32 server CPU per call × the bare server; calls/s × the bare pair",
  );
  for (const [name, r] of rows) {
    if (r === bare) continue;
    const cpu = (k: "c1" | "c32") => (r[k].cpuUsPerCall / bare[k].cpuUsPerCall).toFixed(2);
    const rate = (k: "c1" | "c32") => (r[k].callsPerSec / bare[k].callsPerSec).toFixed(2);
    const srv = (r.c32.serverCpuUsPerCall / bare.c32.serverCpuUsPerCall).toFixed(2);
    console.log(
      `${name.padEnd(28)} cpu/call c1 ${cpu("c1")}× c32 ${cpu("c32")}×   server c32 ${srv}×   calls/s c1 ${rate("c1")}× c32 ${rate("c32")}×`,
    );
  }
}

// The smoke's shared server children stop however the run ends.
await main().finally(() => servers.close());
