/**
 * The lean client the HTTP benches drive every server with (the same for all, so only servers differ): node:http
 * with a keep-alive agent, raw JSON-RPC, and a check of every result. Also starts and stops the server children.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { Agent, request } from "node:http";
import { fileURLToPath } from "node:url";

export const MODERN = "2026-07-28";
export const LEGACY = "2025-11-25";
const SERVERS = fileURLToPath(new URL("./http-servers.ts", import.meta.url));
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

export interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** One HTTP exchange with a server child on 127.0.0.1; `via` is the connection pool (default: 64 keep-alive sockets). */
export function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
  via: Agent = agent,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, path, method, agent: via, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }),
      );
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** The JSON-RPC message of a reply: a JSON body, or the last `data:` line of an SSE body. */
export function messageOf(reply: Reply): {
  id?: unknown;
  result?: { content?: Array<{ text?: string }> };
  error?: unknown;
} {
  if (String(reply.headers["content-type"]).includes("text/event-stream")) {
    const data = reply.body.split("\n").filter((l) => l.startsWith("data: ") && l.length > 6);
    return JSON.parse(data.at(-1)!.slice(6)) as ReturnType<typeof messageOf>;
  }
  return JSON.parse(reply.body) as ReturnType<typeof messageOf>;
}

const BASE_HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

/** A connected caller: `call(a, b)` resolves with the checked sum. */
export interface Caller {
  call(a: number, b: number): Promise<void>;
}

let nextId = 1;
export async function initialize(port: number): Promise<Record<string, string>> {
  const init = {
    jsonrpc: "2.0",
    id: nextId++,
    method: "initialize",
    params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: "bench", version: "1" } },
  };
  const reply = await send(port, "POST", "/mcp", BASE_HEADERS, JSON.stringify(init));
  if (reply.status !== 200) throw new Error(`initialize: HTTP ${reply.status} ${reply.body}`);
  const sid = reply.headers["mcp-session-id"];
  const headers: Record<string, string> = {
    ...BASE_HEADERS,
    "mcp-protocol-version": LEGACY,
    ...(typeof sid === "string" ? { "mcp-session-id": sid } : {}),
  };
  await send(port, "POST", "/mcp", headers, JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
  return headers;
}

export async function caller(port: number, revision: string): Promise<Caller> {
  const modern = revision === MODERN;
  const headers = modern
    ? { ...BASE_HEADERS, "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "add" }
    : await initialize(port);
  const meta = { "io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {} };
  return {
    async call(a, b) {
      const id = nextId++;
      const params = modern ? { name: "add", arguments: { a, b }, _meta: meta } : { name: "add", arguments: { a, b } };
      const reply = await send(
        port,
        "POST",
        "/mcp",
        headers,
        JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params }),
      );
      const message = messageOf(reply);
      if (message.id !== id || message.result?.content?.[0]?.text !== String(a + b))
        throw new Error(`bad answer (HTTP ${reply.status}): ${reply.body.slice(0, 300)}`);
    },
  };
}

export interface ServerStats {
  readonly cpuUs: number;
  readonly heap: number;
  readonly rss: number;
}

export async function stats(port: number): Promise<ServerStats> {
  return JSON.parse((await send(port, "GET", "/__stats", {})).body) as ServerStats;
}

export interface Child {
  readonly port: number;
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

/** `prefix`: a command the server runs under, e.g. `["taskset", "-c", "1"]` (it must exec node, keeping the pid). */
export function startServer(
  kind: string,
  nodeFlags: readonly string[] = [],
  prefix: readonly string[] = [],
): Promise<Child> {
  const argv = [...prefix, process.execPath, ...nodeFlags, "--import", "tsx", SERVERS, kind];
  const child = spawn(argv[0]!, argv.slice(1), { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      const match = /PORT=(\d+)/.exec(out);
      if (match)
        resolve({
          port: Number(match[1]),
          process: child,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              child.once("exit", () => done());
              child.kill("SIGTERM");
            }),
        });
    });
    child.once("exit", (code) => reject(new Error(`${kind} server exited (${code})`)));
  });
}

/**
 * The server children of one bench run, by kind: `use` starts a fresh child for its body and stops it after (a
 * measured run: no pair inherits another's JIT state or heap), or with `shared` (the smoke, whose figures are not
 * read) starts one child per kind for the whole run; `close` stops those.
 */
export function serverChildren(shared: boolean, nodeFlags: readonly string[] = []) {
  const open = new Map<string, Promise<Child>>();
  return {
    async use<T>(kind: string, body: (server: Child) => Promise<T>): Promise<T> {
      if (shared) {
        if (!open.has(kind)) open.set(kind, startServer(kind, nodeFlags));
        return body(await open.get(kind)!);
      }
      const server = await startServer(kind, nodeFlags);
      try {
        return await body(server);
      } finally {
        await server.stop();
      }
    },
    async close(): Promise<void> {
      for (const server of open.values()) await (await server).stop();
    },
  };
}
