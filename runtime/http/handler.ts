/**
 * The MCP endpoint over HTTP, for every revision: Streamable HTTP with sessions (2025-03-26 … 2025-11-25),
 * stateless Streamable HTTP (2026-07-28 on, and handshake-era servers run without sessions), the legacy
 * HTTP+SSE endpoints (2024-11-05), guard rails and bearer auth. It works on the small model in types.ts; see
 * web.ts and node.ts for the `Request → Response` and `node:http` edges.
 */
import type { AuthInfo, IncomingContext } from "../transport/transport.ts";
import { authenticate, toolScopeChallenge, wwwAuthenticate, type BearerAuthOptions, type Challenge } from "../auth/bearer.ts";
import { metadataDocument, metadataPath, metadataUrl } from "../auth/metadata.ts";
import { eraOf, getProfile, SUPPORTED_REVISIONS } from "../protocol/registry.ts";
import { clientKeyOf, invalidRequest, readMessage, isId, isObject, metaVersionOf, mintSessionId, principalOf, rpcError, sortMessage, type Message } from "./answers.ts";
import { isModern, statelessRevisionOf, unsupportedVersion, versionMismatch } from "./versions.ts";
import { InMemoryEventStore } from "./event-store.ts";
import type { RequestId } from "./exchange.ts";
import { accepts, acceptsJsonAndSse, checkHostAndOrigin } from "./guards.ts";
import type { LegacyPaths, McpHttpOptions, SessionHost } from "./options.ts";
import { LegacySseTransport } from "./legacy-sse.ts";
import { checkModernRequest, modernStatusOf } from "./modern.ts";
import { RequestTransport, type StatelessServeOptions } from "./request-transport.ts";
import { SessionRegistry } from "./session-registry.ts";
import { SessionTransport } from "./session-transport.ts";
import { REVISION_WITHOUT_HEADER } from "./transport-revisions.ts";
import { emptyResponse, JSON_HEADERS, jsonResponse, type HttpRequestIn, type HttpResponseOut } from "./types.ts";

export { mintSessionId, rpcError } from "./answers.ts";

/** A host whose tools carry their required scopes (the runtime `McpServer`; generated servers register the manifest's). */
interface ToolScopesHost {
  readonly tools?: ReadonlyMap<string, { readonly scopes?: readonly string[] }>;
}

export type { LegacyPaths, McpHttpOptions, SessionHost } from "./options.ts";

const DEFAULT_LEGACY_PATHS: LegacyPaths = { ssePath: "/sse", messagesPath: "/messages" };
const MAX_IDLE_STATELESS = 64;
const DEFAULT_FORWARD = ["user-agent", "x-request-id", "traceparent", "tracestate"];

export class McpHttpHandler {
  private readonly registry: SessionRegistry;
  private readonly sessions: Map<string, SessionTransport>;
  private readonly legacy: Map<string, LegacySseTransport>;
  /** Server sessions for stateless requests, idle and ready for the next one. */
  private readonly idleStateless: RequestTransport[] = [];
  private closed = false;
  private readonly forward: readonly string[];

  constructor(
    private readonly host: SessionHost,
    private readonly options: McpHttpOptions = {},
  ) {
    this.forward = options.forwardHeaders ?? DEFAULT_FORWARD;
    this.registry = new SessionRegistry({
      maxSessions: options.maxSessions ?? 10_000,
      maxPerClient: options.maxSessionsPerClient ?? 100,
      idleMs: options.sessionIdleTimeoutMs ?? 15 * 60_000,
      uninitializedMs: options.uninitializedSessionTimeoutMs ?? 30_000,
    });
    this.sessions = this.registry.sessions;
    this.legacy = this.registry.legacy;
  }

  get sessionCount(): number {
    return this.registry.size;
  }

  /** Close every session and stop the idle sweeper. */
  async close(): Promise<void> {
    this.closed = true;
    this.registry.stop();
    await Promise.all(this.idleStateless.splice(0).map((t) => t.close()));
    await Promise.all([...this.sessions.values(), ...this.legacy.values()].map((s) => s.close()));
  }

  async handle(request: HttpRequestIn): Promise<HttpResponseOut> {
    try {
      return await this.route(request);
    } catch (error) {
      this.reportError(error);
      return rpcError(500, -32603, "Internal error", null);
    }
  }

