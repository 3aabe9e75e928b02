/**
 * Soak: 1,000 concurrent clients × 100 tool calls each over HTTP, in both eras: 2025-11-25 (a session per client,
 * initialize → 100 calls → DELETE) and 2026-07-28 (stateless, 100 calls per client), against this runtime and, for
 * the session era, the official SDK v1 (its documented stateful wiring) side by side. Each server runs in its own
 * process with --expose-gc; printed: heap after GC before, at the peak (all sessions open) and after, and the
 * sessions the server still holds at the end (should be 0: every client deleted its own).
 * With several cycles it also prints the heap after GC at the end of each (a leak climbs). Per open session: (peak −
 * before) / sessions at the peak.
 * Standalone: `npx tsx bench/soak.ts [--clients=1000] [--calls=100] [--cycles=1]`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createServer, Agent, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { LEGACY as SESSION_ERA, messageOf, MODERN, send } from "./lib/http-client.ts";
import { ADD_TOOL, addArguments } from "./lib/add-tool.ts";
import { builtinRevisions } from "../runtime/protocol/builtin-revisions.ts";

const arg = (name: string, fallback: number): number =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const CLIENTS = arg("clients", 1000);
const CALLS = arg("calls", 100);
const CYCLES = arg("cycles", 1);
const addResult = (a: number, b: number) => ({ content: [{ type: "text" as const, text: String(a + b) }] });

// ---- server side (a child process: `soak.ts --serve=<ours|v1>`) ----

interface Stats {
  heap: number;
  rss: number;
  sessions: number;
}

async function serveChild(kind: string): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  let listener: (req: IncomingMessage, res: ServerResponse) => void;
  let sessions: () => number;
  if (kind === "ours") {
    const { McpServer } = await import("../runtime/index.ts");
    const { McpHttpHandler } = await import("../runtime/http/server/handler.ts");
    const { toNodeListener } = await import("../runtime/http/server/node.ts");
    const server = new McpServer({ revisions: builtinRevisions, info: { name: "soak", version: "1" } }).tool(
      ADD_TOOL,
      ({ a, b }) => addResult(a, b),
      {
        arguments: addArguments(z),
      },
    );
    // One address opens all the sessions here, so the per-client cap is lifted (and the total cap above the count).
    const handler = new McpHttpHandler(server, {
      eventStore: false,
      maxSessions: CLIENTS * 2,
      maxSessionsPerClient: CLIENTS * 2,
    } as ConstructorParameters<typeof McpHttpHandler>[1]);
    listener = toNodeListener(handler);
    sessions = () => handler.sessionCount;
  } else {
    const { McpServer: V1Server } = await import("@modelcontextprotocol/sdk/server/mcp.js");
    const { StreamableHTTPServerTransport } = await import("@modelcontextprotocol/sdk/server/streamableHttp.js");
    type V1Transport = InstanceType<typeof StreamableHTTPServerTransport>;
    const transports = new Map<string, V1Transport>();
    listener = (req, res) => {
      const sid = req.headers["mcp-session-id"];
      const existing = typeof sid === "string" ? transports.get(sid) : undefined;
      if (existing) return void existing.handleRequest(req, res);
      const server = new V1Server({ name: "soak", version: "1" });
      server.registerTool("add", { inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) =>
        addResult(a, b),
      );
      const transport: V1Transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        enableJsonResponse: true,
        onsessioninitialized: (id) => void transports.set(id, transport),
        onsessionclosed: (id) => void transports.delete(id),
      });
      transport.onclose = () => transport.sessionId !== undefined && transports.delete(transport.sessionId);
      void server.connect(transport).then(() => transport.handleRequest(req, res));
    };
    sessions = () => transports.size;
  }
  const http = createServer((req, res) => {
    if (req.url !== "/__stats") return listener(req, res);
    gc?.();
    gc?.();
    const stats: Stats = { heap: process.memoryUsage().heapUsed, rss: process.memoryUsage().rss, sessions: sessions() };
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(stats));
  });
  http.keepAliveTimeout = 60_000;
  http.maxConnections = 4 * CLIENTS;
  http.listen(0, "127.0.0.1", () => process.stdout.write(`PORT=${(http.address() as AddressInfo).port}\n`));
  process.once("SIGTERM", () => process.exit(0));
}

// ---- client side ----

// More sockets than the other benches' pool: 1,000 clients call at once here.
const agent = new Agent({ keepAlive: true, maxSockets: 256 });
const JSON_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

const stats = async (port: number): Promise<Stats> =>
  JSON.parse((await send(port, "GET", "/__stats", {}, undefined, agent)).body) as Stats;

/** One client: (session era) initialize, `CALLS` checked calls, DELETE; (stateless) `CALLS` checked calls. */
async function client(
  port: number,
  modern: boolean,
  n: number,
  opened: () => void,
  hold: Promise<void>,
): Promise<void> {
  let headers: Record<string, string> = modern
    ? { ...JSON_HEADERS, "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "add" }
    : JSON_HEADERS;
  if (!modern) {
    const init = {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: SESSION_ERA, capabilities: {}, clientInfo: { name: "soak", version: "1" } },
    };
    const reply = await send(port, "POST", "/mcp", headers, JSON.stringify(init), agent);
    const sid = reply.headers["mcp-session-id"];
    if (reply.status !== 200 || typeof sid !== "string")
      throw new Error(`initialize: HTTP ${reply.status} ${reply.body.slice(0, 200)}`);
    headers = { ...JSON_HEADERS, "mcp-session-id": sid, "mcp-protocol-version": SESSION_ERA };
    await send(
      port,
      "POST",
      "/mcp",
      headers,
      JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
      agent,
    );
  }
  opened();
  await hold; // every client is open before any calls: the peak is 1,000 live sessions
  const meta = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} };
  for (let i = 1; i <= CALLS; i++) {
    const params = { name: "add", arguments: { a: n, b: i }, ...(modern ? { _meta: meta } : {}) };
    const reply = await send(
      port,
      "POST",
      "/mcp",
      headers,
      JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/call", params }),
      agent,
    );
    if (messageOf(reply).result?.content?.[0]?.text !== String(n + i))
      throw new Error(`bad answer (HTTP ${reply.status}): ${reply.body.slice(0, 200)}`);
  }
  if (!modern) await send(port, "DELETE", "/mcp", headers, undefined, agent);
}

