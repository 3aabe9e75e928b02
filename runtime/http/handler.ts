/**
 * The MCP endpoint over HTTP, for every revision: Streamable HTTP with sessions (2025-03-26 … 2025-11-25),
 * stateless Streamable HTTP (2026-07-28 on, and handshake-era servers run without sessions), the legacy
 * HTTP+SSE endpoints (2024-11-05), guard rails and bearer auth. It works on the small model in types.ts; see
 * web.ts and node.ts for the `Request → Response` and `node:http` edges.
 */
import { randomBytes } from "node:crypto";
import type { AuthInfo, IncomingContext, Transport } from "../transport/transport.ts";
import { authenticate, toolScopeChallenge, wwwAuthenticate, type BearerAuthOptions, type Challenge } from "../auth/bearer.ts";
import { metadataDocument, metadataPath, metadataUrl } from "../auth/metadata.ts";
import { eraOf, getProfile } from "../session/registry.ts";
import { InMemoryEventStore, type EventStore } from "./event-store.ts";
import type { ResponseMode, RequestId } from "./exchange.ts";
import { accepts, acceptsJsonAndSse, checkHostAndOrigin, isJsonContentType, type HostGuardOptions } from "./guards.ts";
import { LegacySseTransport } from "./legacy-sse.ts";
import { checkModernRequest, modernStatusOf, type HeaderParamsLookup } from "./modern.ts";
import { RequestTransport, type StatelessServeOptions } from "./request-transport.ts";
import { SessionTransport } from "./session-transport.ts";
import { REVISION_WITHOUT_HEADER } from "./transport-revisions.ts";
import { BodyTooLargeError, emptyResponse, jsonResponse, type HttpRequestIn, type HttpResponseOut } from "./types.ts";

/** What the HTTP layer needs from an MCP server: start a server-side session on a transport. */
export interface SessionHost {
  connect(transport: Transport): Promise<unknown> | unknown;
}

/** A host whose tools carry their required scopes (the runtime `McpServer`; generated servers register the manifest's). */
interface ToolScopesHost {
  readonly tools?: ReadonlyMap<string, { readonly scopes?: readonly string[] }>;
}

export interface McpHttpOptions extends HostGuardOptions {
  /** The MCP endpoint path. Default "/mcp". `null`: every path not claimed by another route. */
  readonly path?: string | null;
  /** Handshake era: mint `Mcp-Session-Id`s (default true). `false` serves every POST statelessly. */
  readonly sessions?: boolean;
  /** "auto" (default): plain JSON unless something is sent before the response; "sse"; "json". */
  readonly responseMode?: ResponseMode;
  /** Default 4 MiB; larger bodies get 413. */
  readonly maxBodyBytes?: number;
  /** Resumability store per session (default: in memory, bounded); `false` disables event ids. */
  readonly eventStore?: false | (() => EventStore);
  /** Sent as the SSE `retry` field with the priming event. */
  readonly retryMs?: number;
  /**
   * SSE polling (2025-11-25 sessions): close a POST's SSE connection this long after it opened when the response
   * is not there yet; the client comes back with GET + Last-Event-ID (after `retryMs`) for the rest. For proxies
   * and load balancers that cut long requests. Default: off.
   */
  readonly pollAfterMs?: number;
  /** Sessions idle (no open stream, nothing in flight) this long are closed. Default 15 minutes. */
  readonly sessionIdleTimeoutMs?: number;
  /** Default 10,000; beyond it new sessions get 503. */
  readonly maxSessions?: number;
  /** SSE keep-alive comment interval. Default 25 s; 0 disables. */
  readonly keepAliveMs?: number;
  /** Request headers (lower-case) copied into every handler's context. Default: user-agent, x-request-id, traceparent, tracestate. */
  readonly forwardHeaders?: readonly string[];
  /** Bearer auth as an OAuth resource server. */
  readonly auth?: BearerAuthOptions;
  /** Legacy HTTP+SSE endpoints (default on, at /sse and /messages); `false` disables them. */
  readonly legacySse?: false | LegacyPaths;
  /** Stateless era: a tool's `x-mcp-header` annotations, to check `Mcp-Param-*` headers. */
  readonly headerParams?: HeaderParamsLookup;
  /** Stateless-era versions this server speaks; others get -32022. Default: left to the server. */
  readonly modernVersions?: readonly string[];
  readonly onError?: (error: unknown) => void;
}

