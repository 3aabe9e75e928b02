/**
 * HTTP bench: memory per idle session with 1,000 open Streamable HTTP sessions (2025-11-25 handshake, no traffic
 * after `notifications/initialized`), for this runtime and the official SDK v1 and v2 in the same run. Each server
 * runs in its own process with --expose-gc; heap and RSS are read after a GC before and after opening the sessions.
 * Also shows that stateless (2026-07-28) serving holds nothing between requests. Ours runs as built (the package's
 * JavaScript, what a user runs) and from the sources under tsx, whose keepNames transform roughly doubles the heap
 * each session's stored arrow functions take (a property dictionary per function): compare the built row with the
 * SDKs, the sources row with figures taken before the built row existed.
 * Standalone: `npx tsx bench/http-memory.ts` (`--sessions=N` to change the count).
 */
import { builtRuntime, HTTP_BUILT_DIR } from "./lib/built-runtime.ts";
import { caller, initialize, MODERN, startServer, stats } from "./lib/http-client.ts";

const SESSIONS = Number(process.argv.find((a) => a.startsWith("--sessions="))?.slice(11) ?? 1000);

interface Row {
  readonly name: string;
  readonly heapPerSessionKb: number;
  readonly rssPerSessionKb: number;
}

async function openSessions(port: number, count: number): Promise<void> {
  let opened = 0;
  const worker = async () => {
    while (opened < count) {
      opened++;
      await initialize(port);
    }
  };
  await Promise.all(Array.from({ length: 16 }, worker));
}

async function measure(name: string, kind: string, modern = false): Promise<Row> {
  const server = await startServer(kind, ["--expose-gc"]);
  try {
    // Warm up code paths (and lazy module loading) before the baseline.
    if (modern) {
      const c = await caller(server.port, MODERN);
      for (let i = 0; i < 200; i++) await c.call(i, 1);
    } else await openSessions(server.port, 20);
    const before = await stats(server.port);
    if (modern) {
      const c = await caller(server.port, MODERN);
      for (let i = 0; i < SESSIONS; i++) await c.call(i, 1);
    } else await openSessions(server.port, SESSIONS);
    await new Promise((r) => setTimeout(r, 200));
    const after = await stats(server.port);
    return {
      name,
      heapPerSessionKb: (after.heap - before.heap) / SESSIONS / 1024,
      rssPerSessionKb: (after.rss - before.rss) / SESSIONS / 1024,
    };
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  builtRuntime(HTTP_BUILT_DIR);
  const rows = [
    await measure("ours 2025-11-25 sessions (built)", "built"),
    await measure("ours 2025-11-25 (sources, tsx)", "ours"),
    await measure("sdk-v1 2025-11-25 sessions", "v1"),
    await measure("sdk-v2 2025-11-25 (its fallback)", "v2"),
    await measure(`ours ${MODERN} after ${SESSIONS} calls`, "ours", true),
  ];
  console.log(`Memory per idle HTTP session, ${SESSIONS} sessions (Node ${process.version}; heap after GC, RSS)`);
  for (const r of rows)
    console.log(
      `${r.name.padEnd(36)} heap ${r.heapPerSessionKb.toFixed(2).padStart(7)} KB   rss ${r.rssPerSessionKb.toFixed(2).padStart(7)} KB`,
    );
  const ours = rows[0]!;
  const v1 = rows[2]!;
  console.log(
    `\nours / SDK v1 heap per session: ${(ours.heapPerSessionKb / v1.heapPerSessionKb).toFixed(2)} (target ≤ 0.5)`,
  );
}

await main();
