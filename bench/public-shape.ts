/**
 * The shape outside harnesses publish when they compare MCP SDKs, so anyone can set our figures beside theirs:
 * three phases over Streamable HTTP, each as requests per second and p50/p99 latency with 1 and 10 concurrent
 * users — a new session and its end (`initialize`, `notifications/initialized`, `DELETE` when the server gave a
 * session id), `tools/list` and `tools/call` on an open session (2025-11-25) — for this runtime and the official SDK v1
 * and v2 servers (bench/lib/http-servers.ts), each server pinned to one core (`taskset -c 1`, Linux) while the load
 * runs on the other; then a `hey` run (Debian's package `hey`) of stateless 2026-07-28 `tools/call` POSTs at c10 and
 * c50 against our server and SDK v2's, pinned the same way. Every answer is checked (hey: every status 200).
 * Standalone: `npx tsx bench/public-shape.ts` (`--quick` for 500 ms cells; `--smoke`, what `npm run bench -- --smoke`
 * runs: 50 ms cells and 200 hey requests; figures not meant to be read). Without taskset or hey it says so and
 * runs the rest.
 */
import { spawnSync } from "node:child_process";
import { Agent } from "node:http";
import { initialize, LEGACY, messageOf, MODERN, send, startServer, type Child } from "./lib/http-client.ts";

const SMOKE = process.argv.includes("--smoke");
const QUICK = process.argv.includes("--quick");
const CELL_MS = SMOKE ? 50 : QUICK ? 500 : 3000;
const WARMUP_MS = SMOKE ? 0 : QUICK ? 200 : 1000;
const HEY_REQUESTS = SMOKE ? 200 : QUICK ? 5_000 : 50_000;
const USERS = [1, 10] as const;
const SERVERS = [
  ["mcp-gen", "ours"],
  ["sdk-v1", "v1"],
  ["sdk-v2", "v2"],
] as const;

const has = (command: string) => spawnSync("sh", ["-c", `command -v ${command}`]).status === 0;
const PIN = has("taskset");
const serverPrefix = PIN ? ["taskset", "-c", "1"] : [];