export interface LegacyPaths {
  readonly ssePath: string;
  readonly messagesPath: string;
}

const DEFAULT_LEGACY_PATHS: LegacyPaths = { ssePath: "/sse", messagesPath: "/messages" };
const MAX_IDLE_STATELESS = 64;
const DEFAULT_FORWARD = ["user-agent", "x-request-id", "traceparent", "tracestate"];

/** A JSON-RPC error as an HTTP answer. It always carries `id`: the request's when known, else null (JSON-RPC 2.0 §5). */
export function rpcError(status: number, code: number, message: string, id: RequestId | null = null, data?: unknown): HttpResponseOut {
  const error = data === undefined ? { code, message } : { code, message, data };
  return jsonResponse(status, { jsonrpc: "2.0", id, error });
}

/** A session id: 24 bytes (192 bits) from the CSPRNG as base64url, i.e. 32 visible ASCII characters. */
export function mintSessionId(): string {
  return randomBytes(24).toString("base64url");
}

type Message = Record<string, unknown>;
const isObject = (v: unknown): v is Message => typeof v === "object" && v !== null && !Array.isArray(v);
const isId = (v: unknown): v is RequestId => typeof v === "string" || (typeof v === "number" && Number.isInteger(v));

function validShape(m: unknown): m is Message {
  if (!isObject(m) || m["jsonrpc"] !== "2.0") return false;
  if (typeof m["method"] === "string") return m["id"] === undefined || isId(m["id"]);
  return (isId(m["id"]) || m["id"] === null) && ("result" in m || "error" in m);
}

export class McpHttpHandler {
  private readonly sessions = new Map<string, SessionTransport>();
  private readonly legacy = new Map<string, LegacySseTransport>();
  /** Server sessions for stateless requests, idle and ready for the next one. */
  private readonly idleStateless: RequestTransport[] = [];
  private closed = false;
  private readonly sweeper: ReturnType<typeof setInterval>;
  private readonly forward: readonly string[];

  constructor(
    private readonly host: SessionHost,
    private readonly options: McpHttpOptions = {},
  ) {
    this.forward = options.forwardHeaders ?? DEFAULT_FORWARD;
    const idle = options.sessionIdleTimeoutMs ?? 15 * 60_000;
    this.sweeper = setInterval(() => this.sweep(idle), Math.min(Math.max(idle / 2, 10), 60_000));
    this.sweeper.unref?.();
  }

  get sessionCount(): number {
    return this.sessions.size + this.legacy.size;
  }

  /** Close every session and stop the idle sweeper. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    await Promise.all(this.idleStateless.splice(0).map((t) => t.close()));
    await Promise.all([...this.sessions.values(), ...this.legacy.values()].map((s) => s.close()));
  }

  async handle(request: HttpRequestIn): Promise<HttpResponseOut> {
    try {
      return await this.route(request);
    } catch (error) {
      this.options.onError?.(error);
      return rpcError(500, -32603, "Internal error", null);
    }
  }

  /** Not `async` (per request): only bearer auth needs to wait before dispatching. */
  private route(request: HttpRequestIn): HttpResponseOut | Promise<HttpResponseOut> {
    const refused = checkHostAndOrigin(request, this.options);
    if (refused) return rpcError(403, -32000, `Forbidden: ${refused}`);
    const auth = this.options.auth;
    if (auth && request.method === "GET" && request.path === metadataPath(auth.resourceMetadata.resource))
      return jsonResponse(200, metadataDocument(auth.resourceMetadata), { "access-control-allow-origin": "*" });
    const legacy = this.options.legacySse ?? DEFAULT_LEGACY_PATHS;
    const mcpPath = this.options.path === undefined ? "/mcp" : this.options.path;
    const isLegacy = legacy !== false && (request.path === legacy.ssePath || request.path === legacy.messagesPath);
    if (!isLegacy && mcpPath !== null && request.path !== mcpPath) return rpcError(404, -32000, "Not found");
    if (auth) return this.routeAuthenticated(request, auth, isLegacy ? legacy : false);
    return this.dispatch(request, undefined, isLegacy ? legacy : false);
  }

