/**
 * Servers for the HTTP benches, each run in its own child process so its CPU and memory can be read alone:
 * `npx tsx bench/lib/http-servers.ts <bare|ours|built|v1|v2>` prints `PORT=<n>` (`ours:<n>`: our server with n tools). Besides MCP, every server answers
 * `GET /__stats` with its CPU time and (after a GC when run with --expose-gc) its heap and RSS.
 * `built` is `ours` on the built package (the JavaScript `builtRuntime(BUILT_DIR)` wrote, what a user runs): tsx
 * compiles the sources with esbuild's keepNames, whose `__name(fn, …)` gives every arrow function stored per
 * session its own property dictionary (~256 B each), which the package as built does not have.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import type { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type * as sources from "../../runtime/index.ts";
import type { McpHttpHandler } from "../../runtime/http/server/handler.ts";
import type { toNodeListener } from "../../runtime/http/server/node.ts";
import { HTTP_BUILT_DIR as BUILT_DIR } from "./built-runtime.ts";
import { ADD_TOOL, addArguments } from "./add-tool.ts";

// Each kind imports only what it is made of (below), so a child loads no other server's modules.

/** The runtime API a server here is made from: the sources (under tsx) or the built package. */
interface RuntimeApi {
  readonly McpServer: typeof sources.McpServer;
  readonly builtinRevisions: typeof sources.builtinRevisions;
  readonly McpHttpHandler: typeof McpHttpHandler;
  readonly toNodeListener: typeof toNodeListener;
}
async function runtimeSources(): Promise<RuntimeApi> {
  const [core, handler, node] = await Promise.all([
    import("../../runtime/index.ts"),
    import("../../runtime/http/server/handler.ts"),
    import("../../runtime/http/server/node.ts"),
  ]);
  return { ...core, McpHttpHandler: handler.McpHttpHandler, toNodeListener: node.toNodeListener };
}

type Listener = (req: IncomingMessage, res: ServerResponse) => void;
const addResult = (a: number, b: number) => ({ content: [{ type: "text" as const, text: String(a + b) }] });

function stats(res: ServerResponse): void {
  (globalThis as { gc?: () => void }).gc?.();
  const cpu = process.cpuUsage();
  const mem = process.memoryUsage();
  res
    .writeHead(200, { "content-type": "application/json" })
    .end(JSON.stringify({ cpuUs: cpu.user + cpu.system, heap: mem.heapUsed, rss: mem.rss }));
}

/** What the bare server answers `initialize` with, so an MCP client can connect to it (2025-11-25). */
const BARE_INIT = {
  protocolVersion: "2025-11-25",
  capabilities: { tools: {} },
  serverInfo: { name: "bare", version: "1" },
};

/**
 * The limit: a node:http server that parses the JSON-RPC body and answers like an MCP tool call would (and
 * `initialize` like a server, notifications with 202, GET with 405), so MCP clients can be measured against it.
 */
function bare(): Listener {
  return (req, res) => {
    if (req.method !== "POST") return void res.writeHead(405).end();
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const message = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        id?: number;
        method?: string;
        params?: { arguments?: { a: number; b: number } };
      };
      if (message.id === undefined) return void res.writeHead(202).end();
      const args = message.params?.arguments ?? { a: 0, b: 0 };
      const result = message.method === "initialize" ? BARE_INIT : addResult(args.a, args.b);
      const body = JSON.stringify({ jsonrpc: "2.0", id: message.id, result });
      res
        .writeHead(200, {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "mcp-session-id": "bare",
        })
        .end(body);
    });
  };
}

/** `count - 1` tools besides `add`, each with a schema of a few fields (what a real tool table holds). */
function fillerTools(server: sources.McpServer, count: number): void {
  for (let i = 1; i < count; i++)
    server.tool(
      {
        name: `tool_${i}`,
        description: `filler tool ${i}`,
        inputSchema: {
          type: "object",
          properties: { query: { type: "string" }, limit: { type: "integer" }, tags: { type: "array" } },
          required: ["query"],
        },
      },
      () => addResult(i, 0),
    );
}

