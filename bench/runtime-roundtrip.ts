/**
 * Runtime bench: `tools/call` round trips per second and p50/p99 latency at concurrency 1 and 32, in memory and
 * over stdio, for this runtime and the official SDK v1 and v2 in the same run, plus a bare newline-JSON echo over a
 * child process whose both ends join writes as the runtime does (the floor of stdio). Also CPU time per call of the client and (stdio) the server process,
 * which scheduling noise on a shared machine moves far less than throughput at concurrency 1. Prints ratios.
 * Standalone: `npx tsx bench/runtime-roundtrip.ts` (`--quick` for a short run, `--reps=N` rounds over all scenarios,
 * median kept (default 3, quick 1), `--only=<text>[,<text>…]` for scenarios whose "<transport> <name>" contains
 * one of the texts; `--smoke`, what `npm run bench -- --smoke` runs: every scenario once, 50 ms cells, all in this
 * process; its figures are not meant to be read). The servers, and the stdio children, are bench/lib/roundtrip-servers.ts.
 */
import type { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Client as V2Client } from "@modelcontextprotocol/client";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { LineDecoder } from "../runtime/jsonrpc/framing.ts";
import { LineWriter } from "../runtime/transport/streams.ts";

import { format, LEGACY, medianRow, MODERN, ratios, type Measurement, type Row } from "./lib/roundtrip-rows.ts";
import { oursServer, v1Server, v2Server } from "./lib/roundtrip-servers.ts";

const SELF = fileURLToPath(import.meta.url);
const SERVERS = fileURLToPath(new URL("./lib/roundtrip-servers.ts", import.meta.url));
const SMOKE = process.argv.includes("--smoke");
const QUICK = process.argv.includes("--quick");
const MEASURE_MS = SMOKE ? 50 : QUICK ? 400 : 1500;
const WARMUP_CALLS = SMOKE ? 32 : QUICK ? 300 : 3000;
const REPS = Number(
  process.argv.find((a) => a.startsWith("--reps="))?.slice("--reps=".length) ?? (QUICK || SMOKE ? 1 : 3),
);
const ONLY = process.argv.find((a) => a.startsWith("--only="))?.slice("--only=".length);

type Call = (a: number, b: number) => Promise<number>;
interface Peer {
  readonly call: Call;
  /** The server's process (stdio), whose CPU time is measured too. */
  readonly serverPid?: number | undefined;
  close(): Promise<void>;
}

/** A stdio server child's command (bench/lib/roundtrip-servers.ts): `kind` is ours, v1, v2, echo or echo-modern. */
const serverArgs = (kind: string) => ["--import", "tsx", SERVERS, kind];

// ---- clients -------------------------------------------------------------------------------------------------

const sumOf = (result: object): number =>
  ((result as { structuredContent?: { sum: number } }).structuredContent as { sum: number }).sum;

async function oursPeer(revision: string, transport: "memory" | "stdio"): Promise<Peer> {
  const [{ builtinRevisions, createMemoryTransportPair, McpClient }, { StdioClientTransport }] = await Promise.all([
    import("../runtime/index.ts"),
    import("../runtime/node.ts"),
  ]);
  // A server started through tsx on a loaded machine can take longer than the 5 s default probe to answer.
  const client = new McpClient({
    info: { name: "bench", version: "1" },
    revisions: builtinRevisions.filter((r) => r.version === revision),
    probeTimeoutMs: 60_000,
  });
  let serverPid: number | undefined;
  if (transport === "memory") {
    const [a, b] = createMemoryTransportPair();
    await (await oursServer()).connect(b);
    await client.connect(a);
  } else {
    const stdio = new StdioClientTransport({ command: process.execPath, args: serverArgs("ours") });
    await client.connect(stdio);
    serverPid = stdio.pid;
  }
  return {
    call: async (a, b) => sumOf(await client.callTool("add", { a, b })),
    serverPid,
    close: () => client.close(),
  };
}

async function v1Peer(transport: "memory" | "stdio"): Promise<Peer> {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const client: V1Client = new Client({ name: "bench", version: "1" });
  let serverPid: number | undefined;
  if (transport === "memory") {
    const { InMemoryTransport } = await import("@modelcontextprotocol/sdk/inMemory.js");
    const [a, b] = InMemoryTransport.createLinkedPair();
    await (await v1Server()).connect(b);
    await client.connect(a);
  } else {
    const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
    const stdio = new StdioClientTransport({ command: process.execPath, args: serverArgs("v1") });
    await client.connect(stdio);
    serverPid = stdio.pid ?? undefined;
  }
  return {
    call: async (a, b) => sumOf(await client.callTool({ name: "add", arguments: { a, b } })),
    serverPid,
    close: () => client.close(),
  };
}

async function v2Peer(revision: string, transport: "memory" | "stdio"): Promise<Peer> {
  const mode = revision === MODERN ? { pin: MODERN } : ("legacy" as const);
  const { Client, InMemoryTransport } = await import("@modelcontextprotocol/client");
  const client: V2Client = new Client({ name: "bench", version: "1" }, { versionNegotiation: { mode } });
  let serverPid: number | undefined;
  if (transport === "memory") {
    const [a, b] = InMemoryTransport.createLinkedPair();
    await (await v2Server()).connect(b);
    await client.connect(a);
  } else {
    const { StdioClientTransport } = await import("@modelcontextprotocol/client/stdio");
    const stdio = new StdioClientTransport({ command: process.execPath, args: serverArgs("v2") });
    await client.connect(stdio);
    serverPid = stdio.pid ?? undefined;
  }
  return {
    call: async (a, b) => sumOf(await client.callTool({ name: "add", arguments: { a, b } })),
    serverPid,
    close: () => client.close(),
  };
}