function startChild(kind: string): Promise<{ port: number; child: ChildProcess }> {
  const self = fileURLToPath(import.meta.url);
  const child = spawn(
    process.execPath,
    ["--expose-gc", "--import", "tsx", self, `--serve=${kind}`, `--clients=${CLIENTS}`],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      const match = /PORT=(\d+)/.exec(out);
      if (match) resolve({ port: Number(match[1]), child });
    });
    child.once("exit", (code) => reject(new Error(`${kind} server exited (${code})`)));
  });
}

const mb = (n: number): string => `${(n / 1048576).toFixed(1)} MB`;

async function soak(kind: string, modern: boolean): Promise<void> {
  const { port, child } = await startChild(kind);
  try {
    // Warm-up (code paths, lazy imports, pools) before the baseline.
    await Promise.all(
      Array.from({ length: 20 }, (_, n) => client(port, modern, n, () => undefined, Promise.resolve())),
    );
    const before = await stats(port);
    let peak = before;
    /** Heap after GC at the end of each cycle: a leak shows as a climb from cycle to cycle. */
    const afterCycle: number[] = [];
    const started = Date.now();
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      let open = 0;
      let release!: () => void;
      const hold = new Promise<void>((r) => (release = r));
      let allOpen!: () => void;
      const ready = new Promise<void>((r) => (allOpen = r));
      const runs = Array.from({ length: CLIENTS }, (_, n) =>
        client(port, modern, n, () => ++open === CLIENTS && allOpen(), hold),
      );
      await Promise.race([ready, Promise.all(runs)]);
      const atPeak = await stats(port);
      if (atPeak.heap > peak.heap) peak = atPeak;
      release();
      await Promise.all(runs);
      if (CYCLES > 1) afterCycle.push((await stats(port)).heap);
    }
    const seconds = (Date.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 200));
    const after = await stats(port);
    const calls = CLIENTS * CALLS * CYCLES;
    console.log(
      `${`${kind} ${modern ? `${MODERN} stateless` : `${SESSION_ERA} sessions`}`.padEnd(30)} ${calls} calls in ${seconds.toFixed(1)} s ` +
        `(${Math.round(calls / seconds)}/s)  heap ${mb(before.heap)} → peak ${mb(peak.heap)} (${peak.sessions} sessions) → after ${mb(after.heap)}  ` +
        `rss ${mb(before.rss)} → ${mb(after.rss)}  sessions left ${after.sessions}`,
    );
    const perSession = (peak.heap - before.heap) / Math.max(1, peak.sessions);
    console.log(
      `${"".padEnd(30)} ${modern ? "" : `${(perSession / 1024).toFixed(1)} KB heap per open session  `}` +
        (afterCycle.length > 0 ? `heap after each cycle: ${afterCycle.map(mb).join(", ")}` : ""),
    );
  } finally {
    child.kill("SIGTERM");
  }
}

const serveKind = process.argv.find((a) => a.startsWith("--serve="))?.slice(8);
if (serveKind) await serveChild(serveKind);
else {
  console.log(
    `Soak: ${CLIENTS} concurrent clients × ${CALLS} calls × ${CYCLES} cycle(s) over HTTP (Node ${process.version}; heap after GC)`,
  );
  await soak("ours", false);
  await soak("sdk-v1", false);
  await soak("ours", true);
  agent.destroy();
}