/** Our server with `add` and, given `tools` > 1, that many tools in all (bench/stateless-tools.ts). */
async function ours(tools = 1, runtime?: RuntimeApi): Promise<Listener> {
  const [{ z }, api] = await Promise.all([import("zod"), runtime ?? runtimeSources()]);
  const { McpServer, builtinRevisions } = api;
  const server = new McpServer({ revisions: builtinRevisions, info: { name: "bench", version: "1" } }).tool(
    ADD_TOOL,
    ({ a, b }) => addResult(a, b),
    {
      arguments: addArguments(z),
    },
  );
  fillerTools(server, tools);
  // One bench client opens every session from one address: lift the per-client cap (default 100).
  return api.toNodeListener(new api.McpHttpHandler(server, { eventStore: false, maxSessionsPerClient: Infinity }));
}

/** `ours` on the built package in BUILT_DIR (its JavaScript is loaded as is: tsx compiles only TypeScript). */
async function built(): Promise<Listener> {
  const load = (file: string) => import(pathToFileURL(path.join(BUILT_DIR, file)).href) as Promise<Partial<RuntimeApi>>;
  const [core, http, web] = await Promise.all([load("index.js"), load("http/index.js"), load("http/web-entry.js")]);
  return ours(1, { ...core, ...http, ...web } as RuntimeApi);
}

/** SDK v1: the documented stateful wiring (a transport and server per session), JSON responses. */
async function v1(): Promise<Listener> {
  const [{ z }, { McpServer: V1Server }, { StreamableHTTPServerTransport }] = await Promise.all([
    import("zod"),
    import("@modelcontextprotocol/sdk/server/mcp.js"),
    import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
  ]);
  const transports = new Map<string, StreamableHTTPServerTransport>();
  return (req, res) => {
    const sid = req.headers["mcp-session-id"];
    const existing = typeof sid === "string" ? transports.get(sid) : undefined;
    if (existing) return void existing.handleRequest(req, res);
    const server = new V1Server({ name: "bench", version: "1" });
    server.registerTool("add", { inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => addResult(a, b));
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => void transports.set(id, transport),
    });
    void server.connect(transport).then(() => transport.handleRequest(req, res));
  };
}

/** SDK v2: createMcpHandler (2026-07-28, and stateless serving of 2025 traffic), JSON responses. */
async function v2(): Promise<Listener> {
  const [{ z }, { McpServer: V2Server, createMcpHandler }, { getRequestListener }] = await Promise.all([
    import("zod"),
    import("@modelcontextprotocol/server"),
    import("@hono/node-server"),
  ]);
  const handler = createMcpHandler(
    () => {
      const server = new V2Server({ name: "bench", version: "1" }, { capabilities: { tools: {} } });
      server.registerTool("add", { inputSchema: z.object({ a: z.number(), b: z.number() }) }, async ({ a, b }) =>
        addResult(a, b),
      );
      return server;
    },
    { responseMode: "json" },
  );
  return getRequestListener((request) => handler.fetch(request)) as Listener;
}

const kinds: Record<string, (tools?: number) => Listener | Promise<Listener>> = { bare, ours, built, v1, v2 };
// `ours:300`: our server with 300 tools.
const [kind = "", tools] = (process.argv[2] ?? "").split(":");
const make = kinds[kind];
if (!make) throw new Error(`usage: http-servers.ts <${Object.keys(kinds).join("|")}>[:tools]`);
const listener = await make(tools === undefined ? undefined : Number(tools));
const http = createServer((req, res) => (req.url === "/__stats" ? stats(res) : listener(req, res)));
http.keepAliveTimeout = 60_000;
http.listen(0, "127.0.0.1", () => process.stdout.write(`PORT=${(http.address() as AddressInfo).port}\n`));
for (const signal of ["SIGTERM", "SIGINT"] as const) process.once(signal, () => process.exit(0));
