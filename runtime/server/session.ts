/**
 * One connection to a client (a stdio process, an HTTP session, or a single stateless HTTP request). A session is
 * dual-era: an `initialize` request opens the handshake era for the whole session (revision negotiated once); a
 * request whose `_meta` names a stateless revision is served on its own, from its own `_meta`, in either case.
 * The session routes each request to its revision and era once, then follows the era's strategy (`eras.ts`).
 */
import { JsonRpcEngine, type IncomingRequest, PROGRESS_NOTIFICATION } from "../protocol/engine.ts";
import { routeUtilityNotification } from "../protocol/utility-notifications.ts";
import { ErrorCode, ProtocolUsageError, RpcError } from "../jsonrpc/errors.ts";
import type { JsonRpcId } from "../jsonrpc/messages.ts";
import { describeGate, elicitationModeAllowed, hasCapability, type Capabilities } from "../protocol/capabilities.ts";
import { logLevelRank, MetaKey, metaOf, type LogLevel } from "../protocol/meta.ts";
import type { Implementation, SubscriptionFilter } from "../protocol/builtin-types.ts";
import type { AnyNotificationType, ParamsOf } from "../protocol/method-type.ts";
import type { Era, RevisionProfile } from "../protocol/profiles.ts";
import type { Transport } from "../transport/transport.ts";
import { HandlerContext, type ContextHost, type ServerSession } from "./context.ts";
import type { ListenAddition } from "./extension.ts";
import { admitRequest, methodToken, routeRequest, type SessionDefinition } from "./dispatch.ts";
import { openHandshake, serverEra, type ServerEra, type ServingPort } from "./eras.ts";
import { InFlight } from "./in-flight.ts";
import { ListenStreams } from "./listen-streams.ts";
import type { MethodImpl, MethodSession } from "./method-env.ts";
import type { Admitted, HandshakeState, RequestScope } from "./scope.ts";

type Result = Record<string, unknown>;

const ELICITATION_COMPLETE = "notifications/elicitation/complete";

/** The `ServerSession` implementation: one per connection, made by `McpServer.connect`. */
export class Session implements ServerSession, ContextHost, ServingPort, MethodSession {
  readonly engine: JsonRpcEngine;
  private opened: HandshakeState | undefined;
  private listens: ListenStreams | undefined; // made by the first subscriptions/listen: an idle session stays small
  private servedStateless = false;
  private readonly inFlight: InFlight;

