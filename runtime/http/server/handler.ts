/**
 * The MCP endpoint over HTTP, for every revision: guard rails, bearer auth and routing, then the era's rules
 * (eras.ts): Streamable HTTP with sessions (2025-03-26 … 2025-11-25, handshake-era.ts), stateless Streamable HTTP
 * (2026-07-28 on, and handshake-era servers run without sessions; stateless-era.ts), and the legacy HTTP+SSE
 * endpoints (2024-11-05). It works on the small model in types.ts; see web.ts and node.ts for the
 * `Request → Response` and `node:http` edges. Nothing random or timed happens before the first request.
 */
import type { AuthInfo, IncomingContext } from "../../transport/transport.ts";
import { principalOf } from "../../transport/principal.ts";
import {
  authenticate,
  toolScopeChallenge,
  wwwAuthenticate,
  type BearerAuthOptions,
  type Challenge,
} from "../../auth/bearer.ts";
import { metadataDocument, metadataPath, metadataUrl } from "../../auth/metadata.ts";
import {
  clientKeyOf,
  invalidRequest,
  mintSessionId,
  readMessage,
  rpcError,
  sortMessage,
  type Posted,
  type ReadMessage,
} from "./answers.ts";
import { DEFAULT_DRAIN_MS, InFlight, type EndpointState } from "./drain.ts";
import { eraOfBatch, eraOfPost, connectOrForget, type EraCall, type EraServices, type HttpEra } from "./eras.ts";
import { retryElsewhere } from "./exchange.ts";
import { acceptsJsonAndSse, accepts, checkHostAndOrigin } from "./guards.ts";
import { HandshakeEra } from "./handshake-era.ts";
import { LegacySseTransport } from "./legacy-sse.ts";
import type { LegacyPaths, McpHttpOptions, SessionHost } from "./options.ts";
import { Probes } from "./probes.ts";
import { SessionRegistry } from "./session-registry.ts";
import { StatelessEra } from "./stateless-era.ts";
import { emptyResponse, jsonResponse, type HttpRequestIn, type HttpResponseOut } from "./types.ts";

export { mintSessionId, rpcError } from "./answers.ts";
export type { LegacyPaths, McpHttpOptions, SessionHost } from "./options.ts";
export type { DrainOptions, EndpointState } from "./drain.ts";
export type { HealthOptions } from "./probes.ts";

const DEFAULT_LEGACY_PATHS: LegacyPaths = { ssePath: "/sse", messagesPath: "/messages" };
const DEFAULT_FORWARD = ["user-agent", "x-request-id", "traceparent", "tracestate"];

export class McpHttpHandler {
  private readonly registry: SessionRegistry;
  private readonly handshake: HandshakeEra;
  private readonly stateless: StatelessEra;
  private readonly forward: readonly string[];
  private readonly probes: Probes | undefined;
  private readonly inFlight = new InFlight();
  private stateNow: EndpointState = "serving";

  constructor(
    private readonly host: SessionHost,
    private readonly options: McpHttpOptions = {},
  ) {
    if (options.store) host.shareState?.(options.store);
    this.forward = options.forwardHeaders ?? DEFAULT_FORWARD;
    this.registry = new SessionRegistry({
      maxSessions: options.maxSessions ?? 10_000,
      maxPerClient: options.maxSessionsPerClient ?? 100,
      idleMs: options.sessionIdleTimeoutMs ?? 15 * 60_000,
      uninitializedMs: options.uninitializedSessionTimeoutMs ?? 30_000,
    });
    const services: EraServices = {
      host,
      options,
      serves: this.supportedVersions,
      context: (call) => this.context(call),
      scopeFailure: (posted, authInfo) => this.toolScopeFailure(posted, authInfo),
      report: (error) => this.reportError(error),
    };
    this.handshake = new HandshakeEra(services, this.registry);
    this.stateless = new StatelessEra(services);
    if (options.health)
      this.probes = new Probes(
        options.health,
        options.store,
        () => this.stateNow,
        (e) => this.reportError(e),
      );
  }

  /** Serving; "unready" (readiness 503, still serving); "draining" (new requests refused with a retryable 503). */
  get state(): EndpointState {
    return this.stateNow;
  }

  /** Requests being answered now (an SSE answer counts until its stream ends). */
  get requestsInFlight(): number {
    return this.inFlight.size;
  }

  /** Readiness answers 503 from now on (balancers stop sending here); requests are still served. */
  unready(): void {
    if (this.stateNow === "serving") this.stateNow = "unready";
  }

