/**
 * Shared deployment bench (issue 24): `tools/call add` through a round-robin proxy to 1 or 3 instances of our server,
 * each its own process, with no shared store (the single-process figures) or the Redis store, for a 2025-11-25
 * session and 2026-07-28 stateless calls, at concurrency 1. Printed per cell: calls/s, the server CPU per call (all
 * instances together), and per call the Redis round trips (client→Redis writes seen by a counting TCP relay in front
 * of redis-server: at concurrency 1 each write is one round trip, a MULTI/EXEC included) and commands (`INFO
 * commandstats` deltas). Targets: 0 round trips for a 2026-07-28 call, ≤ 1 for a 2025 call on a known session.
 * Three instances without a store cannot serve a 2025 session (nothing shared), so that cell is left out.
 * Needs redis-server (as test/scale). Standalone: `npx tsx bench/scale-store.ts [--quick] [--reps=3]` (`--smoke`,
 * what `npm run bench -- --smoke` runs: one round of 50 ms cells, figures not meant to be read).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createServer as createNetServer, connect, type AddressInfo } from "node:net";
import { request } from "node:http";
import { fileURLToPath } from "node:url";
import { createClient } from "redis";
import { caller, LEGACY, MODERN, stats } from "./lib/http-client.ts";
import { RedisProcess } from "../test/scale/cluster.ts";

const SMOKE = process.argv.includes("--smoke");
const QUICK = process.argv.includes("--quick");
const MEASURE_MS = SMOKE ? 50 : QUICK ? 400 : 1500;
const WARMUP_CALLS = SMOKE ? 20 : QUICK ? 100 : 300;
const REPS = Number(
  process.argv.find((a) => a.startsWith("--reps="))?.slice("--reps=".length) ?? (QUICK || SMOKE ? 1 : 3),
);
const self = fileURLToPath(import.meta.url);

/** Child mode: one instance (`serve <memory|redis> <redis url> <instance id>`), printing `PORT=<n>`. */
async function serveInstance(kind: string, url: string, instanceId: string): Promise<void> {
  const { builtinRevisions, McpServer } = await import("../runtime/index.ts");
  const { McpHttpHandler } = await import("../runtime/http/server/handler.ts");
  const { toNodeListener } = await import("../runtime/http/server/node.ts");
  const { redisStore } = await import("../runtime/redis.ts");
  const server = new McpServer({ revisions: builtinRevisions, info: { name: "bench", version: "1" } }).tool(
    { name: "add", inputSchema: { type: "object" } },
    (args) => {
      const { a, b } = args as { a: number; b: number };
      return { content: [{ type: "text" as const, text: String(a + b) }] };
    },
  );
  const store = kind === "redis" ? redisStore({ url, instanceId }) : undefined;
  await store?.ready();
  const listener = toNodeListener(
    new McpHttpHandler(server, { maxSessionsPerClient: Infinity, ...(store ? { store } : {}) }),
  );
  const http = createServer((req, res) => (req.url === "/__stats" ? cpu(res) : listener(req, res)));
  http.keepAliveTimeout = 60_000;
  http.listen(0, "127.0.0.1", () => process.stdout.write(`PORT=${(http.address() as AddressInfo).port}\n`));
}

function cpu(res: ServerResponse): void {
  const used = process.cpuUsage();
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ cpuUs: used.user + used.system }));
}

function startInstance(kind: string, url: string, id: string): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--import", "tsx", self, "serve", kind, url, id], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /PORT=(\d+)/.exec(out);
      if (match) resolve({ port: Number(match[1]), child });
    });
    child.once("exit", (code) => reject(new Error(`instance exited (${code})`)));
  });
}