type Phase = "session" | "tools/list" | "tools/call";
interface Cell {
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

let nextId = 1;
async function rpc(port: number, headers: Record<string, string>, method: string, params: object, via: Agent) {
  const id = nextId++;
  const reply = await send(port, "POST", "/mcp", headers, JSON.stringify({ jsonrpc: "2.0", id, method, params }), via);
  const message = messageOf(reply);
  if (reply.status !== 200 || message.id !== id || message.error !== undefined)
    throw new Error(`${method}: HTTP ${reply.status} ${reply.body.slice(0, 200)}`);
  return message;
}

/** One user's operation of a phase; `headers` are the user's open session's (for the two in-session phases). */
async function operate(phase: Phase, port: number, headers: Record<string, string>, via: Agent): Promise<void> {
  if (phase === "session") {
    const session = await initialize(port);
    if (session["mcp-session-id"] !== undefined) {
      const reply = await send(port, "DELETE", "/mcp", session, undefined, via);
      // SDK v2's handler serves 2025 traffic without sessions; a server may also refuse DELETE (405).
      if (reply.status >= 500) throw new Error(`DELETE: HTTP ${reply.status}`);
    }
  } else if (phase === "tools/list") {
    const message = (await rpc(port, headers, "tools/list", {}, via)) as { result?: { tools?: unknown[] } };
    if (!Array.isArray(message.result?.tools)) throw new Error("tools/list: no tools");
  } else {
    const a = nextId % 1000;
    const message = await rpc(port, headers, "tools/call", { name: "add", arguments: { a, b: 2 } }, via);
    if (message.result?.content?.[0]?.text !== String(a + 2)) throw new Error("tools/call: wrong sum");
  }
}

async function measure(phase: Phase, port: number, users: number): Promise<Cell> {
  const via = new Agent({ keepAlive: true, maxSockets: users });
  const sessions = await Promise.all(Array.from({ length: users }, () => initialize(port)));
  const latencies: number[] = [];
  const run = async (ms: number, record: boolean) => {
    const until = performance.now() + ms;
    await Promise.all(
      sessions.map(async (headers) => {
        while (performance.now() < until) {
          const start = performance.now();
          await operate(phase, port, headers, via);
          if (record) latencies.push(performance.now() - start);
        }
      }),
    );
  };
  await run(WARMUP_MS, false);
  const start = performance.now();
  await run(CELL_MS, true);
  const elapsed = performance.now() - start;
  via.destroy();
  latencies.sort((x, y) => x - y);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN;
  return { perSecond: (latencies.length / elapsed) * 1000, p50Ms: at(0.5), p99Ms: at(0.99) };
}

const fmt = (cell: Cell) =>
  `${cell.perSecond.toFixed(0).padStart(7)}/s p50 ${cell.p50Ms.toFixed(2)} p99 ${cell.p99Ms.toFixed(2)} ms`;

/** hey's summary of stateless 2026-07-28 `tools/call` POSTs, or why there is none. */
function hey(port: number, concurrency: number): string {
  const meta = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} };
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "add", arguments: { a: 1, b: 2 }, _meta: meta },
  });
  const headers = [
    "Accept: application/json, text/event-stream",
    `MCP-Protocol-Version: ${MODERN}`,
    "Mcp-Method: tools/call",
    "Mcp-Name: add",
  ].flatMap((h) => ["-H", h]);
  const argv = [
    ...(PIN ? ["taskset", "-c", "0"] : []),
    "hey",
    ...["-n", String(Math.max(HEY_REQUESTS, concurrency)), "-c", String(concurrency), "-m", "POST"],
    ...["-T", "application/json", ...headers, "-d", body, `http://127.0.0.1:${port}/mcp`],
  ];
  const out = spawnSync(argv[0]!, argv.slice(1), { encoding: "utf8" });
  if (out.status !== 0) throw new Error(`hey exited ${out.status}: ${out.stderr}`);
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out.stdout)?.[1];
  // hey prints its percentiles as `50%% in 0.0126 secs` (a doubled %); accept either.
  const p50 = /50%{1,2} in ([\d.]+) secs/.exec(out.stdout)?.[1];
  const p99 = /99%{1,2} in ([\d.]+) secs/.exec(out.stdout)?.[1];
  const statuses = /Status code distribution:\n((?:\s+\[\d+\].*\n?)+)/.exec(out.stdout)?.[1] ?? "";
  if (!/^\s+\[200\]\s+\d+ responses\s*$/.test(statuses.trimEnd()))
    throw new Error(`hey: not every answer was 200: ${statuses.trim() || out.stdout.slice(-300)}`);
  const ms = (secs: string | undefined) => (secs === undefined ? "?" : (Number(secs) * 1000).toFixed(2));
  return `${Number(rps).toFixed(0).padStart(7)}/s p50 ${ms(p50)} p99 ${ms(p99)} ms`;
}

async function main(): Promise<void> {
  console.log(
    `# public-shape benchmark (Streamable HTTP ${LEGACY}; ${CELL_MS} ms per cell; server ${PIN ? "pinned to CPU 1 (taskset -c 1), load on CPU 0" : "not pinned (no taskset)"}; node ${process.version})`,
  );
  const phases: Phase[] = ["session", "tools/list", "tools/call"];
  console.log(
    `${"server".padEnd(8)} ${"phase".padEnd(11)} ${USERS.map((u) => `${u} user${u > 1 ? "s" : ""}`.padEnd(36)).join(" | ")}`,
  );
  const heyTargets: Array<readonly [string, Child]> = [];
  const started: Child[] = [];
  try {
    for (const [name, kind] of SERVERS) {
      const server = await startServer(kind, [], serverPrefix);
      started.push(server);
      for (const phase of phases) {
        const cells: Cell[] = [];
        for (const users of USERS) cells.push(await measure(phase, server.port, users));
        console.log(`${name.padEnd(8)} ${phase.padEnd(11)} ${cells.map(fmt).join(" | ")}`);
      }
      if (kind !== "v1") heyTargets.push([name, server]); // SDK v1 has no stateless 2026-07-28 serving
    }
    if (!has("hey")) {
      console.log("# hey: not installed (Debian: apt-get install hey); its rows are left out");
      return;
    }
    console.log(`# hey: stateless ${MODERN} tools/call POSTs, ${HEY_REQUESTS} requests per row, every answer 200`);
    for (const [name, server] of heyTargets)
      for (const c of [10, 50]) console.log(`hey ${name.padEnd(8)} c${String(c).padEnd(3)} ${hey(server.port, c)}`);
  } finally {
    for (const server of started) await server.stop();
  }
}

await main();