  /**
   * The graceful part of a shutdown: new requests get 503 with `Retry-After`; GET, resumed and `subscriptions/listen`
   * streams end (their clients reconnect elsewhere: with a shared store their events are there); requests in flight
   * get `drainMs` to finish, and what is still unanswered then gets its retryable error. Then `close()`.
   */
  async drain(drainMs: number = DEFAULT_DRAIN_MS): Promise<void> {
    this.stateNow = "draining";
    this.handshake.endStreams();
    for (const legacy of this.registry.legacy.values()) void legacy.close();
    this.host.endListenStreams?.();
    if (await this.inFlight.idle(drainMs)) return;
    await Promise.all([this.handshake.giveUp(), this.stateless.giveUp()]);
  }

  get sessionCount(): number {
    return this.registry.size;
  }

  /** Close every session and stop the idle sweeper. */
  async close(): Promise<void> {
    this.registry.stop();
    await Promise.all([
      this.stateless.close(),
      this.handshake.close(),
      ...[...this.registry.legacy.values()].map((s) => s.close()),
    ]);
  }

  /** Not `async` (per request): a route that answers at once costs no extra promise, a pending one no extra hop. */
  handle(request: HttpRequestIn): Promise<HttpResponseOut> {
    const probe = this.probes?.answer(request);
    if (probe) return Promise.resolve(probe);
    if (this.stateNow === "draining") return Promise.resolve(retryElsewhere(null));
    this.inFlight.begin();
    let answer: HttpResponseOut | Promise<HttpResponseOut>;
    try {
      answer = this.route(request);
    } catch (error) {
      return Promise.resolve(this.failed(error));
    }
    return answer instanceof Promise
      ? answer.then(this.inFlight.settle, this.failed)
      : Promise.resolve(this.inFlight.settle(answer));
  }

