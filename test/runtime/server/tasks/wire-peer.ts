/**
 * A raw stateless-era client for the Tasks tests: JSON-RPC written by hand (the oracle does not depend on McpClient),
 * to the fixture server (fixtures/tasks-server.ts) in a child process over stdio, or over Streamable HTTP with the
 * `Mcp-Method`/`Mcp-Name` headers the spec requires. Every request carries its own `_meta`: the revision, and
 * capabilities that declare the Tasks extension unless `declare: false`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { nodeArgs } from "../../../fixture-run.ts";

export const TASKS = "io.modelcontextprotocol/tasks";
type Json = Record<string, unknown>;
export interface Reply {
  readonly result?: Json;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
  readonly status?: number;
}
export interface RequestOptions {
  readonly declare?: boolean;
  /** Send the params as they are, without the stateless `_meta` (handshake-era sessions). */
  readonly bare?: boolean;
  /** HTTP only: headers replacing the computed ones. */
  readonly headers?: Record<string, string>;
  /** HTTP only: sent as `Authorization: Bearer <token>`. */
  readonly bearer?: string;
}
/** An open `subscriptions/listen` stream: every message received on it, in order. */
export interface Listening {
  readonly messages: Json[];
  next(match: (message: Json) => boolean, ms?: number): Promise<Json>;
  close(): void;
}
export interface Peer {
  request(method: string, params: Json, options?: RequestOptions): Promise<Reply>;
  listen(notifications: Json, options?: RequestOptions): Listening;
  close(): Promise<void>;
}

const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";
const FIXTURE = fileURLToPath(new URL("./fixtures/tasks-server.ts", import.meta.url));

export function meta(declare = true): Json {
  return {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "wire-peer", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": declare
      ? { elicitation: { form: {} }, sampling: {}, roots: {}, extensions: { [TASKS]: {} } }
      : { elicitation: { form: {} }, sampling: {}, roots: {} },
  };
}

function collector(messages: Json[], close: () => void): Listening {
  return {
    messages,
    close,
    async next(match, ms = 5000) {
      const start = Date.now();
      for (;;) {
        const found = messages.find(match);
        if (found) return found;
        if (Date.now() - start > ms) throw new Error(`no matching message in ${ms} ms: ${JSON.stringify(messages)}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
  };
}

function startFixture(transport: "stdio" | "http", env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [...nodeArgs(FIXTURE), transport], {
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "inherit"],
  });
}

function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

export async function stdioPeer(env: Record<string, string> = {}): Promise<Peer> {
  const child = startFixture("stdio", env);
  const pending = new Map<number, (reply: Reply) => void>();
  const listeners = new Set<(message: Json) => void>();
  createInterface({ input: child.stdout! }).on("line", (line) => {
    const message = JSON.parse(line) as Json;
    const resolve = typeof message["id"] === "number" ? pending.get(message["id"]) : undefined;
    if (resolve && ("result" in message || "error" in message)) resolve(message as Reply);
    else for (const listener of listeners) listener(message);
  });
  let next = 1;
  const write = (message: Json) => child.stdin!.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  const send = (method: string, params: Json, options: RequestOptions = {}) => {
    const id = next++;
    const reply = new Promise<Reply>((resolve) => pending.set(id, resolve));
    write({ id, method, params: options.bare ? params : { ...params, _meta: meta(options.declare) } });
    return { id, reply };
  };
  return {
    request: (method, params, options) => send(method, params, options).reply,
    listen(notifications, options) {
      const messages: Json[] = [];
      let id = 0;
      const listener = (message: Json) => {
        const tag = ((message["params"] as Json | undefined)?.["_meta"] as Json | undefined)?.[SUBSCRIPTION_ID];
        if (tag === id) messages.push(message);
      };
      listeners.add(listener);
      const sent = send("subscriptions/listen", { notifications }, options);
      id = sent.id;
      void sent.reply.then((reply) => messages.push(reply as Json));
      return collector(messages, () => {
        listeners.delete(listener);
        write({ method: "notifications/cancelled", params: { requestId: id } });
      });
    },
    close: () => stopped(child),
  };
}

/** The headers a stateless-era POST carries: `Mcp-Method`, and `Mcp-Name` where the method names something. */
function headersFor(method: string, params: Json): Record<string, string> {
  const name = method === "tools/call" ? params["name"] : method.startsWith("tasks/") ? params["taskId"] : undefined;
  return {
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": method,
    ...(typeof name === "string" ? { "mcp-name": name } : {}),
  };
}

/** Calls `onMessage` for each JSON-RPC message of an SSE or JSON response body. */
async function readBody(response: Response, onMessage: (message: Json) => void): Promise<void> {
  if (!response.headers.get("content-type")?.includes("text/event-stream")) {
    onMessage((await response.json()) as Json);
    return;
  }
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trimStart())
        .join("\n");
      if (data) onMessage(JSON.parse(data) as Json);
    }
  }
}

/** The fixture server over Streamable HTTP: its URL, and how to stop it. */
export async function httpFixture(env: Record<string, string> = {}): Promise<{ url: string; close(): Promise<void> }> {
  const child = startFixture("http", env);
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /MCP_URL=(\S+)/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.once("exit", (code) => reject(new Error(`the fixture exited (${code})`)));
  });
  return { url, close: () => stopped(child) };
}

export async function httpPeer(env: Record<string, string> = {}): Promise<Peer> {
  const { url, close } = await httpFixture(env);
  return httpPeerAt(url, close);
}

/** A peer of the server at `url` (started elsewhere, e.g. test/scale's deployment); `close` stops that server. */
export function httpPeerAt(url: string, close: () => Promise<void> = () => Promise.resolve()): Peer {
  let next = 1;
  const post = (method: string, params: Json, options: RequestOptions, signal?: AbortSignal) => {
    const body = { jsonrpc: "2.0", id: next++, method, params: { ...params, _meta: meta(options.declare) } };
    const headers = {
      ...(options.headers ?? headersFor(method, params)),
      ...(options.bearer === undefined ? {} : { authorization: `Bearer ${options.bearer}` }),
    };
    return fetch(url, { method: "POST", headers, body: JSON.stringify(body), ...(signal ? { signal } : {}) });
  };
  return {
    async request(method, params, options = {}) {
      const response = await post(method, params, options);
      let reply: Reply | undefined;
      await readBody(response, (message) => {
        if ("result" in message || "error" in message) reply ??= message as Reply;
      });
      return { ...reply, status: response.status };
    },
    listen(notifications, options = {}) {
      const messages: Json[] = [];
      const abort = new AbortController();
      void post("subscriptions/listen", { notifications }, options, abort.signal)
        .then((response) => readBody(response, (message) => messages.push(message)))
        .catch(() => undefined);
      return collector(messages, () => abort.abort());
    },
    close,
  };
}

/** Polls `tasks/get` (every 50 ms) until `done` holds for the task; fails on an error answer or after `ms`. */
export async function pollUntil(
  peer: Peer,
  taskId: string,
  done: (task: Json) => boolean,
  ms = 8000,
  options: RequestOptions = {},
): Promise<Json> {
  const start = Date.now();
  for (;;) {
    const reply = await peer.request("tasks/get", { taskId }, options);
    if (reply.error || !reply.result) throw new Error(`tasks/get ${taskId} failed: ${JSON.stringify(reply.error)}`);
    if (done(reply.result)) return reply.result;
    if (Date.now() - start > ms) throw new Error(`task ${taskId} still ${JSON.stringify(reply.result)} after ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
