/**
 * Stateless per-request cost against the size of the tool table: `tools/call add` on the 2026-07-28 HTTP path (no
 * session: every POST stands alone) to our server holding 1, 30 and 300 tools, at concurrency 1 and 32. A server
 * that rebuilt its tool table or itself per request (a complaint about other SDKs) would slow down with the count.
 * Printed: calls/s and the server process's CPU per call (the figure load moves least), and the ratios to 1 tool
 * (issue 25's target: 300 tools ≥ 0.9× the calls/s of 1 tool). The same lean node:http client drives every server
 * (bench/lib/http-client.ts); servers run in child processes, measured in interleaved rounds (median of `--reps`).
 * Standalone: `npx tsx bench/stateless-tools.ts [--quick] [--reps=3]` (`--smoke`, what `npm run bench -- --smoke`
 * runs: one round of 50 ms cells, figures not meant to be read).
 */
import { caller, MODERN, startServer, stats, type Caller, type Child } from "./lib/http-client.ts";

const SMOKE = process.argv.includes("--smoke");
const QUICK = process.argv.includes("--quick");
const MEASURE_MS = SMOKE ? 50 : QUICK ? 400 : 1500;
const WARMUP_CALLS = SMOKE ? 32 : QUICK ? 300 : 2000;
const REPS = Number(
  process.argv.find((a) => a.startsWith("--reps="))?.slice("--reps=".length) ?? (QUICK || SMOKE ? 1 : 3),
);
const COUNTS = [1, 30, 300] as const;

interface Cell {
  readonly callsPerSec: number;
  readonly serverCpuUsPerCall: number;
}

async function measure(call: Caller, port: number, concurrency: number): Promise<Cell> {
  let i = 0;
  const warm = async () => {
    while (i < WARMUP_CALLS) await call.call(i++, 1);
  };
  await Promise.all(Array.from({ length: concurrency }, warm));
  const before = (await stats(port)).cpuUs;
  let calls = 0;
  const start = performance.now();
  const deadline = start + MEASURE_MS;
  const worker = async () => {
    while (performance.now() < deadline) {
      await call.call(calls, 2);
      calls++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = performance.now() - start;
  const after = (await stats(port)).cpuUs;
  return { callsPerSec: (calls / elapsed) * 1000, serverCpuUsPerCall: (after - before) / calls };
}

const median = (xs: readonly number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const medianCell = (cells: readonly Cell[]): Cell => ({
  callsPerSec: median(cells.map((c) => c.callsPerSec)),
  serverCpuUsPerCall: median(cells.map((c) => c.serverCpuUsPerCall)),
});

async function main(): Promise<void> {
  const cells = new Map<string, Cell[]>();
  const key = (count: number, c: number) => `${count}/${c}`;
  for (let rep = 0; rep < REPS; rep++)
    for (const count of COUNTS) {
      const server: Child = await startServer(`ours:${count}`);
      try {
        const call = await caller(server.port, MODERN);
        for (const c of [1, 32]) {
          const list = cells.get(key(count, c)) ?? [];
          list.push(await measure(call, server.port, c));
          cells.set(key(count, c), list);
        }
      } finally {
        await server.stop();
      }
      process.stderr.write(`rep ${rep + 1}: ${count} tools\n`);
    }
  const cell = (count: number, c: number) => medianCell(cells.get(key(count, c))!);
  const n = (x: number, w = 10, d = 0) => x.toFixed(d).padStart(w);
  console.log(
    `# stateless ${MODERN} tools/call add, our server with 1/30/300 tools, ${MEASURE_MS} ms per cell, median of ${REPS} interleaved rounds, node ${process.version}`,
  );
  console.log(
    `${"tools".padEnd(8)}${"c1/s".padStart(10)}${"srv µs".padStart(10)}${"c32/s".padStart(10)}${"srv µs".padStart(10)}`,
  );
  for (const count of COUNTS) {
    const [a, b] = [cell(count, 1), cell(count, 32)];
    console.log(
      `${String(count).padEnd(8)}${n(a.callsPerSec)}${n(a.serverCpuUsPerCall, 10, 1)}${n(b.callsPerSec)}${n(b.serverCpuUsPerCall, 10, 1)}`,
    );
  }
  console.log("# ratios to 1 tool (same run): calls/s, and server CPU per call");
  for (const count of COUNTS.slice(1)) {
    const ratio = (c: number, k: keyof Cell) => (cell(count, c)[k] / cell(1, c)[k]).toFixed(2);
    console.log(
      `${String(count).padEnd(4)} tools: calls/s c1 ${ratio(1, "callsPerSec")}× c32 ${ratio(32, "callsPerSec")}×   server cpu/call c1 ${ratio(1, "serverCpuUsPerCall")}× c32 ${ratio(32, "serverCpuUsPerCall")}×`,
    );
  }
}

await main();