  private async routeAuthenticated(request: HttpRequestIn, auth: BearerAuthOptions, legacy: LegacyPaths | false): Promise<HttpResponseOut> {
    const outcome = await authenticate(request, auth);
    if (!outcome.ok) return this.challenge(outcome.status, outcome.challenge);
    return this.dispatch(request, outcome.authInfo, legacy);
  }

  /** `legacy`: the legacy endpoint paths when the request is for one of them, else false. */
  private dispatch(request: HttpRequestIn, authInfo: AuthInfo | undefined, legacy: LegacyPaths | false): HttpResponseOut | Promise<HttpResponseOut> {
    if (legacy !== false) {
      if (request.method === "GET" && request.path === legacy.ssePath) return this.openLegacy(request, legacy.messagesPath, authInfo);
      if (request.method === "POST" && request.path === legacy.messagesPath) return this.postLegacy(request, authInfo);
      return emptyResponse(405, { allow: request.path === legacy.ssePath ? "GET" : "POST" });
    }
    switch (request.method) {
      case "POST":
        return this.post(request, authInfo);
      case "GET":
        return this.get(request, authInfo);
      case "DELETE":
        return this.delete(request, authInfo);
      default:
        return emptyResponse(405, { allow: "GET, POST, DELETE" });
    }
  }

  private challenge(status: 401 | 403, challenge: Challenge): HttpResponseOut {
    const url = metadataUrl(this.options.auth!.resourceMetadata.resource);
    const body = { error: challenge.error ?? "invalid_token", error_description: challenge.description ?? "authorization required" };
    return jsonResponse(status, body, { "www-authenticate": wwwAuthenticate(url, challenge) });
  }

  private context(request: HttpRequestIn, authInfo: AuthInfo | undefined): IncomingContext {
    const headers: Record<string, string> = {};
    for (const name of this.forward) {
      const value = request.header(name);
      if (value !== undefined) headers[name] = value;
    }
    return authInfo ? { authInfo, headers } : { headers };
  }

  private async readMessage(request: HttpRequestIn): Promise<{ body: unknown } | { error: HttpResponseOut }> {
    if (!isJsonContentType(request.header("content-type")))
      return { error: rpcError(415, -32000, "Unsupported Media Type: Content-Type must be application/json") };
    let text: string;
    try {
      text = await request.readBody(this.options.maxBodyBytes ?? 4 * 1024 * 1024);
    } catch (error) {
      if (error instanceof BodyTooLargeError) return { error: rpcError(413, -32000, `Payload Too Large: ${error.message}`) };
      throw error;
    }
    try {
      return { body: JSON.parse(text) };
    } catch {
      return { error: rpcError(400, -32700, "Parse error: the body is not valid JSON", null) };
    }
  }