  /** The 500 answer to a request whose handling threw; the error goes to `onError`. */
  private readonly failed = (error: unknown): HttpResponseOut => {
    this.inFlight.end();
    this.reportError(error);
    return rpcError(500, -32603, "Internal error", null);
  };

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
    return this.dispatch({ request, authInfo: undefined }, isLegacy ? legacy : false);
  }

  private async routeAuthenticated(
    request: HttpRequestIn,
    auth: BearerAuthOptions,
    legacy: LegacyPaths | false,
  ): Promise<HttpResponseOut> {
    const outcome = await authenticate(request, auth);
    if (!outcome.ok) return this.challenge(outcome.status, outcome.challenge);
    return this.dispatch({ request, authInfo: outcome.authInfo }, legacy);
  }

  /** `legacy`: the legacy endpoint paths when the request is for one of them, else false. */
  private dispatch(call: EraCall, legacy: LegacyPaths | false): HttpResponseOut | Promise<HttpResponseOut> {
    const { request } = call;
    if (legacy !== false) {
      if (request.method === "GET" && request.path === legacy.ssePath)
        return this.openLegacy(call, legacy.messagesPath);
      if (request.method === "POST" && request.path === legacy.messagesPath) return this.postLegacy(call);
      return emptyResponse(405, { allow: request.path === legacy.ssePath ? "GET" : "POST" });
    }
    switch (request.method) {
      case "POST":
        return this.post(call);
      // GET streams and DELETE exist only in the handshake era, on sessions.
      case "GET":
        return this.handshake.get(call);
      case "DELETE":
        return this.handshake.delete(call);
      default:
        return emptyResponse(405, { allow: "GET, POST, DELETE" });
    }
  }

  private challenge(status: 401 | 403, challenge: Challenge): HttpResponseOut {
    const url = metadataUrl(this.options.auth!.resourceMetadata.resource);
    const body = {
      error: challenge.error ?? "invalid_token",
      error_description: challenge.description ?? "authorization required",
    };
    return jsonResponse(status, body, { "www-authenticate": wwwAuthenticate(url, challenge) });
  }

  private context(call: EraCall): IncomingContext {
    const headers: Record<string, string> = {};
    for (const name of this.forward) {
      const value = call.request.header(name);
      if (value !== undefined) headers[name] = value;
    }
    return call.authInfo ? { authInfo: call.authInfo, headers } : { headers };
  }

  private eraNamed(era: HttpEra["era"]): HttpEra {
    return era === "stateless" ? this.stateless : this.handshake;
  }

  /**
   * A POST: the body is read, parsed and classified once here; the era it belongs to takes it from there. Not async:
   * one `then` on the body, and an era that answers at once adds no promise (this is per request).
   */
  private post(call: EraCall): HttpResponseOut | Promise<HttpResponseOut> {
    if (!acceptsJsonAndSse(call.request.header("accept")))
      return rpcError(406, -32000, "Not Acceptable: Accept must list application/json and text/event-stream");
    return readMessage(call.request, this.options.maxBodyBytes).then((read) => this.postRead(read, call));
  }

  private postRead(read: ReadMessage, call: EraCall): HttpResponseOut | Promise<HttpResponseOut> {
    if ("error" in read) return read.error;
    const header = call.request.header("mcp-protocol-version");
    if (Array.isArray(read.body)) {
      if (read.body.length === 0) return jsonResponse(400, invalidRequest(null, "an empty batch is invalid"));
      const valid: Posted[] = [];
      const errors: object[] = [];
      for (const item of read.body) {
        const sorted = sortMessage(item);
        if (sorted.ok) valid.push(sorted.posted);
        else errors.push(sorted.error);
      }
      return this.eraNamed(eraOfBatch(this.host.revisions, valid, header)).postBatch(valid, errors, call);
    }
    const sorted = sortMessage(read.body);
    if (!sorted.ok) return jsonResponse(400, sorted.error);
    const era = eraOfPost(sorted.posted, header, this.host.revisions, this.supportedVersions);
    if (typeof era !== "string") return era;
    return this.eraNamed(era).post(sorted.posted, call);
  }

  /** The versions named when refusing one. */
  private readonly supportedVersions = (): readonly string[] =>
    this.options.modernVersions ?? this.host.revisions.map((r) => r.version);

  private toolScopeFailure(messages: readonly Posted[], authInfo: AuthInfo | undefined): HttpResponseOut | undefined {
    const auth = this.options.auth;
    if (!auth || !authInfo) return undefined;
    for (const { method, params } of messages) {
      if (method !== "tools/call" || typeof params?.["name"] !== "string") continue;
      const name = params["name"];
      // `auth.toolScopes` wins for the tools it names; otherwise the scopes the tool was registered with.
      const own = auth.toolScopes && Object.hasOwn(auth.toolScopes, name) ? auth.toolScopes[name] : undefined;
      const scopes = own ?? this.host.tools?.get(name)?.scopes;
      if (!scopes || scopes.length === 0) continue;
      const challenge = toolScopeChallenge(authInfo, name, { ...auth, toolScopes: { [name]: scopes } });
      if (challenge) return this.challenge(403, challenge);
    }
    return undefined;
  }

  private async openLegacy(call: EraCall, messagesPath: string): Promise<HttpResponseOut> {
    const { request, authInfo } = call;
    if (!accepts(request.header("accept"), "text/event-stream"))
      return rpcError(406, -32000, "Not Acceptable: Accept must list text/event-stream");
    const client = clientKeyOf(authInfo, request.remoteAddress);
    const refused = this.registry.refusal(client);
    if (refused) return rpcError(refused.status, -32000, refused.message);
    const id = mintSessionId();
    const transport = new LegacySseTransport(
      id,
      `${messagesPath}?sessionId=${id}`,
      this.options.keepAliveMs ?? 25_000,
      (t) => this.registry.removeLegacy(t),
    );
    transport.principal = principalOf(authInfo);
    this.registry.addLegacy(transport, client);
    await connectOrForget(this.host, transport);
    return transport.response();
  }

  private async postLegacy(call: EraCall): Promise<HttpResponseOut> {
    const { request, authInfo } = call;
    const id = new URLSearchParams(request.search).get("sessionId");
    const transport = id === null ? undefined : this.registry.legacy.get(id);
    if (!transport || (transport.principal !== undefined && transport.principal !== principalOf(authInfo)))
      return rpcError(404, -32001, "Session not found");
    const read = await readMessage(request, this.options.maxBodyBytes);
    if ("error" in read) return read.error;
    // 2024-11-05 has no batches: an array is refused like any other invalid message.
    const sorted = sortMessage(read.body);
    if (!sorted.ok) return jsonResponse(400, sorted.error);
    const scope = this.toolScopeFailure([sorted.posted], authInfo);
    if (scope) return scope;
    transport.receive(sorted.posted.message, this.context(call));
    return { status: 202, headers: { "content-type": "text/plain" }, body: "Accepted" };
  }
}
