/**
 * The client transport's requests on Node: `node:http`/`node:https` with a keep-alive agent of the transport's own.
 * Node's `fetch` spends several times the CPU of a plain `node:http` exchange per request (WHATWG streams, Headers
 * and Response objects; measured in bench/http-client.ts), which dominates a client that calls many tools.
 * The modules are reached with `process.getBuiltinModule` rather than an import, so a bundle for the web (workers,
 * browsers) holds no `node:` import and never loads them.
 */
import type * as NodeHttp from "node:http";
import type { AbortSignalLike, HttpAnswer, HttpRequester } from "./requester.ts";

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
  const { urlToHttpOptions } = builtin<typeof import("node:url")>("node:url")!;
  const { Buffer } = builtin<typeof import("node:buffer")>("node:buffer")!;
  const agents = {
    "http:": new http.Agent({ keepAlive: true, maxSockets: options.maxSockets }),
    "https:": new https.Agent({ keepAlive: true, maxSockets: options.maxSockets }),
  };
  // A transport POSTs to one URL object all its life: where a URL points is worked out once, not per request.
  const targets = new WeakMap<URL, Target>();
  const targetOf = (url: URL): Target => {
    let target = targets.get(url);
    if (!target) {
      const { protocol, hostname, port, path, auth } = urlToHttpOptions(url);
      targets.set(url, (target = { protocol, hostname, port, path, auth }));
    }
    return target;
  };
  const request: HttpRequester = (url, init) =>
    new Promise((resolve, reject) => {
      const secure = url.protocol === "https:";
      if (!secure && url.protocol !== "http:") return reject(new TypeError(`unsupported URL scheme ${url.protocol}`));
      const signal = init.signal;
      if (signal?.aborted) return reject(abortError(signal));
      const send = secure ? https.request : http.request;
      const agent = secure ? agents["https:"] : agents["http:"];
      // The signal is not handed to node:http (which ties it to the socket with several listeners per request):
      // one listener destroys the request, and is removed once the answer's body is read or dropped.
      const { protocol, hostname, port, path, auth } = targetOf(url);
      const req = send({ protocol, hostname, port, path, auth, method: init.method, headers: init.headers, agent });
      const onAbort = signal ? () => req.destroy(abortError(signal)) : undefined;
      if (onAbort) signal!.addEventListener("abort", onAbort, { once: true });
      const done = onAbort ? () => signal!.removeEventListener("abort", onAbort) : noop;
      req.once("response", (res) => resolve(new NodeAnswer(res, done, Buffer)));
      req.once("error", (error) => {
        done();
        reject(error);
      });
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

/** The request options a URL stands for (`urlToHttpOptions`'s, less what a request does not read). */
type Target = Pick<NodeHttp.RequestOptions, "protocol" | "hostname" | "port" | "path" | "auth">;

const noop = () => {};

function abortError(signal: AbortSignalLike): Error {
  const reason = signal.reason;
  return reason instanceof Error ? reason : new DOMException("This operation was aborted", "AbortError");
}

/** A node:http response as an `HttpAnswer` (a class: no closures made per response). */
class NodeAnswer implements HttpAnswer {
  readonly status: number;

  constructor(
    private readonly res: NodeHttp.IncomingMessage,
    /** Removes the request's abort listener: called once the body is read or dropped. */
    private readonly done: () => void,
    private readonly buffers: typeof Buffer,
  ) {
    this.status = res.statusCode ?? 0;
  }

  header(name: string): string | null {
    const value = this.res.headers[name.toLowerCase()];
    return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
  }

  headers(): Headers {
    const headers = new Headers();
    const raw = this.res.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
    return headers;
  }

  async text(): Promise<string> {
    // Bytes are decoded once at the end (a small JSON answer is one chunk), not through a stream decoder.
    const chunks: Buffer[] = [];
    await readBody(this.res, this.done, (chunk: Buffer) => chunks.push(chunk));
    return chunks.length === 1 ? chunks[0]!.toString("utf8") : this.buffers.concat(chunks).toString("utf8");
  }

  readText(onText: (text: string) => void): Promise<void> {
    this.res.setEncoding("utf8");
    return readBody(this.res, this.done, onText);
  }

  async cancel(): Promise<void> {
    this.done();
    // A body of announced length is drained, so its keep-alive connection is reused; a stream is cut.
    if (this.res.headers["content-length"] !== undefined && !this.res.destroyed) this.res.resume();
    else this.res.destroy();
  }
}

/** Streams `res` to `onChunk`; resolves at its end, rejects when it breaks before; either way calls `done` first. */
function readBody<T>(res: NodeHttp.IncomingMessage, done: () => void, onChunk: (chunk: T) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    if (res.readableEnded) {
      done();
      return resolve();
    }
    res.on("data", onChunk);
    res.once("end", () => {
      done();
      resolve();
    });
    res.once("error", (error) => {
      done();
      reject(error);
    });
    res.once("close", () => {
      if (res.complete) return;
      done();
      reject(new Error("HTTP response ended before its end (connection closed)"));
    });
  });
}