/** Round robin over `ports` (each request to the next), keep-alive both ways. */
async function roundRobin(ports: readonly number[]): Promise<{ port: number; close(): void }> {
  let next = 0;
  const http = createServer((req: IncomingMessage, res: ServerResponse) => {
    const port = ports[next++ % ports.length]!;
    const upstream = request({ host: "127.0.0.1", port, path: req.url, method: req.method, headers: req.headers });
    upstream.on("response", (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  http.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return { port: (http.address() as AddressInfo).port, close: () => http.close() };
}

/** A TCP relay to Redis counting the client→Redis writes (round trips at concurrency 1). */
async function countingRelay(redisPort: number): Promise<{ port: number; writes(): number }> {
  let writes = 0;
  const relay = createNetServer((socket) => {
    const upstream = connect(redisPort, "127.0.0.1");
    socket.on("data", () => void writes++);
    socket.pipe(upstream).pipe(socket);
    socket.on("error", () => upstream.destroy());
    upstream.on("error", () => socket.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  return { port: (relay.address() as AddressInfo).port, writes: () => writes };
}

interface Cell {
  readonly callsPerSec: number;
  readonly cpuUsPerCall: number;
  readonly roundTrips: number;
  readonly commands: number;
}

interface Deployment {
  readonly name: string;
  readonly ports: readonly number[];
  readonly proxy: number;
  readonly eras: readonly string[];
}

async function main(): Promise<void> {
  const redis = new RedisProcess();
  await redis.start();
  const relay = await countingRelay(redis.port);
  const admin = createClient({ url: redis.url });
  await admin.connect();
  const commands = async () => {
    const info = await admin.info("commandstats");
    return [...info.matchAll(/cmdstat_(\w+):calls=(\d+)/g)]
      .filter(([, name]) => name !== "info")
      .reduce((sum, [, , calls]) => sum + Number(calls), 0);
  };
  const relayUrl = `redis://127.0.0.1:${relay.port}`;
  const children: ChildProcess[] = [];
  const deployments: Deployment[] = [];
  for (const [kind, count] of [
    ["memory", 1],
    ["memory", 3],
    ["redis", 1],
    ["redis", 3],
  ] as const) {
    const started = await Promise.all(
      Array.from({ length: count }, (_, i) => startInstance(kind, relayUrl, `${kind}${count}_${i}`)),
    );
    children.push(...started.map((s) => s.child));
    const ports = started.map((s) => s.port);
    const eras = kind === "memory" && count > 1 ? [MODERN] : [LEGACY, MODERN];
    deployments.push({
      name: `${kind === "memory" ? "no store" : "redis"} ×${count}`,
      ports,
      proxy: (await roundRobin(ports)).port,
      eras,
    });
  }
  const cells = new Map<string, Cell[]>();
  for (let rep = 0; rep < REPS; rep++)
    for (const era of [LEGACY, MODERN])
      for (const d of deployments) {
        if (!d.eras.includes(era)) continue;
        const call = await caller(d.proxy, era);
        for (let i = 0; i < WARMUP_CALLS; i++) await call.call(i, 1);
        const cpuBefore = await Promise.all(d.ports.map((p) => stats(p)));
        const [writesBefore, commandsBefore] = [relay.writes(), await commands()];
        let calls = 0;
        const start = performance.now();
        while (performance.now() - start < MEASURE_MS) await call.call(calls++, 2);
        const elapsed = performance.now() - start;
        const [writesAfter, commandsAfter] = [relay.writes(), await commands()];
        const cpuAfter = await Promise.all(d.ports.map((p) => stats(p)));
        const cpuUs = cpuAfter.reduce((sum, s, i) => sum + s.cpuUs - cpuBefore[i]!.cpuUs, 0);
        const key = `${d.name}|${era}`;
        cells.set(key, [
          ...(cells.get(key) ?? []),
          {
            callsPerSec: (calls / elapsed) * 1000,
            cpuUsPerCall: cpuUs / calls,
            roundTrips: (writesAfter - writesBefore) / calls,
            commands: (commandsAfter - commandsBefore) / calls, // INFO itself is left out
          },
        ]);
      }
  print(cells, deployments);
  await admin.close();
  for (const child of children) child.kill("SIGKILL");
  await redis.stop();
  process.exit(0);
}

const median = (xs: readonly number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

function print(cells: Map<string, Cell[]>, deployments: readonly Deployment[]): void {
  const n = (x: number, w: number, d = 0) => x.toFixed(d).padStart(w);
  console.log(
    `# tools/call add through a round-robin proxy, concurrency 1, ${MEASURE_MS} ms per cell, median of ${REPS} interleaved rounds, node ${process.version}`,
  );
  console.log(
    `${"deployment".padEnd(12)}${"revision".padEnd(12)}${"calls/s".padStart(9)}${"srv µs/call".padStart(13)}${"redis RT/call".padStart(15)}${"cmds/call".padStart(11)}`,
  );
  for (const era of [LEGACY, MODERN])
    for (const d of deployments) {
      const list = cells.get(`${d.name}|${era}`);
      if (!list) continue;
      const m = (f: (c: Cell) => number) => median(list.map(f));
      console.log(
        `${d.name.padEnd(12)}${era.padEnd(12)}${n(
          m((c) => c.callsPerSec),
          9,
        )}${n(
          m((c) => c.cpuUsPerCall),
          13,
          1,
        )}${n(
          m((c) => c.roundTrips),
          15,
          2,
        )}${n(
          m((c) => c.commands),
          11,
          2,
        )}`,
      );
    }
}

if (process.argv[2] === "serve") void serveInstance(process.argv[3]!, process.argv[4]!, process.argv[5]!);
else await main();