  constructor(
    readonly server: SessionDefinition,
    transport: Transport,
    private readonly onEnd: () => void,
  ) {
    const diagnose = server.options.onDiagnostic;
    this.inFlight = new InFlight(server); // no closure per session
    this.engine = new JsonRpcEngine(
      transport,
      {
        onRequest: (request) => this.inFlight.run(this.onRequest, request),
        onNotification: (method, params) => this.onNotification(method, params),
        acceptsBatch: () => this.handshake?.profile.batches ?? false,
        toRpcError: (error, request) => {
          diagnose?.(
            `handler for ${request.method} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
          );
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

  /** The handshake-era revision (wire version) negotiated by `initialize`; undefined until then and for stateless use. */
  get revision(): string | undefined {
    return this.handshake?.profile.version;
  }

  /** `handshake` once initialized; `stateless` once a stateless request was served; undefined before. */
  get era(): Era | undefined {
    return this.handshake ? "handshake" : this.servedStateless ? "stateless" : undefined;
  }

  get clientInfo(): Implementation | undefined {
    return this.handshake?.clientInfo;
  }

  get clientCapabilities(): Capabilities | undefined {
    return this.handshake?.clientCapabilities;
  }

  get closed(): boolean {
    return this.engine.closed;
  }

  /** The handshake-era session state, once `initialize` opened it. */
  get handshake(): HandshakeState | undefined {
    return this.opened;
  }

  // ---- ServingPort --------------------------------------------------------------------------------------

  get sealer() {
    return this.server.sealer;
  }
  get serverInfo(): object {
    return this.server.options.info;
  }
  get cache() {
    return this.server.options.cache;
  }
  serverCapabilities(): Capabilities {
    return this.server.capabilities();
  }

  /** Ends `subscriptions/listen` streams with their graceful result; the session goes on. */
  endListens(): void {
    this.listens?.endAll();
  }

  /** Ends `subscriptions/listen` streams with their graceful result, then closes the transport. */
  async close(): Promise<void> {
    if (this.engine.closed) return;
    if (this.listens?.endAll()) {
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
   * `notifications/elicitation/complete`), or of an extension both sides declared, by token or method. Throws
   * `ProtocolUsageError` for a method the session cannot send or whose capability gate is not declared.
   */
  async notify<T extends AnyNotificationType>(
    token: T | string,
    params?: ParamsOf<T> & Readonly<Record<string, unknown>>,
  ): Promise<void> {
    const method = typeof token === "string" ? token : token.method;
    const state = this.handshake;
    const found = state ? methodToken(this.server, state.profile, method, state.clientCapabilities) : undefined;
    if (!state || !found || found.kind !== "notification" || found.direction === "clientToServer") {
      throw new ProtocolUsageError(`${method} is not a server notification of this session's revision`);
    }
    const gate = found.capability;
    if (
      gate &&
      !hasCapability(gate.side === "client" ? state.clientCapabilities : state.serverCapabilities, gate.path)
    ) {
      throw new ProtocolUsageError(`cannot send ${method}: the ${describeGate(gate)} was not declared`);
    }
    await this.engine.notify(method, params);
  }

  // ---- called by the server definition ------------------------------------------------------------------

  listChanged(kind: "tools" | "resources" | "prompts"): void {
    if (this.handshake?.initialized)
      void this.sendGated(this.handshake.profile, `notifications/${kind}/list_changed`, {});
    this.listens?.listChanged(kind);
  }

  resourceUpdated(uri: string): void {
    if (this.handshake?.subscriptions?.has(uri))
      void this.sendGated(this.handshake.profile, "notifications/resources/updated", { uri });
    this.listens?.resourceUpdated(uri);
  }

  // ---- called by method implementations ------------------------------------------------------------------

  subscribe(uri: string, limit: number): boolean {
    if (!this.handshake) return true;
    const subscriptions = (this.handshake.subscriptions ??= new Set());
    if (!subscriptions.has(uri) && subscriptions.size >= limit) return false;
    subscriptions.add(uri);
    return true;
  }

  unsubscribe(uri: string): void {
    this.handshake?.subscriptions?.delete(uri);
  }

  setLogLevel(level: unknown): void {
    if (this.handshake && logLevelRank(level) >= 0) this.handshake.logLevel = level as LogLevel;
  }

  /**
   * Opens a `subscriptions/listen` stream; resolves (graceful end) when the session closes. Each addition (an
   * extension's part of the filter) is agreed in the acknowledgement and follows this stream only, so two streams of
   * one session that follow the same thing each get it once.
   */
  listen(
    id: JsonRpcId,
    requested: SubscriptionFilter,
    signal: AbortSignal,
    profile: RevisionProfile,
    additions: readonly ListenAddition[],
  ): Promise<Result> {
    const listens = (this.listens ??= new ListenStreams((profile, method, params, related, extension) =>
      // an extension's notification goes only to the stream that agreed to it: no core capability gate applies
      extension
        ? void this.engine.notify(method, params, related).catch(() => undefined)
        : void this.sendGated(profile, method, params, undefined, related),
    ));
    const agreed = additions.length === 0 ? undefined : Object.assign({}, ...additions.map((a) => a.agreed));
    const stream = listens.open(id, requested, this.server.capabilities(), profile, signal, agreed);
    if (additions.length === 0) return stream;
    const stops = additions.map((addition) => addition.follow((method, params) => listens.sendOn(id, method, params)));
    return stream.finally(() => stops.forEach((stop) => stop()));
  }

  // ---- incoming -----------------------------------------------------------------------------------------

  private readonly onRequest = (request: IncomingRequest): Promise<Result> | Result => {
    const route = routeRequest(this.server, this.handshake, request);
    if (route === "initialize") {
      const opened = openHandshake(this.server, request);
      this.opened = opened.state;
      return opened.result;
    }
    if (route === "ping") return {}; // before anything was negotiated
    const { profile, era } = route;
    const admitted = admitRequest(this.server, this.handshake, era, profile, request);
    if (!era.rules.sessions) this.servedStateless = true;
    const scope = era.scope(this, request, profile, admitted.admitted);
    if (scope instanceof Promise) return scope.then((s) => this.run(era, request, admitted, s));
    return this.run(era, request, admitted, scope);
  };

  private run(
    era: ServerEra,
    request: IncomingRequest,
    { admitted, impl }: { admitted: Admitted; impl: MethodImpl },
    scope: RequestScope,
  ) {
    const context = new HandlerContext(request, scope, metaOf(admitted.params), this);
    const env = {
      server: this.server,
      session: this,
      profile: scope.profile,
      context,
      requestId: request.id,
      params: admitted.params,
    };
    return era.finish(this, request, admitted, scope, () => impl(env));
  }

  /** `ContextHost`: progress goes out only for a progress token, increasing, while the request runs. */
  sendProgress(context: HandlerContext, progress: number, total?: number, message?: string): Promise<void> {
    const token = context.meta?.[MetaKey.progressToken];
    if (
      (typeof token !== "string" && typeof token !== "number") ||
      progress <= context.lastProgress ||
      context.signal.aborted
    ) {
      return Promise.resolve();
    }
    context.lastProgress = progress;
    const p: Result = { progressToken: token, progress };
    if (total !== undefined) p["total"] = total;
    if (message !== undefined) p["message"] = message;
    return this.engine.notify(PROGRESS_NOTIFICATION, p, context.requestId);
  }

  /** `ContextHost`: logs at or above the scope's threshold. */
  sendLog(context: HandlerContext, level: LogLevel, data: unknown, logger?: string): Promise<void> {
    const threshold = context.scope.logThreshold;
    if (threshold === undefined || logLevelRank(level) < logLevelRank(threshold) || context.signal.aborted)
      return Promise.resolve();
    const p: Result = logger === undefined ? { level, data } : { level, logger, data };
    return this.sendGated(context.scope.profile, "notifications/message", p, context.scope, context.requestId);
  }

  /**
   * `ContextHost`: `notifications/elicitation/complete` goes out only on a session (it may follow the request's end)
   * whose revision has it (2025-11-25), to a client that declared URL mode. Related to the request: over HTTP it
   * rides the request's stream while that is open, else the session's GET stream.
   */
  async sendElicitationComplete(context: HandlerContext, elicitationId: string): Promise<boolean> {
    if (typeof elicitationId !== "string")
      throw new ProtocolUsageError("completeElicitation: elicitationId must be a string");
    const { scope } = context;
    if (!serverEra(scope.profile.era).rules.sessions || this.handshake?.profile !== scope.profile || this.engine.closed)
      return false;
    if (scope.profile.methods[ELICITATION_COMPLETE]?.kind !== "notification") return false;
    if (!elicitationModeAllowed(scope.clientCapabilities, { mode: "url" })) return false;
    await this.engine.notify(ELICITATION_COMPLETE, { elicitationId }, context.requestId);
    return true;
  }

  /** Sends a notification of `profile` when its capability gate is declared (by the request's scope, else the session's). */
  private sendGated(
    profile: RevisionProfile,
    method: string,
    params: Result,
    scope?: RequestScope,
    related?: JsonRpcId,
  ): Promise<void> {
    const token = profile.methods[method];
    if (!token || this.engine.closed) return Promise.resolve();
    const gate = token.capability;
    const serverCaps =
      scope?.serverCapabilities ??
      (this.handshake?.profile === profile ? this.handshake.serverCapabilities : this.server.capabilities());
    const clientCaps = scope?.clientCapabilities ?? this.handshake?.clientCapabilities;
    if (gate && !hasCapability(gate.side === "client" ? clientCaps : serverCaps, gate.path)) return Promise.resolve();
    return this.engine.notify(method, params, related).catch(() => undefined);
  }

  private onNotification(method: string, params: unknown): void {
    const profile = this.handshake?.profile ?? this.server.newestProfile;
    const declared =
      this.handshake?.clientCapabilities ?? ((metaOf(params)?.[MetaKey.clientCapabilities] ?? {}) as Capabilities);
    const token = methodToken(this.server, profile, method, declared);
    if (token && token.kind === "notification") {
      const parsed = token.params.safeParse(params ?? {});
      if (!parsed.success) {
        this.server.options.onDiagnostic?.(`ignored an invalid ${method} notification`);
        return;
      }
    }
    if (routeUtilityNotification(this.engine, method, (params ?? {}) as Result, "peer")) return;
    if (method === "notifications/initialized") {
      if (this.handshake) this.handshake.initialized = true;
    } else if (token?.kind === "notification" && this.server.notificationHandlerOf(method)) {
      void Promise.resolve()
        .then(() => this.server.notificationHandlerOf(method)?.(params ?? {}, this))
        .catch((error: unknown) =>
          this.server.options.onDiagnostic?.(`handler for ${method} failed: ${String(error)}`),
        );
    } else {
      this.server.options.onClientNotification?.(method, params, this);
    }
  }

  private ended(): void {
    this.listens?.clear();
    this.onEnd();
  }
}
