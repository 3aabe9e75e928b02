/**
 * The `node:http` edge, without building web `Request`/`Response` objects on the hot path, and `serve()`:
 * one line to put a server on a port (127.0.0.1 by default, with DNS-rebinding protection for loopback).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpHttpHandler, type McpHttpOptions, type SessionHost } from "./handler.ts";
import { headerParamsFromTools } from "./modern.ts";
import { SseStream } from "./sse.ts";
import { BodyTooLargeError, type HttpRequestIn, type HttpResponseOut } from "./types.ts";

function readLimited(req: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > limit) return Promise.reject(new BodyTooLargeError(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners("data");
        req.resume(); // drain and discard the rest
        reject(new BodyTooLargeError(limit));
      } else chunks.push(chunk);
    });
    req.on("end", () => resolve(chunks.length === 1 ? chunks[0]!.toString("utf8") : Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** A `node:http` request as an `HttpRequestIn`: a class, so serving a request allocates no closures. */
class NodeRequest implements HttpRequestIn {
  readonly method: string;
  readonly path: string;
  readonly search: string;

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

  header(name: string): string | undefined {
    const value = this.req.headers[name];
    return Array.isArray(value) ? value.join(", ") : value;
  }

  readBody(limit: number): Promise<string> {
    return readLimited(this.req, limit);
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
    const length = body ? Buffer.byteLength(body) : 0;
    res.writeHead(out.status, { ...out.headers, "content-length": String(length) });
    res.end(body);
    return;
  }
  res.writeHead(out.status, out.headers);
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
    handler.handle(fromNodeRequest(req, res)).then(
      (out) => writeNodeResponse(out, res),
      () => {
        if (!res.headersSent) res.writeHead(500).end();
      },
    );
  };
}

/** A server definition with registered tools (the runtime `Server`): lets serve() check `Mcp-Param-*` headers. */
interface WithTools {
  readonly tools?: ReadonlyMap<string, { readonly definition: { readonly name: string; readonly inputSchema: unknown } }>;
}

export interface ServeOptions extends McpHttpOptions {
  /** Default 0: a free port. */
  readonly port?: number;
  /** Default 127.0.0.1. Binding elsewhere needs `allowedHosts` for the names the server is reached by. */
  readonly hostname?: string;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly handler: McpHttpHandler;
  readonly httpServer: Server;
  close(): Promise<void>;
}

/** Tool header annotations read from the server's registered tools, per request (tools may change). */
export function headerParamsOfServer(server: WithTools): McpHttpOptions["headerParams"] {
  const tools = server.tools;
  if (!tools) return undefined;
  return (name) => {
    const tool = tools.get(name);
    return tool ? headerParamsFromTools([tool.definition])(name) : undefined;
  };
}

/** `await serve(server, { port: 3000 })` → an MCP endpoint at http://127.0.0.1:3000/mcp. */
export async function serve(server: SessionHost & WithTools, options: ServeOptions = {}): Promise<RunningServer> {
  const headerParams = options.headerParams ?? headerParamsOfServer(server);
  const handler = new McpHttpHandler(server, headerParams ? { ...options, headerParams } : options);
  const httpServer = createServer(toNodeListener(handler));
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
    close: async () => {
      await handler.close();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