  private async post(request: HttpRequestIn, authInfo: AuthInfo | undefined): Promise<HttpResponseOut> {
    if (!acceptsJsonAndSse(request.header("accept")))
      return rpcError(406, -32000, "Not Acceptable: Accept must list application/json and text/event-stream");
    const read = await this.readMessage(request);
    if ("error" in read) return read.error;
    const body = read.body;
    const batch = Array.isArray(body);
    const messages: unknown[] = batch ? body : [body];
    if (messages.length === 0 || !messages.every(validShape))
      return rpcError(400, -32600, "Invalid Request: not a JSON-RPC 2.0 message", null);
    const valid = messages as Message[];
    const first = valid[0]!;
    if (!batch && this.isModern(first, request)) return this.postModern(request, first, authInfo);
    if (!batch && first["method"] === "initialize" && this.options.sessions !== false)
      return this.initialize(request, first, authInfo);
    const statelessBatch = batch ? this.statelessRevisionOf(valid, request) : undefined;
    if (statelessBatch !== undefined)
      return rpcError(400, -32600, `Invalid Request: JSON-RPC batches do not exist in MCP revision ${statelessBatch}; send one message per POST`);
    const replyId = !batch && isId(first["id"]) ? first["id"] : null;
    const version = request.header("mcp-protocol-version");
    if (version !== undefined && eraOf(version) !== "handshake")
      return rpcError(400, -32000, `Bad Request: unsupported MCP-Protocol-Version ${version}`, replyId);
    // Scopes are checked before any routing, so no path (stateless, session, batch) can skip them.
    const scope = this.toolScopeFailure(valid, authInfo);
    if (scope) return scope;
    if (this.options.sessions === false) {
      if (batch) return rpcError(400, -32600, "Invalid Request: batches need a session", null);
      return this.serveStateless(request, first, authInfo, false, version ?? REVISION_WITHOUT_HEADER);
    }
    const session = this.findSession(request, authInfo, replyId);
    if (!(session instanceof SessionTransport)) return session;
    if (batch) {
      if (!getProfile(session.protocolVersion ?? "")?.acceptsBatches)
        return rpcError(400, -32600, `Invalid Request: revision ${session.protocolVersion ?? "(none)"} has no batches`, null);
      if (valid.some((m) => m["method"] === "initialize")) return rpcError(400, -32600, "Invalid Request: initialize must not be batched", null);
    }
    const requests: (Message & { id: RequestId })[] = [];
    const others: Message[] = [];
    for (const m of valid) {
      if (typeof m["method"] === "string" && isId(m["id"])) requests.push(m as Message & { id: RequestId });
      else others.push(m);
    }
    for (const m of requests)
      if (session.hasInFlight(m.id)) return rpcError(400, -32600, "Invalid Request: a request with this id is already in flight", null);
    const mode = this.options.responseMode ?? "auto";
    const answer = session.post(requests, others, batch, this.context(request, authInfo), mode, requests.length > 0 ? request : undefined);
    return answer ?? emptyResponse(202);
  }

  /** A request of the stateless era: it names its version in `_meta` (even `initialize`, which that era lacks → 404). */
  private isModern(message: Message, request: HttpRequestIn): boolean {
    const params = message["params"];
    const meta = isObject(params) ? params["_meta"] : undefined;
    if (isObject(meta) && typeof meta["io.modelcontextprotocol/protocolVersion"] === "string") return true;
    if (message["method"] === "initialize") return false;
    const header = request.header("mcp-protocol-version");
    // A version this runtime does not know is treated as a newer stateless one (the server answers -32022).
    return header !== undefined && eraOf(header) !== "handshake";
  }

  /** The stateless-era (or newer, unknown) revision a batch names in `_meta`, or a known stateless-era header. */
  private statelessRevisionOf(messages: readonly Message[], request: HttpRequestIn): string | undefined {
    for (const m of messages) {
      const params = m["params"];
      const meta = isObject(params) ? params["_meta"] : undefined;
      const version = isObject(meta) ? meta["io.modelcontextprotocol/protocolVersion"] : undefined;
      if (typeof version === "string" && eraOf(version) !== "handshake") return version;
    }
    const header = request.header("mcp-protocol-version");
    return header !== undefined && eraOf(header) === "stateless" ? header : undefined;
  }

