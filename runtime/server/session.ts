/**
 * One connection to a client (a stdio process, an HTTP session, or a single stateless HTTP request). A session is
 * dual-era: an `initialize` request selects the handshake era for the whole session (revision negotiated once); a
 * request whose `_meta` names a stateless revision is served on its own, from its own `_meta`, in either case.
 */
import { JsonRpcEngine, type IncomingRequest, CANCELLED_NOTIFICATION, PROGRESS_NOTIFICATION } from "../protocol/engine.ts";
import { ErrorCode, ProtocolUsageError, RpcError } from "../jsonrpc/errors.ts";
import type { JsonRpcId } from "../jsonrpc/messages.ts";
import type { CapabilitiesObject, Implementation, SubscriptionFilter } from "../protocol/types.ts";
import { describeGate, elicitationModeAllowed, hasCapability } from "../protocol/capabilities.ts";
import { LOG_LEVELS, logLevelRank, MetaKey, metaOf, type LogLevel, type MetaObject } from "../protocol/meta.ts";
import type { Era, RequestProfile, RevisionProfile } from "../protocol/profiles.ts";
import { withRepeatedMeta } from "../protocol/repeated-meta.ts";
import { parseParams } from "../protocol/validation.ts";
import type { Transport } from "../transport/transport.ts";
import { HandlerContext, type ContextHost, type InputChannel } from "./context.ts";
import { SERVER_METHODS } from "./methods.ts";
import { ListenStreams } from "./listen-streams.ts";
import { InputRounds } from "./mrtr.ts";
import { principalOf, type RequestBinding } from "./request-state.ts";
import { HandshakeInput } from "./handshake-input.ts";
import type { McpServer } from "./server.ts";

interface HandshakeState {
  readonly profile: RevisionProfile;
  readonly clientCapabilities: CapabilitiesObject;
  /** What `initialize` declared: server→client notifications are gated on it, not on later registrations. */
  readonly serverCapabilities: CapabilitiesObject;
  readonly clientInfo: Implementation | undefined;
  initialized: boolean;
  logLevel: LogLevel | undefined;
  readonly subscriptions: Set<string>;
}

type Result = Record<string, unknown>;

/** A stateless-era request being served: what finishing it needs. */
interface StatelessCall {
  readonly request: IncomingRequest;
  readonly rp: RequestProfile;
  readonly params: Result;
  readonly rounds: InputRounds;
  readonly authenticated: boolean;
}

const ELICITATION_COMPLETE = "notifications/elicitation/complete";

const NO_ANSWERS: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/** What a `requestState` is bound to: the method, the salient params and the caller. */
function bindingOf(request: IncomingRequest, params: Result): RequestBinding {
  return { method: request.method, params, principal: principalOf(request.context?.authInfo) };
}

export class ServerSession implements ContextHost {
  private readonly engine: JsonRpcEngine;
  private readonly handshakeProfiles: readonly RevisionProfile[];
  private readonly statelessProfiles: ReadonlyMap<string, RevisionProfile>;
  private readonly handshakeByRevision: ReadonlyMap<string, RevisionProfile>;
  private handshake: HandshakeState | undefined;
  private readonly listens = new ListenStreams((profile, method, params, related) => void this.sendGated(profile, method, params, related));
  private servedStateless = false;
  /** `_meta` naming this server on stateless-era results (shared, never mutated). */
  private readonly serverInfoMeta: MetaObject;

