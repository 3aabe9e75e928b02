/**
 * The `node:http` edge, without building web `Request`/`Response` objects on the hot path, and `serve()`:
 * one line to put a server on a port (127.0.0.1 by default, with DNS-rebinding protection for loopback).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { DEFAULT_DRAIN_MS, pause, type DrainOptions } from "./drain.ts";
import { McpHttpHandler, type McpHttpOptions, type SessionHost } from "./handler.ts";
import { headerParamsFromTools } from "./stateless-checks.ts";
import { SseStream } from "./sse.ts";
import { BodyTooLargeError, type HttpRequestIn, type HttpResponseOut } from "./types.ts";

/** `marks.tooLarge` is set when the body is refused as too large. */
function readLimited(req: IncomingMessage, limit: number, marks: { tooLarge: boolean }): Promise<string> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > limit) {
    marks.tooLarge = true;
    return Promise.reject(new BodyTooLargeError(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        // Stop reading: the answer carries `Connection: close` and the socket is closed once it is sent, so the
        // rest of an oversized upload is never read (draining it would let a client stream without bound).
        req.removeAllListeners("data");
        req.pause();
        marks.tooLarge = true;
        reject(new BodyTooLargeError(limit));
      } else chunks.push(chunk);
    });
    req.on("end", () =>
      resolve(chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8")),
    );
    req.on("error", reject);
  });
}

/** A `node:http` request as an `HttpRequestIn`: a class, so serving a request allocates no closures. */
class NodeRequest implements HttpRequestIn {
  readonly method: string;
  readonly path: string;
  readonly search: string;
  /** Set when the body was refused as too large: the connection must close after the answer. */
  tooLarge = false;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    this.method = req.method ?? "GET";
    this.path = q === -1 ? url : url.slice(0, q);
    this.search = q === -1 ? "" : url.slice(q);
  }

  get remoteAddress(): string | undefined {
    return this.req.socket.remoteAddress;
  }

  header(name: string): string | undefined {
    const value = this.req.headers[name];
    return Array.isArray(value) ? value.join(", ") : value;
  }

  readBody(limit: number): Promise<string> {
    return readLimited(this.req, limit, this);
  }

  onGone(listener: () => void): void {
    const res = this.res;
    if (res.closed) {
      if (!res.writableFinished) listener();
    } else
      // `on`, not `once`: a response closes only once, and `once` allocates a wrapper per call.
      res.on("close", () => {
        if (!res.writableFinished) listener();
      });
  }
}

export function fromNodeRequest(req: IncomingMessage, res: ServerResponse): HttpRequestIn {
  return new NodeRequest(req, res);
}

/** Unsent SSE bytes tolerated per stream before the client is considered gone. */
export const MAX_BUFFERED_SSE_BYTES = 8 * 1024 * 1024;

export function writeNodeResponse(out: HttpResponseOut, res: ServerResponse): void {
  const body = out.body;
  if (!(body instanceof SseStream)) {
    // Object.assign, not a spread followed by a key (V8's slow path, see jsonResponse).
    const headers: Record<string, string> = Object.assign({}, out.headers);
    headers["content-length"] = String(body ? Buffer.byteLength(body) : 0);
    res.writeHead(out.status, headers);
    res.end(body);
    return;
  }
  res.writeHead(out.status, out.headers);
  // A write racing the peer's disconnect must not become an unhandled 'error' event (that would exit the process).
  res.on("error", ignore);
  res.flushHeaders();
  res.once("close", () => body.peerClosed());
  body.attach({
    write: (chunk) => {
      res.write(chunk);
      // A client that stops reading must not make us buffer without bound: drop it like a vanished one.
      if (res.writableLength > MAX_BUFFERED_SSE_BYTES) res.destroy();
    },
    end: () => res.end(),
  });
}

export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

export function toNodeListener(handler: McpHttpHandler): NodeListener {
  return (req, res) => {
    const request = new NodeRequest(req, res);
    let answer: Promise<HttpResponseOut>;
    try {
      answer = handler.handle(request);
    } catch (error) {
      abandon(res, error, handler);
      return;
    }
    answer.then(
      (out) => {
        try {
          // Shutting down: the client's next request opens a connection to another instance.
          if (request.tooLarge || handler.state === "draining") res.setHeader("connection", "close");
          writeNodeResponse(out, res);
        } catch (error) {
          // A stream that never reached the wire must not go on buffering for a peer that will never read it.
          if (out.body instanceof SseStream) out.body.peerClosed();
          abandon(res, error, handler);
        }
      },
      (error: unknown) => abandon(res, error, handler),
    );
  };
}