  /** Hand an error to `options.onError`; a throwing callback is not allowed to take the request path down. */
  reportError(error: unknown): void {
    try {
      this.options.onError?.(error);
    } catch {
      // the application's error callback failed; nothing more to do here
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

  private supportedVersions(): readonly string[] {
    return this.options.modernVersions ?? this.host.revisions ?? SUPPORTED_REVISIONS;
  }


  private async post(request: HttpRequestIn, authInfo: AuthInfo | undefined): Promise<HttpResponseOut> {
    if (!acceptsJsonAndSse(request.header("accept")))
      return rpcError(406, -32000, "Not Acceptable: Accept must list application/json and text/event-stream");
    const read = await readMessage(request, this.options.maxBodyBytes);
    if ("error" in read) return read.error;
    if (Array.isArray(read.body)) return this.postBatch(request, read.body, authInfo);
    const sorted = sortMessage(read.body);
    if (!sorted.ok) return jsonResponse(400, sorted.error);
    const message = sorted.message;
    const replyId = typeof message["method"] === "string" && isId(message["id"]) ? message["id"] : null;
    const version = request.header("mcp-protocol-version");
    // A version nobody knows, on a message that is not stateless-era shaped either: say so, naming ours.
    if (version !== undefined && eraOf(version) === undefined && message["method"] !== "initialize" && metaVersionOf(message) === undefined)
      return unsupportedVersion(version, replyId, this.supportedVersions());
    if (isModern(message, request)) return this.postModern(request, message, authInfo);
    if (message["method"] === "initialize" && this.options.sessions !== false) return this.initialize(request, message, authInfo);
    if (version !== undefined && eraOf(version) !== "handshake") return unsupportedVersion(version, replyId, this.supportedVersions());
    // Scopes are checked before any routing, so no path (stateless, session, batch) can skip them.
    const scope = this.toolScopeFailure([message], authInfo);
    if (scope) return scope;
    if (this.options.sessions === false) return this.serveStateless(request, message, authInfo, false, version ?? REVISION_WITHOUT_HEADER);
    const session = this.findSession(request, authInfo, replyId);
    if (!(session instanceof SessionTransport)) return session;
    const mismatch = versionMismatch(request, session, replyId, this.supportedVersions());
    if (mismatch) return mismatch;
    if (replyId !== null) {
      if (session.hasInFlight(replyId))
        return jsonResponse(400, invalidRequest(replyId, `id ${JSON.stringify(replyId)} is already in flight`));
      const requestMessage = message as Message & { id: RequestId };
      return session.post([requestMessage], [], false, this.context(request, authInfo), this.options.responseMode ?? "auto", request)!;
    }
    session.post([], [message], false, this.context(request, authInfo), this.options.responseMode ?? "auto");
    return emptyResponse(202);
  }

  /**
   * A JSON-RPC batch (2025-03-26 sessions): every element is answered on its own as JSON-RPC 2.0 §6 and stdio do;
   * an invalid element gets its -32600 in the batch answer and the valid ones still run.
   */
  private async postBatch(request: HttpRequestIn, items: readonly unknown[], authInfo: AuthInfo | undefined): Promise<HttpResponseOut> {
    if (items.length === 0) return jsonResponse(400, invalidRequest(null, "an empty batch is invalid"));
    const valid: Message[] = [];
    const errors: object[] = [];
    for (const item of items) {
      const sorted = sortMessage(item);
      if (sorted.ok) valid.push(sorted.message);
      else errors.push(sorted.error);
    }
    const stateless = statelessRevisionOf(valid, request);
    if (stateless !== undefined)
      return rpcError(400, -32600, `Invalid Request: JSON-RPC batches do not exist in MCP revision ${stateless}; send one message per POST`);
    const version = request.header("mcp-protocol-version");
    if (version !== undefined && eraOf(version) !== "handshake") return unsupportedVersion(version, null, this.supportedVersions());
    const scope = this.toolScopeFailure(valid, authInfo);
    if (scope) return scope;
    if (this.options.sessions === false) return rpcError(400, -32600, "Invalid Request: batches need a session", null);
    const session = this.findSession(request, authInfo, null);
    if (!(session instanceof SessionTransport)) return session;
    const mismatch = versionMismatch(request, session, null, this.supportedVersions());
    if (mismatch) return mismatch;
    if (!getProfile(session.protocolVersion ?? "")?.acceptsBatches)
      return rpcError(400, -32600, `Invalid Request: revision ${session.protocolVersion ?? "(none)"} has no batches`, null);
    if (valid.some((m) => m["method"] === "initialize")) return rpcError(400, -32600, "Invalid Request: initialize must not be batched", null);
    const requests: (Message & { id: RequestId })[] = [];
    const others: Message[] = [];
    const ids = new Set<RequestId>();
    for (const m of valid) {
      if (typeof m["method"] !== "string" || !isId(m["id"])) others.push(m);
      else if (session.hasInFlight(m["id"]) || ids.has(m["id"]))
        errors.push(invalidRequest(m["id"], `id ${JSON.stringify(m["id"])} is already in flight`));
      else {
        ids.add(m["id"]);
        requests.push(m as Message & { id: RequestId });
      }
    }
    const mode = this.options.responseMode ?? "auto";
    const context = this.context(request, authInfo);
    const answer = session.post(requests, others, true, context, mode, requests.length > 0 ? request : undefined, errors);
    return answer ?? emptyResponse(202);
  }

  /**
   * `initialize` opens a session, and only a successful one keeps it: the id is issued with an InitializeResult
   * and nothing else (a failed initialize is answered without `Mcp-Session-Id` and leaves nothing behind).
   */
  private async initialize(request: HttpRequestIn, message: Message, authInfo: AuthInfo | undefined): Promise<HttpResponseOut> {
    const replyId = isId(message["id"]) ? message["id"] : null;
    const client = clientKeyOf(authInfo, request.remoteAddress);
    const refused = this.registry.refusal(client);
    if (refused) return rpcError(refused.status, -32000, refused.message, replyId);
    const store = this.options.eventStore === false ? undefined : (this.options.eventStore ?? (() => new InMemoryEventStore()))();
    const session = new SessionTransport(mintSessionId(), {
      eventStore: store,
      retryMs: this.options.retryMs,
      keepAliveMs: this.options.keepAliveMs ?? 25_000,
      pollAfterMs: this.options.pollAfterMs,
      onClosed: (s) => this.registry.remove(s),
    });
    session.principal = principalOf(authInfo);
    this.registry.add(session, client);
    await this.connectOrForget(session);
    const id = message["id"] as RequestId;
    // Plain JSON, so the answer (and with it the session id header) is decided only once the outcome is known.
    const answer = await session.post([{ ...message, id }], [], false, this.context(request, authInfo), "json", request)!;
    if (session.protocolVersion !== undefined) return answer;
    await session.close();
    return { ...answer, headers: JSON_HEADERS };
  }

  /** A session whose server could not be started must not stay counted: close it (it leaves the registry) and rethrow. */
  private async connectOrForget(transport: SessionTransport | LegacySseTransport): Promise<void> {
    try {
      await this.host.connect(transport);
    } catch (error) {
      await transport.close();
      throw error;
    }
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
    return versionMismatch(request, session, null, this.supportedVersions()) ?? session.listen(request.header("last-event-id"));
  }

  private async delete(request: HttpRequestIn, authInfo: AuthInfo | undefined): Promise<HttpResponseOut> {
    if (this.options.sessions === false || request.header("mcp-session-id") === undefined)
      return emptyResponse(405, { allow: "POST" });
    const session = this.findSession(request, authInfo);
    if (!(session instanceof SessionTransport)) return session;
    const mismatch = versionMismatch(request, session, null, this.supportedVersions());
    if (mismatch) return mismatch;
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
      const own = auth.toolScopes && Object.hasOwn(auth.toolScopes, name) ? auth.toolScopes[name] : undefined;
      const scopes = own ?? (this.host as ToolScopesHost).tools?.get(name)?.scopes;
      if (!scopes || scopes.length === 0) continue;
      const challenge = toolScopeChallenge(authInfo, name, { ...auth, toolScopes: { [name]: scopes } });
      if (challenge) return this.challenge(403, challenge);
    }
    return undefined;
  }

  private async openLegacy(request: HttpRequestIn, messagesPath: string, authInfo: AuthInfo | undefined): Promise<HttpResponseOut> {
    if (!accepts(request.header("accept"), "text/event-stream"))
      return rpcError(406, -32000, "Not Acceptable: Accept must list text/event-stream");
    const client = clientKeyOf(authInfo, request.remoteAddress);
    const refused = this.registry.refusal(client);
    if (refused) return rpcError(refused.status, -32000, refused.message);
    const id = mintSessionId();
    const transport = new LegacySseTransport(id, `${messagesPath}?sessionId=${id}`, this.options.keepAliveMs ?? 25_000, (t) =>
      this.registry.removeLegacy(t),
    );
    transport.principal = principalOf(authInfo);
    this.registry.addLegacy(transport, client);
    await this.connectOrForget(transport);
    return transport.response();
  }

  private async postLegacy(request: HttpRequestIn, authInfo: AuthInfo | undefined): Promise<HttpResponseOut> {
    const id = new URLSearchParams(request.search).get("sessionId");
    const transport = id === null ? undefined : this.legacy.get(id);
    if (!transport || (transport.principal !== undefined && transport.principal !== principalOf(authInfo)))
      return rpcError(404, -32001, "Session not found");
    const read = await readMessage(request, this.options.maxBodyBytes);
    if ("error" in read) return read.error;
    // 2024-11-05 has no batches: an array is refused like any other invalid message.
    const sorted = sortMessage(read.body);
    if (!sorted.ok) return jsonResponse(400, sorted.error);
    const scope = this.toolScopeFailure([sorted.message], authInfo);
    if (scope) return scope;
    transport.receive(sorted.message, this.context(request, authInfo));
    return { status: 202, headers: { "content-type": "text/plain" }, body: "Accepted" };
  }

}