  constructor(
    readonly server: McpServer,
    transport: Transport,
    private readonly onEnd: () => void,
  ) {
    this.serverInfoMeta = Object.freeze({ [MetaKey.serverInfo]: server.options.info });
    this.handshakeProfiles = server.handshakeProfiles;
    this.handshakeByRevision = server.handshakeByRevision;
    this.statelessProfiles = server.statelessByRevision;
    const diagnose = server.options.onDiagnostic;
    this.engine = new JsonRpcEngine(
      transport,
      {
        onRequest: (request) => this.onRequest(request),
        onNotification: (method, params) => this.onNotification(method, params),
        acceptsBatch: () => this.handshake?.profile.acceptsBatches ?? false,
        toRpcError: (error, request) => {
          diagnose?.(`handler for ${request.method} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
          return new RpcError(ErrorCode.InternalError, "Internal error");
        },
        ...(diagnose ? { onDiagnostic: diagnose } : {}),
        onClose: () => this.ended(),
      },
      server.options.requestTimeoutMs === undefined ? {} : { defaultTimeoutMs: server.options.requestTimeoutMs },
    );
  }

  start(): Promise<void> {
    return this.engine.start();
  }

  /** The handshake-era revision negotiated by `initialize`; undefined until then and for stateless use. */
  get revision(): string | undefined {
    return this.handshake?.profile.revision;
  }

  /** `handshake` once initialized; `stateless` once a stateless request was served; undefined before. */
  get era(): Era | undefined {
    return this.handshake ? "handshake" : this.servedStateless ? "stateless" : undefined;
  }

  get clientInfo(): Implementation | undefined {
    return this.handshake?.clientInfo;
  }

  get clientCapabilities(): CapabilitiesObject | undefined {
    return this.handshake?.clientCapabilities;
  }

  get closed(): boolean {
    return this.engine.closed;
  }

  /** Ends `subscriptions/listen` streams with their graceful result, then closes the transport. */
  async close(): Promise<void> {
    if (this.engine.closed) return;
    if (this.listens.size > 0) {
      this.listens.endAll();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    await this.engine.close();
  }

  /** Handshake era: checks the client is alive. */
  async ping(timeoutMs?: number): Promise<void> {
    if (!this.handshake) throw new ProtocolUsageError("ping needs a handshake-era session");
    await this.engine.request("ping", undefined, timeoutMs === undefined ? undefined : { timeoutMs });
  }

  /**
   * Handshake era: sends a server→client notification of the negotiated revision (e.g.
   * `notifications/elicitation/complete`). Throws `ProtocolUsageError` for a method the revision lacks or whose
   * capability gate is not declared.
   */
  async notify(method: string, params?: Readonly<Record<string, unknown>>): Promise<void> {
    const state = this.handshake;
    const token = state?.profile.methods[method];
    if (!state || !token || token.kind !== "notification" || token.direction === "clientToServer") {
      throw new ProtocolUsageError(`${method} is not a server notification of this session's revision`);
    }
    const gate = token.capability;
    if (gate && !hasCapability(gate.side === "client" ? state.clientCapabilities : state.serverCapabilities, gate.path)) {
      throw new ProtocolUsageError(`cannot send ${method}: the ${describeGate(gate)} was not declared`);
    }
    await this.engine.notify(method, params);
  }

  // ---- called by the server definition ------------------------------------------------------------------

  listChanged(kind: "tools" | "resources" | "prompts"): void {
    if (this.handshake?.initialized) void this.sendGated(this.handshake.profile, `notifications/${kind}/list_changed`, {});
    this.listens.listChanged(kind);
  }

  resourceUpdated(uri: string): void {
    if (this.handshake?.subscriptions.has(uri)) void this.sendGated(this.handshake.profile, "notifications/resources/updated", { uri });
    this.listens.resourceUpdated(uri);
  }

  // ---- called by method implementations ------------------------------------------------------------------

  subscribe(uri: string): void {
    this.handshake?.subscriptions.add(uri);
  }

  unsubscribe(uri: string): void {
    this.handshake?.subscriptions.delete(uri);
  }

  setLogLevel(level: unknown): void {
    if (this.handshake && logLevelRank(level) >= 0) this.handshake.logLevel = level as LogLevel;
  }

  /** Opens a `subscriptions/listen` stream; resolves (graceful end) when the session closes. */
  listen(id: JsonRpcId, requested: SubscriptionFilter, signal: AbortSignal, profile: RevisionProfile): Promise<Result> {
    return this.listens.open(id, requested, this.server.capabilities(), profile, signal);
  }

  // ---- incoming -----------------------------------------------------------------------------------------

  private onRequest(request: IncomingRequest): Promise<Result> | Result {
    const { method, params } = request;
    // A request naming its revision in `_meta` is stateless-era, `initialize` too: that era has no `initialize`
    // (its method table lacks it), so it gets -32601 there instead of starting a handshake.
    const requested = metaOf(params)?.[MetaKey.protocolVersion];
    if (typeof requested === "string" && (!this.handshake || this.statelessProfiles.has(requested))) {
      return this.serveStateless(request, requested);
    }
    if (method === "initialize" && !this.handshake) return this.initialize(request);
    if (this.handshake) return this.serveHandshake(request, this.handshake);
    if (method === "ping") return {};
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params: _meta["${MetaKey.protocolVersion}"] is required (or open a session with initialize); supported versions: ${this.server.revisions.join(", ")}`,
    );
  }

  private initialize(request: IncomingRequest): Result {
    const requested = (request.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
    const newest = this.handshakeProfiles[0];
    if (!newest) {
      throw new RpcError(ErrorCode.UnsupportedProtocolVersion, `Unsupported protocol version; this server speaks ${this.server.revisions.join(", ")} without initialize`, {
        supported: [...this.server.revisions],
        requested: typeof requested === "string" ? requested : "",
      });
    }
    const profile = (typeof requested === "string" && this.handshakeByRevision.get(requested)) || newest;
    const token = profile.requests.get("initialize")?.token;
    if (!token) throw new RpcError(ErrorCode.MethodNotFound, "Method not found: initialize");
    const params = parseParams(token.params, request.params, "initialize") as { capabilities?: CapabilitiesObject; clientInfo?: Implementation };
    const capabilities = this.server.capabilities();
    this.handshake = {
      profile,
      clientCapabilities: params.capabilities ?? {},
      serverCapabilities: capabilities,
      clientInfo: params.clientInfo,
      initialized: false,
      logLevel: undefined,
      subscriptions: new Set(),
    };
    const result: Result = { protocolVersion: profile.revision, capabilities, serverInfo: this.server.options.info };
    if (this.server.options.instructions !== undefined) result["instructions"] = this.server.options.instructions;
    return result;
  }

  private serveHandshake(request: IncomingRequest, state: HandshakeState): Promise<Result> | Result {
    if (request.method === "initialize") throw new RpcError(ErrorCode.InvalidRequest, "Invalid request: the session is already initialized");
    const { params } = this.admit(state.profile, request);
    const input = new HandshakeInput(this.engine, request, state.profile, state.clientCapabilities);
    const context = this.context(request, state.profile, params, state.clientCapabilities, state.clientInfo, state.logLevel, input);
    const env = { server: this.server, session: this, profile: state.profile, context, requestId: request.id, params };
    return SERVER_METHODS[request.method]!(env);
  }

  /** Not async: a method that answers synchronously is answered without another promise and microtask hop. */
  private serveStateless(request: IncomingRequest, version: string): Result | Promise<Result> {
    const profile = this.statelessProfiles.get(version);
    if (!profile) {
      throw new RpcError(ErrorCode.UnsupportedProtocolVersion, "Unsupported protocol version", {
        supported: [...this.server.revisions],
        requested: version,
      });
    }
    const { rp, params } = this.admit(profile, request);
    this.servedStateless = true;
    const meta = metaOf(params) ?? {};
    const clientCapabilities = (meta[MetaKey.clientCapabilities] ?? {}) as CapabilitiesObject;
    const clientInfo = meta[MetaKey.clientInfo] as Implementation | undefined;
    const logLevel = logLevelRank(meta[MetaKey.logLevel]) >= 0 ? (meta[MetaKey.logLevel] as LogLevel) : undefined;
    let answers: Record<string, unknown> = NO_ANSWERS;
    const state = params["requestState"];
    const responses = params["inputResponses"] as Record<string, unknown> | undefined;
    if (rp.inputRequired && (typeof state === "string" || responses)) {
      answers = { ...(typeof state === "string" ? this.server.sealer.open(bindingOf(request, params), state).answers : {}), ...responses };
    }
    const rounds = new InputRounds(profile, clientCapabilities, answers, rp.inputRequired);
    const context = this.context(request, profile, params, clientCapabilities, clientInfo, logLevel, rounds);
    const env = { server: this.server, session: this, profile, context, requestId: request.id, params };
    const call: StatelessCall = { request, rp, params, rounds, authenticated: context.authInfo !== undefined };
    let outcome: Result | Promise<Result>;
    try {
      outcome = SERVER_METHODS[request.method]!(env);
    } catch (error) {
      return this.statelessFailed(call, error);
    }
    if (outcome instanceof Promise) {
      return outcome.then(
        (result) => this.statelessDone(call, result),
        (error: unknown) => this.statelessFailed(call, error),
      );
    }
    return this.statelessDone(call, outcome);
  }

  /** A method that failed because it asked for input ends the round like one that returned. */
  private statelessFailed(call: StatelessCall, error: unknown): Result | Promise<Result> {
    if (call.rounds.missingCount === 0) throw error;
    return this.statelessDone(call, {});
  }

  private statelessDone(call: StatelessCall, result: Result): Result | Promise<Result> {
    if (call.rounds.missingCount > 0) return this.inputRequired(call);
    return this.completeResult(call.rp, result, call.authenticated);
  }

  private async inputRequired(call: StatelessCall): Promise<Result> {
    await new Promise((resolve) => setImmediate(resolve)); // let concurrent asks of the same round register
    const requestState = this.server.sealer.seal(bindingOf(call.request, call.params), { answers: call.rounds.answers });
    return { resultType: "input_required", inputRequests: call.rounds.missing, requestState };
  }

  /** Finds the method, validates params and checks the server capability gate. */
  private admit(profile: RevisionProfile, request: IncomingRequest): { rp: RequestProfile; params: Result } {
    const rp = profile.requests.get(request.method);
    if (!rp || rp.token.direction === "serverToClient" || !SERVER_METHODS[request.method]) {
      throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
    }
    const gate = rp.token.capability;
    if (gate?.side === "server" && !hasCapability(this.server.capabilities(), gate.path)) {
      throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${request.method} (this server does not declare ${describeGate(gate)})`);
    }
    const schema = profile.era === "stateless" ? withRepeatedMeta(rp.token.params) : rp.token.params;
    const params = parseParams(schema, request.params ?? {}, request.method) as Result;
    return { rp, params };
  }

  private completeResult(rp: RequestProfile, result: Result, authenticated: boolean): Result {
    const out: Result = Object.assign({}, result);
    if (rp.hasResultType && out["resultType"] === undefined) out["resultType"] = "complete";
    if (rp.cacheable) {
      const cache = this.server.options.cache;
      if (out["ttlMs"] === undefined) out["ttlMs"] = cache?.ttlMs ?? 0;
      if (out["cacheScope"] === undefined) out["cacheScope"] = cache?.scope ?? (authenticated ? "private" : "public");
    }
    const meta = out["_meta"] as MetaObject | undefined;
    out["_meta"] = meta === undefined ? this.serverInfoMeta : Object.assign({}, meta, this.serverInfoMeta);
    return out;
  }

  private context(
    request: IncomingRequest,
    profile: RevisionProfile,
    params: Result,
    clientCapabilities: CapabilitiesObject,
    clientInfo: Implementation | undefined,
    logLevel: LogLevel | undefined,
    input: InputChannel,
  ): HandlerContext {
    return new HandlerContext(request, profile.revision, profile.era, clientInfo, clientCapabilities, metaOf(params), logLevel, this, input);
  }

  /** `ContextHost`: progress goes out only for a progress token, increasing, while the request runs. */
  sendProgress(context: HandlerContext, progress: number, total?: number, message?: string): Promise<void> {
    const token = context.meta?.[MetaKey.progressToken];
    if ((typeof token !== "string" && typeof token !== "number") || progress <= context.lastProgress || context.signal.aborted) {
      return Promise.resolve();
    }
    context.lastProgress = progress;
    const p: Result = { progressToken: token, progress };
    if (total !== undefined) p["total"] = total;
    if (message !== undefined) p["message"] = message;
    return this.engine.notify(PROGRESS_NOTIFICATION, p, context.requestId);
  }

  /** `ContextHost`: logs at or above the requested level (stateless: only when the request asked). */
  sendLog(context: HandlerContext, level: LogLevel, data: unknown, logger?: string): Promise<void> {
    const threshold = context.era === "stateless" ? context.requestedLogLevel : (this.handshake?.logLevel ?? LOG_LEVELS[0]);
    if (threshold === undefined || logLevelRank(level) < logLevelRank(threshold) || context.signal.aborted) return Promise.resolve();
    const profile = context.era === "stateless" ? this.statelessProfiles.get(context.revision) : this.handshake?.profile;
    if (!profile) return Promise.resolve();
    const p: Result = logger === undefined ? { level, data } : { level, logger, data };
    return this.sendGated(profile, "notifications/message", p, context.requestId);
  }

  /**
   * `ContextHost`: `notifications/elicitation/complete` exists only in the handshake era (2025-11-25) and goes only to
   * a client that declared URL mode. Related to the request: over HTTP it rides the request's stream while that is
   * open, else the session's GET stream.
   */
  async sendElicitationComplete(context: HandlerContext, elicitationId: string): Promise<boolean> {
    if (typeof elicitationId !== "string") throw new ProtocolUsageError("completeElicitation: elicitationId must be a string");
    const state = this.handshake;
    if (context.era !== "handshake" || !state || this.engine.closed) return false;
    if (state.profile.methods[ELICITATION_COMPLETE]?.kind !== "notification") return false;
    if (!elicitationModeAllowed(state.clientCapabilities, { mode: "url" })) return false;
    await this.engine.notify(ELICITATION_COMPLETE, { elicitationId }, context.requestId);
    return true;
  }

  private sendGated(profile: RevisionProfile, method: string, params: Result, related?: JsonRpcId): Promise<void> {
    const token = profile.methods[method];
    if (!token || this.engine.closed) return Promise.resolve();
    const gate = token.capability;
    const serverCaps = profile.era === "handshake" ? this.handshake?.serverCapabilities : this.server.capabilities();
    const caps = gate?.side === "client" ? this.handshake?.clientCapabilities : serverCaps;
    if (gate && !hasCapability(caps, gate.path)) return Promise.resolve();
    return this.engine.notify(method, params, related).catch(() => undefined);
  }

  private onNotification(method: string, params: unknown): void {
    const profile = this.handshake?.profile ?? this.latestStateless();
    const token = profile?.methods[method];
    if (token && token.kind === "notification") {
      const parsed = token.params.safeParse(params ?? {});
      if (!parsed.success) {
        this.server.options.onDiagnostic?.(`ignored an invalid ${method} notification`);
        return;
      }
    }
    const p = (params ?? {}) as Result;
    if (method === CANCELLED_NOTIFICATION) {
      const id = p["requestId"];
      if (typeof id === "string" || typeof id === "number") this.engine.cancelIncoming(id, p["reason"] as string | undefined);
    } else if (method === PROGRESS_NOTIFICATION) {
      this.engine.deliverProgress(p["progressToken"], p as unknown as { progress: number });
    } else if (method === "notifications/initialized") {
      if (this.handshake) this.handshake.initialized = true;
    } else {
      this.server.options.onClientNotification?.(method, params, this);
    }
  }

  private latestStateless(): RevisionProfile {
    const first = this.statelessProfiles.values().next().value ?? this.handshakeProfiles[0];
    if (!first) throw new Error("no revisions configured");
    return first;
  }

  private ended(): void {
    this.listens.clear();
    this.onEnd();
  }
}