function ignore(): void {}

/**
 * Nothing may escape the listener: a throw here (e.g. `writeHead` refusing a header value) would be an uncaught
 * exception and end the process. Answer 500 when nothing was sent yet and the headers can still be written,
 * else drop this one connection; the server goes on serving everyone else.
 */
function abandon(res: ServerResponse, error: unknown, handler: McpHttpHandler): void {
  handler.reportError(error);
  try {
    if (!res.headersSent && !res.destroyed) {
      for (const name of res.getHeaderNames()) res.removeHeader(name);
      res.writeHead(500, { "content-length": "0", connection: "close" }).end();
      return;
    }
  } catch {
    // fall through: the socket goes
  }
  res.destroy();
}

export interface ServeOptions extends McpHttpOptions {
  /** Default 0: a free port. */
  readonly port?: number;
  /** Default 127.0.0.1. Binding elsewhere needs `allowedHosts` for the names the server is reached by. */
  readonly hostname?: string;
  /**
   * A connection with no request in flight is closed after this many ms without traffic, also one that never sends
   * a byte (which Node itself answers with 408 only once `headersTimeout` has passed since the connect). Streams
   * being answered (SSE) are never cut by it. Default 30,000; 0 disables.
   */
  readonly idleTimeout?: number;
  /** Node's `keepAliveTimeout`: how long a connection may wait for its next request after an answer. Default 5,000. */
  readonly keepAliveTimeout?: number;
  /** Node's `headersTimeout`: the request head must arrive within this many ms (→ 408). Default 20,000. */
  readonly headersTimeout?: number;
  /**
   * Node's `requestTimeout`: the whole request (head and body) must arrive within this many ms (→ 408). It ends when
   * the request is received, so long answers (SSE streams) are not cut by it. Default 60,000; 0 disables.
   */
  readonly requestTimeout?: number;
  /** Connections beyond this many are closed at once by Node. Default 1,000. */
  readonly maxConnections?: number;
  /**
   * One peer's share of `maxConnections`: a connection from an address that already holds this many is closed at
   * once, so one peer cannot take the whole budget. IPv6 peers are counted per /64. Default: a tenth of
   * `maxConnections`, at least 10 (100 of the default 1,000). Behind a reverse proxy every connection comes from the proxy's address: set it to
   * `maxConnections` (or 0, which turns the share off) and limit per client at the proxy.
   */
  readonly maxConnectionsPerAddress?: number;
}

/** serve()'s connection defaults (ms, except `maxConnections`). */
export const SERVE_DEFAULTS = {
  idleTimeout: 30_000,
  keepAliveTimeout: 5_000,
  headersTimeout: 20_000,
  requestTimeout: 60_000,
  maxConnections: 1_000,
} as const;

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly handler: McpHttpHandler;
  readonly httpServer: Server;
  /**
   * `close()`: at once; requests in flight get 404 where their session ends with this process, 503 with
   * `Retry-After` where it lives on in the shared store; the store stays open. `close({ drainMs, unreadyMs })`, the
   * graceful shutdown (SIGTERM): readiness turns 503, after `unreadyMs` the listener closes and new requests get a
   * retryable 503, streams without an answer end, requests in flight get `drainMs` to finish (then their retryable
   * error), and the shared store is closed last.
   */
  close(options?: DrainOptions): Promise<void>;
}

/** Tool header annotations read from the server's registered tools, per request (tools may change). */
export function headerParamsOfServer(server: SessionHost): McpHttpOptions["headerParams"] {
  const tools = server.tools;
  if (!tools) return undefined;
  return (name) => {
    const tool = tools.get(name);
    return tool ? headerParamsFromTools([tool.definition])(name) : undefined;
  };
}