  private async initialize(request: HttpRequestIn, message: Message, authInfo: AuthInfo | undefined): Promise<HttpResponseOut> {
    if (this.sessionCount >= (this.options.maxSessions ?? 10_000))
      return rpcError(503, -32000, "Service Unavailable: too many sessions", isId(message["id"]) ? message["id"] : null);
    const store = this.options.eventStore === false ? undefined : (this.options.eventStore ?? (() => new InMemoryEventStore()))();
    const session = new SessionTransport(mintSessionId(), {
      eventStore: store,
      retryMs: this.options.retryMs,
      keepAliveMs: this.options.keepAliveMs ?? 25_000,
      pollAfterMs: this.options.pollAfterMs,
      onClosed: (s) => this.sessions.delete(s.sessionId),
    });
    session.principal = principalOf(authInfo);
    this.sessions.set(session.sessionId, session);
    await this.host.connect(session);
    const id = message["id"] as RequestId;
    return session.post([{ ...message, id }], [], false, this.context(request, authInfo), this.options.responseMode ?? "auto", request)!;
  }

  /** The request's session, or the error answer (carrying `replyId`, the id of the request being refused). */
  private findSession(request: HttpRequestIn, authInfo: AuthInfo | undefined, replyId: RequestId | null = null): SessionTransport | HttpResponseOut {
    const id = request.header("mcp-session-id");
    if (id === undefined) return rpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required", replyId);
    const session = this.sessions.get(id);
    // A session bound to one principal is invisible to another (no session hijacking with a stolen id).
    if (!session || session.isClosed || (session.principal !== undefined && session.principal !== principalOf(authInfo)))
      return rpcError(404, -32001, "Session not found", replyId);
    return session;
  }

  private async get(request: HttpRequestIn, authInfo: AuthInfo | undefined): Promise<HttpResponseOut> {
    if (this.options.sessions === false || request.header("mcp-session-id") === undefined)
      return emptyResponse(405, { allow: "POST" });
    if (!accepts(request.header("accept"), "text/event-stream"))
      return rpcError(406, -32000, "Not Acceptable: Accept must list text/event-stream");
    const session = this.findSession(request, authInfo);
    if (!(session instanceof SessionTransport)) return session;
    return session.listen(request.header("last-event-id"));
  }

  private async delete(request: HttpRequestIn, authInfo: AuthInfo | undefined): Promise<HttpResponseOut> {
    if (this.options.sessions === false || request.header("mcp-session-id") === undefined)
      return emptyResponse(405, { allow: "POST" });
    const session = this.findSession(request, authInfo);
    if (!(session instanceof SessionTransport)) return session;
    await session.close();
    return emptyResponse(200);
  }

  /** Not `async`: per request, so no extra promise; the caller awaits whatever this returns. */
  private postModern(request: HttpRequestIn, message: Message, authInfo: AuthInfo | undefined): HttpResponseOut | Promise<HttpResponseOut> {
    const failure = checkModernRequest(request, message, this.options.headerParams, this.options.modernVersions);
    if (failure) return failure;
    const scope = this.toolScopeFailure([message], authInfo);
    if (scope) return scope;
    return this.serveStateless(request, message, authInfo, true);
  }

  private serveStateless(
    request: HttpRequestIn,
    message: Message,
    authInfo: AuthInfo | undefined,
    modern: boolean,
    handshakeRevision?: string,
  ): HttpResponseOut | Promise<HttpResponseOut> {
    if (!modern && typeof message["method"] !== "string") return emptyResponse(202); // a response with nobody waiting
    const id = typeof message["method"] === "string" && isId(message["id"]) ? message["id"] : undefined;
    const options: StatelessServeOptions = {
      mode: this.options.responseMode ?? "auto",
      keepAliveMs: this.options.keepAliveMs ?? 25_000,
      cancelOnClose: modern,
      statusOf: modern ? modernStatusOf : undefined,
      handshakeRevision,
    };
    const context = this.context(request, authInfo);
    // Stateless-era server sessions keep nothing between requests, so an idle one serves the next POST; a
    // handshake-era one (sessions: false) has replayed an initialize at one revision and is used once.
    const idle = modern ? this.idleStateless.pop() : undefined;
    if (idle) return idle.run(message, id, options, context, request);
    const transport = new RequestTransport(modern ? (t) => this.parkStateless(t) : undefined);
    return Promise.resolve(this.host.connect(transport)).then(() => transport.run(message, id, options, context, request));
  }

