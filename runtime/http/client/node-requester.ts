/**
 * The client transport's requests on Node: `node:http`/`node:https` with a keep-alive agent of the transport's own.
 * Node's `fetch` spends several times the CPU of a plain `node:http` exchange per request (WHATWG streams, Headers
 * and Response objects; measured in bench/http-client.ts), which dominates a client that calls many tools.
 * The modules are reached with `process.getBuiltinModule` rather than an import, so a bundle for the web (workers,
 * browsers) holds no `node:` import and never loads them.
 */
import type * as NodeHttp from "node:http";
import type { HttpAnswer, HttpRequester } from "./requester.ts";

type GetBuiltin = (id: string) => unknown;

function builtin<T>(id: string): T | undefined {
  const proc = (globalThis as { process?: { getBuiltinModule?: GetBuiltin } }).process;
  return typeof proc?.getBuiltinModule === "function" ? (proc.getBuiltinModule(id) as T | undefined) : undefined;
}

/** Whether node:http can be loaded here (Node ≥ 20.16 / 22.3). */
export function nodeHttpAvailable(): boolean {
  return builtin<typeof NodeHttp>("node:http") !== undefined;
}

export interface NodeRequesterOptions {
  /** Connections per origin (requests beyond it wait for a free one). */
  readonly maxSockets: number;
}

/** A requester on node:http(s) with keep-alive agents; `close()` ends their idle connections. */
export function nodeRequester(options: NodeRequesterOptions): { request: HttpRequester; close: () => void } {
  const http = builtin<typeof NodeHttp>("node:http")!;
  const https = builtin<typeof import("node:https")>("node:https")!;
  const agents = {
    "http:": new http.Agent({ keepAlive: true, maxSockets: options.maxSockets }),
    "https:": new https.Agent({ keepAlive: true, maxSockets: options.maxSockets }),
  };
  const request: HttpRequester = (url, init) =>
    new Promise((resolve, reject) => {
      const secure = url.protocol === "https:";
      if (!secure && url.protocol !== "http:") return reject(new TypeError(`unsupported URL scheme ${url.protocol}`));
      const send = secure ? https.request : http.request;
      const req = send(url, {
        method: init.method,
        headers: init.headers,
        agent: secure ? agents["https:"] : agents["http:"],
        ...(init.signal ? { signal: init.signal } : {}),
      });
      req.once("response", (res) => resolve(answerOf(res)));
      req.once("error", reject);
      req.end(init.body);
    });
  return {
    request,
    close: () => {
      agents["http:"].destroy();
      agents["https:"].destroy();
    },
  };
}

function answerOf(res: NodeHttp.IncomingMessage): HttpAnswer {
  res.setEncoding("utf8");
  return {
    status: res.statusCode ?? 0,
    header(name) {
      const value = res.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
    headers() {
      const headers = new Headers();
      const raw = res.rawHeaders;
      for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
      return headers;
    },
    async text() {
      let text = "";
      await readText(res, (chunk) => (text += chunk));
      return text;
    },
    readText: (onText) => readText(res, onText),
    async cancel() {
      // A body of announced length is drained, so its keep-alive connection is reused; a stream is cut.
      if (res.headers["content-length"] !== undefined && !res.destroyed) res.resume();
      else res.destroy();
    },
  };
}

/** Streams `res` (already utf-8 decoded) to `onText`; rejects when it breaks before its end. */
function readText(res: NodeHttp.IncomingMessage, onText: (text: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    if (res.readableEnded) return resolve();
    res.on("data", onText);
    res.once("end", resolve);
    res.once("error", reject);
    res.once("close", () => {
      if (!res.complete) reject(new Error("HTTP response ended before its end (connection closed)"));
    });
  });
}