/** The `node:http` server with serve()'s connection limits and timeouts. */
function createNodeServer(listener: NodeListener, options: ServeOptions): Server {
  const requestTimeout = options.requestTimeout ?? SERVE_DEFAULTS.requestTimeout;
  // Node refuses a headersTimeout above requestTimeout: the default follows a shorter requestTimeout.
  const headersTimeout =
    options.headersTimeout ??
    (requestTimeout > 0 ? Math.min(requestTimeout, SERVE_DEFAULTS.headersTimeout) : SERVE_DEFAULTS.headersTimeout);
  const idleTimeout = options.idleTimeout ?? SERVE_DEFAULTS.idleTimeout;
  // Node checks headers/request deadlines on an interval (30 s by default), which would stretch a 20 s limit to 50 s.
  const deadlines = [headersTimeout, requestTimeout].filter((t) => t > 0);
  const checkEvery = Math.max(50, Math.min(5_000, ...deadlines.map((t) => t / 4)));
  // Requests in flight per socket: the idle timeout closes only sockets with none.
  const inFlight = new WeakMap<Socket, number>();
  const httpServer = createServer(
    { headersTimeout, requestTimeout, connectionsCheckingInterval: checkEvery },
    (req, res) => {
      const socket = req.socket;
      inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
      res.once("close", () => inFlight.set(socket, (inFlight.get(socket) ?? 1) - 1));
      listener(req, res);
    },
  );
  httpServer.keepAliveTimeout = options.keepAliveTimeout ?? SERVE_DEFAULTS.keepAliveTimeout;
  httpServer.maxConnections = options.maxConnections ?? SERVE_DEFAULTS.maxConnections;
  const budget = httpServer.maxConnections;
  const share = options.maxConnectionsPerAddress ?? Math.min(budget, Math.max(10, Math.floor(budget / 10)));
  if (share > 0) limitPerAddress(httpServer, share);
  if (idleTimeout > 0) {
    httpServer.timeout = idleTimeout;
    // With a 'timeout' listener Node leaves the socket to us: close it unless a request is being served on it.
    httpServer.on("timeout", (socket: Socket) => {
      if (!inFlight.get(socket)) socket.destroy();
    });
  }
  return httpServer;
}

/** Closes a connection from an address that already holds `share` connections. */
function limitPerAddress(httpServer: Server, share: number): void {
  const held = new Map<string, number>();
  httpServer.on("connection", (socket: Socket) => {
    const peer = peerOf(socket.remoteAddress);
    const count = (held.get(peer) ?? 0) + 1;
    if (count > share) {
      socket.destroy();
      return;
    }
    held.set(peer, count);
    socket.once("close", () => {
      const left = (held.get(peer) ?? 1) - 1;
      if (left > 0) held.set(peer, left);
      else held.delete(peer);
    });
  });
}

/** The peer an address belongs to: an IPv4 address (also IPv4-mapped IPv6), or an IPv6 /64 (one host's usual share). */
export function peerOf(address: string | undefined): string {
  if (address === undefined) return "";
  const bare = address.replace(/%.*$/, "").toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (mapped) return mapped[1]!;
  if (!bare.includes(":")) return bare;
  const [head = "", tail] = bare.split("::");
  const first = head === "" ? [] : head.split(":");
  const last = tail === undefined || tail === "" ? [] : tail.split(":");
  const zeros = tail === undefined ? [] : Array<string>(Math.max(0, 8 - first.length - last.length)).fill("0");
  const groups = [...first, ...zeros, ...last].slice(0, 4).map((g) => g.replace(/^0+(?=.)/, ""));
  return `${groups.join(":")}::/64`;
}

/** `await serve(server, { port: 3000 })` → an MCP endpoint at http://127.0.0.1:3000/mcp. */
export async function serve(server: SessionHost, options: ServeOptions = {}): Promise<RunningServer> {
  const headerParams = options.headerParams ?? headerParamsOfServer(server);
  const handler = new McpHttpHandler(server, headerParams ? { ...options, headerParams } : options);
  const httpServer = createNodeServer(toNodeListener(handler), options);
  const hostname = options.hostname ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(options.port ?? 0, hostname, () => resolve());
  });
  const port = (httpServer.address() as AddressInfo).port;
  const shownHost = hostname.includes(":") ? `[${hostname}]` : hostname;
  return {
    url: `http://${shownHost}:${port}${options.path ?? "/mcp"}`,
    port,
    handler,
    httpServer,
    close: async (drain?: DrainOptions) => {
      if (drain === undefined) {
        await handler.close();
        httpServer.closeAllConnections();
        await new Promise<void>((resolve) => httpServer.close(() => resolve()));
        return;
      }
      handler.unready();
      await pause(drain.unreadyMs ?? 0);
      const drained = handler.drain(drain.drainMs ?? DEFAULT_DRAIN_MS);
      const listenerClosed = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeIdleConnections();
      await drained;
      await handler.close();
      httpServer.closeAllConnections();
      await listenerClosed;
      await options.store?.close?.();
    },
  };
}