  private parkStateless(transport: RequestTransport): void {
    if (this.idleStateless.length < MAX_IDLE_STATELESS && !this.closed) this.idleStateless.push(transport);
    else void transport.close();
  }

  private toolScopeFailure(messages: readonly Message[], authInfo: AuthInfo | undefined): HttpResponseOut | undefined {
    const auth = this.options.auth;
    if (!auth || !authInfo) return undefined;
    for (const m of messages) {
      const params = m["params"];
      if (m["method"] !== "tools/call" || !isObject(params) || typeof params["name"] !== "string") continue;
      const name = params["name"];
      // `auth.toolScopes` wins for the tools it names; otherwise the scopes the tool was registered with.
      const scopes = auth.toolScopes?.[name] ?? (this.host as ToolScopesHost).tools?.get(name)?.scopes;
      if (!scopes || scopes.length === 0) continue;
      const challenge = toolScopeChallenge(authInfo, name, { ...auth, toolScopes: { [name]: scopes } });
      if (challenge) return this.challenge(403, challenge);
    }
    return undefined;
  }

  private async openLegacy(request: HttpRequestIn, messagesPath: string, authInfo: AuthInfo | undefined): Promise<HttpResponseOut> {
    if (!accepts(request.header("accept"), "text/event-stream"))
      return rpcError(406, -32000, "Not Acceptable: Accept must list text/event-stream");
    if (this.sessionCount >= (this.options.maxSessions ?? 10_000)) return rpcError(503, -32000, "Service Unavailable: too many sessions");
    const id = mintSessionId();
    const transport = new LegacySseTransport(id, `${messagesPath}?sessionId=${id}`, this.options.keepAliveMs ?? 25_000, (t) =>
      this.legacy.delete(t.sessionId),
    );
    transport.principal = principalOf(authInfo);
    this.legacy.set(id, transport);
    await this.host.connect(transport);
    return transport.response();
  }

  private async postLegacy(request: HttpRequestIn, authInfo: AuthInfo | undefined): Promise<HttpResponseOut> {
    const id = new URLSearchParams(request.search).get("sessionId");
    const transport = id === null ? undefined : this.legacy.get(id);
    if (!transport || (transport.principal !== undefined && transport.principal !== principalOf(authInfo)))
      return rpcError(404, -32001, "Session not found");
    const read = await this.readMessage(request);
    if ("error" in read) return read.error;
    if (!validShape(read.body)) return rpcError(400, -32600, "Invalid Request: not a JSON-RPC 2.0 message", null);
    const scope = this.toolScopeFailure([read.body], authInfo);
    if (scope) return scope;
    transport.receive(read.body, this.context(request, authInfo));
    return { status: 202, headers: { "content-type": "text/plain" }, body: "Accepted" };
  }

  private sweep(idleMs: number): void {
    const cutoff = Date.now() - idleMs;
    for (const session of this.sessions.values()) if (!session.busy && session.lastActive < cutoff) void session.close();
  }
}

function principalOf(authInfo: AuthInfo | undefined): string | undefined {
  if (!authInfo) return undefined;
  const sub = authInfo.claims?.["sub"];
  return typeof sub === "string" ? `sub:${sub}` : authInfo.clientId !== undefined ? `client:${authInfo.clientId}` : undefined;
}
