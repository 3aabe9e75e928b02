/**
 * HTTP bench: `tools/call` round trips per second and p50/p99 latency at concurrency 1 and 32, for this runtime
 * (2025-11-25 session and 2026-07-28 stateless) and the official SDK v1 and v2 in the same run, against a bare
 * `node:http` JSON server as the limit. Every server runs in its own process and reports its CPU time, so the
 * table also gives server CPU per call (the fair comparison: the client is the same for all).
 * Standalone: `npx tsx bench/http-throughput.ts` (`--quick` for a short run; `--only=bare,ours` for some server
 * kinds, e.g. while profiling; `--server-flags=--cpu-prof` passes node flags to the server children; `--smoke`, what
 * `npm run bench -- --smoke` runs: 50 ms cells, one server child per kind; figures not meant to be read).
 */
import { caller, LEGACY, MODERN, serverChildren, stats, type Caller } from "./lib/http-client.ts";

const SMOKE = process.argv.includes("--smoke");
const QUICK = process.argv.includes("--quick");
const MEASURE_MS = SMOKE ? 50 : QUICK ? 500 : 2000;
const WARMUP_CALLS = SMOKE ? 32 : QUICK ? 200 : 1000;
const argValue = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const ONLY = argValue("only")?.split(",");
const SERVER_FLAGS = argValue("server-flags")?.split(" ").filter(Boolean) ?? [];

interface Measurement {
  readonly callsPerSec: number;
  readonly p50Us: number;
  readonly p99Us: number;
  readonly serverCpuUsPerCall: number;
}

interface Row {
  readonly name: string;
  readonly c1: Measurement;
  readonly c32: Measurement;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

async function measure(callers: readonly Caller[], port: number): Promise<Measurement> {
  let i = 0;
  const warm = async (c: Caller) => {
    while (i < WARMUP_CALLS) await c.call(i++, 1);
  };
  await Promise.all(callers.map(warm));
  const latencies: number[] = [];
  const before = await stats(port);
  const start = performance.now();
  const deadline = start + MEASURE_MS;
  const worker = async (c: Caller) => {
    while (performance.now() < deadline) {
      const t = performance.now();
      await c.call(latencies.length, 2);
      latencies.push((performance.now() - t) * 1000);
    }
  };
  await Promise.all(callers.map(worker));
  const elapsed = performance.now() - start;
  const after = await stats(port);
  latencies.sort((a, b) => a - b);
  return {
    callsPerSec: (latencies.length / elapsed) * 1000,
    p50Us: percentile(latencies, 0.5),
    p99Us: percentile(latencies, 0.99),
    serverCpuUsPerCall: (after.cpuUs - before.cpuUs) / latencies.length,
  };
}

const servers = serverChildren(SMOKE, SERVER_FLAGS);

async function run(name: string, kind: string, revision: string): Promise<Row> {
  return servers.use(kind, async (server) => {
    const one = [await caller(server.port, revision)];
    const c1 = await measure(one, server.port);
    // 32 concurrent callers; in the handshake era each has its own session, as 32 clients would.
    const many = await Promise.all(Array.from({ length: 32 }, () => caller(server.port, revision)));
    const c32 = await measure(many, server.port);
    return { name, c1, c32 };
  });
}

const fmt = (n: number, digits = 0) => n.toFixed(digits).padStart(8);

function table(rows: readonly Row[]): string {
  const head = `${"implementation".padEnd(26)}${"c1/s".padStart(8)}${"p50µs".padStart(8)}${"p99µs".padStart(8)}${"c32/s".padStart(8)}${"p50µs".padStart(8)}${"p99µs".padStart(8)}${"srvCPUµs".padStart(9)}`;
  const lines = rows.map(
    (r) =>
      `${r.name.padEnd(26)}${fmt(r.c1.callsPerSec)}${fmt(r.c1.p50Us)}${fmt(r.c1.p99Us)}${fmt(r.c32.callsPerSec)}${fmt(r.c32.p50Us)}${fmt(r.c32.p99Us)} ${fmt(r.c32.serverCpuUsPerCall, 1)}`,
  );
  return [head, ...lines].join("\n");
}

function ratios(rows: readonly Row[]): string {
  const find = (name: string) => rows.find((r) => r.name === name);
  const bare = find("bare node:http");
  const out: string[] = ["", "ratios (same run; throughput at c32, server CPU per call at c32):"];
  const pairs: Array<[string, string]> = [
    [`ours ${LEGACY}`, `sdk-v1 ${LEGACY}`],
    [`ours ${LEGACY}`, `sdk-v2 ${LEGACY}`],
    [`ours ${MODERN}`, `sdk-v2 ${MODERN}`],
  ];
  for (const [a, b] of pairs) {
    const x = find(a);
    const y = find(b);
    if (x && y)
      out.push(
        `  ${a} vs ${b}: ${(x.c32.callsPerSec / y.c32.callsPerSec).toFixed(2)}× throughput, ${(y.c32.serverCpuUsPerCall / x.c32.serverCpuUsPerCall).toFixed(2)}× less server CPU per call`,
      );
  }
  if (bare)
    for (const r of rows.filter((row) => row !== bare))
      out.push(
        `  ${r.name}: server CPU per call ${(r.c32.serverCpuUsPerCall / bare.c32.serverCpuUsPerCall).toFixed(2)}× bare`,
      );
  return out.join("\n");
}

async function main(): Promise<void> {
  const plan: Array<[string, string, string]> = [
    ["bare node:http", "bare", LEGACY],
    [`ours ${LEGACY}`, "ours", LEGACY],
    [`ours ${MODERN}`, "ours", MODERN],
    [`sdk-v1 ${LEGACY}`, "v1", LEGACY],
    [`sdk-v2 ${LEGACY}`, "v2", LEGACY],
    [`sdk-v2 ${MODERN}`, "v2", MODERN],
  ];
  const rows: Row[] = [];
  for (const [name, kind, revision] of plan.filter(([, kind]) => !ONLY || ONLY.includes(kind))) {
    rows.push(await run(name, kind, revision));
    process.stderr.write(`done: ${name}\n`);
  }
  console.log(`HTTP tools/call round trips (Node ${process.version}, ${MEASURE_MS} ms per cell, JSON responses)`);
  console.log(table(rows));
  console.log(ratios(rows));
}

// The smoke's shared server children stop however the run ends.
await main().finally(() => servers.close());