/** The `_meta` a 2026-07-28 request carries (the spec says SHOULD for client info). */
const CLIENT_META = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "bench", version: "1" },
};

/**
 * Newline JSON over a child's stdio with no MCP at all: the floor of what any stdio runtime can do. Both ends write
 * as the runtime does (its `LineWriter`: a turn's first line at once, the rest joined into one write), so the floor
 * is not one the runtime beats by joining writes where the echo did one write per message. `modern` sends and
 * answers the messages of a 2026-07-28 call (with their `_meta`), the floor for that revision's larger messages.
 */
async function echoPeer(modern: boolean): Promise<Peer> {
  const child = spawn(process.execPath, serverArgs(modern ? "echo-modern" : "echo"), {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const pending = new Map<number, (sum: number) => void>();
  const decoder = new LineDecoder();
  child.stdout.on("data", (chunk: Buffer) => {
    for (const line of decoder.push(chunk)) {
      const response = JSON.parse(line as string) as { id: number; result: { structuredContent: { sum: number } } };
      pending.get(response.id)?.(response.result.structuredContent.sum);
      pending.delete(response.id);
    }
  });
  const writer = new LineWriter(child.stdin);
  let nextId = 1;
  return {
    serverPid: child.pid,
    call: (a, b) =>
      new Promise((resolve) => {
        const id = nextId++;
        pending.set(id, resolve);
        const params = modern
          ? { name: "add", arguments: { a, b }, _meta: CLIENT_META }
          : { name: "add", arguments: { a, b } };
        void writer.write({ jsonrpc: "2.0", id, method: "tools/call", params });
      }),
    close: async () => {
      child.stdin.end();
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

// ---- measurement ---------------------------------------------------------------------------------------------

/** CPU milliseconds a process has used, from /proc (Linux); NaN elsewhere. */
function processCpuMs(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks (USER_HZ = 100)
  } catch {
    return NaN;
  }
}

async function measure(peer: Peer, concurrency: number): Promise<Measurement> {
  const call = peer.call;
  for (let i = 0; i < WARMUP_CALLS; i += concurrency)
    await Promise.all(Array.from({ length: concurrency }, (_, k) => call(i, k)));
  const latencies: number[] = [];
  const cpuBefore = process.cpuUsage();
  const serverBefore = processCpuMs(peer.serverPid);
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
  const cpu = process.cpuUsage(cpuBefore);
  const serverMs = processCpuMs(peer.serverPid) - serverBefore;
  const calls = latencies.length;
  latencies.sort((x, y) => x - y);
  const pct = (p: number) => latencies[Math.min(calls - 1, Math.floor(calls * p))] ?? NaN;
  return {
    callsPerSecond: (calls / elapsed) * 1000,
    p50Ms: pct(0.5),
    p99Ms: pct(0.99),
    clientCpuUs: (cpu.user + cpu.system) / calls,
    serverCpuUs: Number.isNaN(serverMs) ? null : (serverMs * 1000) / calls,
  };
}

async function run(name: string, transport: "memory" | "stdio", open: () => Promise<Peer>): Promise<Row> {
  const peer = await open();
  try {
    const c1 = await measure(peer, 1);
    const c32 = await measure(peer, 32);
    return { name, transport, c1, c32 };
  } finally {
    await peer.close();
  }
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
  ["bare echo", "stdio", () => echoPeer(false)],
  [`bare echo ${MODERN}`, "stdio", () => echoPeer(true)],
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
  const scenarioArg = process.argv.find((a) => a.startsWith("--scenario="));
  if (scenarioArg) {
    const [name, transport, open] = PLAN[Number(scenarioArg.slice("--scenario=".length))]!;
    console.log(JSON.stringify(await run(name, transport, open)));
    return;
  }
  const wanted = ONLY?.split(",");
  const chosen = PLAN.map((_, i) => i).filter(
    (i) => wanted === undefined || wanted.some((text) => `${PLAN[i]![1]} ${PLAN[i]![0]}`.includes(text)),
  );
  const reps = new Map<number, Row[]>(chosen.map((i) => [i, []]));
  // Round-robin, so a slow spell on the shared machine hits every scenario alike rather than one of them.
  for (let rep = 0; rep < REPS; rep++) {
    for (const i of chosen) {
      try {
        // The smoke's figures are not read: its scenarios share this process (start-up is most of its time).
        reps.get(i)!.push(SMOKE ? await run(...PLAN[i]!) : await runIsolated(i));
      } catch (error) {
        console.log(`${PLAN[i]![1]} ${PLAN[i]![0]}: failed: ${(error as Error).message}`);
        process.exitCode = 1;
      }
    }
  }
  const rows = chosen.flatMap((i) => (reps.get(i)!.length > 0 ? [medianRow(reps.get(i)!)] : []));
  console.log(
    `# runtime round trips (tools/call add, ${MEASURE_MS} ms per measurement, ${SMOKE ? "smoke: one process" : "one process per scenario"}, median of ${REPS} rounds, node ${process.version})`,
  );
  console.log("# cpu = CPU µs per call of the client (+ the server process over stdio)");
  console.log(format(rows));
  console.log("# ratios (throughput, same run; in brackets the inverse ratio of client+server CPU per call)");
  console.log(ratios(rows));
}

await main();
