/**
 * The MCP client: one client for servers of every revision. `connect` negotiates the revision (see negotiate.ts);
 * afterwards every request is checked against the negotiated method table (direction, server capability),
 * carries the per-request `_meta` in the stateless era, and has its result validated by the table's schema.
 * Multi round-trip results are fulfilled with the registered handlers and retried transparently.
 */
import { CANCELLED_NOTIFICATION, JsonRpcEngine, PROGRESS_NOTIFICATION, type IncomingRequest, type RequestOptions } from "../protocol/engine.ts";
import { ErrorCode, ProtocolUsageError, RequestCancelledError, RpcError } from "../jsonrpc/errors.ts";
import type { JsonRpcId } from "../jsonrpc/messages.ts";
import type {
  CallToolResult,
  CapabilitiesObject,
  CompleteParams,
  CompleteResult,
  GetPromptResult,
  Implementation,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  PromptDefinition,
  ReadResourceResult,
  ResourceDefinition,
  ResourceTemplateDefinition,
  SubscriptionFilter,
  ToolDefinition,
} from "../protocol/types.ts";
import { describeGate, elicitationModeAllowed, hasCapability, mergeCapabilities } from "../protocol/capabilities.ts";
import { MetaKey, withMeta, type LogLevel } from "../protocol/meta.ts";
import type { Era, RequestProfile, RevisionProfile } from "../protocol/profiles.ts";
import { selectProfiles } from "../protocol/registry.ts";
import { withRepeatedMeta } from "../protocol/repeated-meta.ts";
import { InvalidMessageError, parseParams, parseResult } from "../protocol/validation.ts";
import type { ReopenableTransport, Transport } from "../transport/transport.ts";
import { handlerCapabilities, handlerFor, type ClientHandlers, type ClientRequestContext } from "./handlers.ts";
import { fulfilInputRequests } from "./input-rounds.ts";
import { collectPages } from "./pagination.ts";
import { negotiate, ProbeConnectionLostError, statelessMeta, type Negotiated } from "./negotiate.ts";

export interface ClientOptions {
  readonly info: Implementation;
  /** Acceptable revisions (default: every generated revision); the newest mutually supported one is used. */
  readonly revisions?: readonly string[];
  /** Extra capabilities merged over those implied by `handlers`. */
  readonly capabilities?: CapabilitiesObject;
  readonly handlers?: ClientHandlers;
  /** Default per-request timeout (60 000 ms). */
  readonly requestTimeoutMs?: number;
  /** How long the `server/discover` probe waits before assuming a handshake-era server (default 5000 ms; over transports that answer every request, such as HTTP, the request timeout). */
  readonly probeTimeoutMs?: number;
  /** Most multi round-trip rounds for one call before giving up (default 8). */
  readonly maxInputRounds?: number;
  /** Stateless era: sent as `_meta["io.modelcontextprotocol/logLevel"]` on every request (no logs otherwise). */
  readonly logLevel?: LogLevel;
  /** Every server notification after validation (progress and cancellation are handled internally). */
  readonly onNotification?: (method: string, params: unknown) => void;
  readonly onDiagnostic?: (message: string) => void;
  /** Called when the connection closes; `error` says why when it was not `close()`. */
  readonly onClose?: (error?: Error) => void;
}

export interface CallOptions extends RequestOptions {
  /** Extra `_meta` for this request. */
  readonly meta?: Readonly<Record<string, unknown>>;
}

export interface PageParams {
  readonly cursor?: string;
  readonly [key: string]: unknown;
}

/** An open `subscriptions/listen` stream. */
export interface Subscription {
  /** The listen request's id; notifications of this stream carry it as `_meta["io.modelcontextprotocol/subscriptionId"]`. */
  readonly id: JsonRpcId;
  /** What the server agreed to send. */
  readonly filter: SubscriptionFilter;
  /** Settles when the stream ends (resolves on a graceful end or `close()`, rejects when the connection drops). */
  readonly ended: Promise<void>;
  /** Cancels the stream. */
  close(): void;
}

export class McpClient {
  private engine: JsonRpcEngine | undefined;
  private negotiated: Negotiated | undefined;
  private readonly acceptable: RevisionProfile[];
  private readonly listeners = new Map<string, Set<(params: unknown) => void>>();
  private readonly metaByRevision = new Map<string, Record<string, unknown>>();
  readonly capabilities: Record<string, unknown>;

  constructor(readonly options: ClientOptions) {
    this.acceptable = selectProfiles(options.revisions);
    this.capabilities = mergeCapabilities(handlerCapabilities(options.handlers ?? {}), options.capabilities);
  }

  /**
   * Starts the transport and negotiates a revision. Rejects (and closes) when no revision fits. A reopenable transport
   * (stdio) whose server exits on the `server/discover` probe is started again for `initialize`.
   */
  async connect(transport: Transport, options: { readonly signal?: AbortSignal } = {}): Promise<void> {
    if (this.engine) throw new ProtocolUsageError("McpClient.connect may be called once");
    try {
      this.negotiated = await this.open(transport, false, options.signal);
    } catch (error) {
      const reopen = (transport as Partial<ReopenableTransport>).reopen;
      if (!(error instanceof ProbeConnectionLostError) || typeof reopen !== "function") throw error;
      this.options.onDiagnostic?.(`${error.message}; starting it again for initialize`);
      this.negotiated = await this.open(reopen.call(transport), true, options.signal);
    }
  }

  private async open(transport: Transport, skipProbe: boolean, signal: AbortSignal | undefined): Promise<Negotiated> {
    const diagnose = this.options.onDiagnostic;
    const engine: JsonRpcEngine = new JsonRpcEngine(
      transport,
      {
        onRequest: (request) => this.onServerRequest(request),
        onNotification: (method, params) => this.onNotification(method, params),
        ...(diagnose ? { onDiagnostic: diagnose } : {}),
        // Closes during negotiation surface as connect's rejection instead.
        onClose: (error) => this.engine === engine && this.negotiated && this.options.onClose?.(error),
      },
      { defaultTimeoutMs: this.options.requestTimeoutMs ?? 60_000 },
    );
    this.engine = engine;
    await engine.start();
    try {
      return await negotiate({
        engine,
        profiles: this.acceptable,
        capabilities: this.capabilities,
        info: this.options.info,
        probeTimeoutMs: this.options.probeTimeoutMs ?? (transport.answersEveryRequest ? (this.options.requestTimeoutMs ?? 60_000) : 5000),
        requestTimeoutMs: this.options.requestTimeoutMs ?? 60_000,
        signal,
        skipProbe,
      });
    } catch (error) {
      await engine.close().catch(() => undefined);
      throw error;
    }
  }

  /** The negotiated revision. */
  get revision(): string {
    return this.session().profile.revision;
  }
  get era(): Era {
    return this.session().profile.era;
  }
  get serverCapabilities(): CapabilitiesObject {
    return this.session().serverCapabilities;
  }
  get serverInfo(): Implementation | undefined {
    return this.session().serverInfo;
  }
  get instructions(): string | undefined {
    return this.session().instructions;
  }

  /** Listens to one server notification method; returns a function that stops listening. */
  on(method: string, listener: (params: unknown) => void): () => void {
    let set = this.listeners.get(method);
    if (!set) this.listeners.set(method, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  /**
   * Sends any client→server request of the negotiated revision and returns its validated (complete) result.
   * Throws `ProtocolUsageError` before sending when the method does not exist in the revision or needs a server
   * capability that was not declared, `RpcError` for an error response, `InvalidMessageError` for a malformed result.
   */
  async request(method: string, params?: Readonly<Record<string, unknown>>, options: CallOptions = {}): Promise<Record<string, unknown>> {
    const { profile, serverCapabilities } = this.session();
    const rp = profile.requests.get(method);
    if (!rp || rp.token.direction === "serverToClient") {
      throw new ProtocolUsageError(`${method} is not a client request in revision ${profile.revision}`);
    }
    const gate = rp.token.capability;
    if (gate?.side === "server" && !hasCapability(serverCapabilities, gate.path)) {
      throw new ProtocolUsageError(`cannot send ${method}: the server did not declare the ${describeGate(gate)}`);
    }
    const original = options.meta ? withMeta(params, options.meta) : params;
    let current: unknown = original;
    const maxRounds = this.options.maxInputRounds ?? 8;
    for (let round = 0; ; round++) {
      const wire = profile.era === "stateless" ? withMeta(current, this.meta(profile)) : (current ?? (rp.token.paramsOptional ? undefined : {}));
      const raw = (await this.engine!.request(method, wire, options)) as Record<string, unknown> | undefined;
      const resultType = raw?.["resultType"];
      if (profile.era === "stateless" && resultType === "input_required" && rp.inputRequired && profile.inputRequiredResult) {
        if (round >= maxRounds) throw new ProtocolUsageError(`${method}: the server still requires input after ${maxRounds} rounds`);
        const asked = parseResult(profile.inputRequiredResult, raw, `${method} input_required result`) as InputRequired;
        current = await this.answer(profile, method, original, asked, options.signal);
        continue;
      }
      return this.checkResult(rp, profile, raw, method);
    }
  }

  /**
   * Sends a client→server notification of the negotiated revision, refusing (ProtocolUsageError) one the revision
   * does not have or whose capability gate is not declared, e.g. `notifications/roots/list_changed` needs our
   * `roots.listChanged`.
   */
  async notify(method: string, params?: Readonly<Record<string, unknown>>): Promise<void> {
    const { profile, serverCapabilities } = this.session();
    const token = profile.methods[method];
    if (!token || token.kind !== "notification" || token.direction === "serverToClient") {
      throw new ProtocolUsageError(`${method} is not a client notification in revision ${profile.revision}`);
    }
    const gate = token.capability;
    if (gate && !hasCapability(gate.side === "client" ? this.capabilities : serverCapabilities, gate.path)) {
      throw new ProtocolUsageError(`cannot send ${method}: the ${describeGate(gate)} was not declared`);
    }
    await this.engine!.notify(method, params);
  }

  /** Handshake era: tells the server the roots changed (needs `roots.listChanged`, declared when a roots handler is set). */
  notifyRootsListChanged(): Promise<void> {
    return this.notify("notifications/roots/list_changed");
  }

  // ---- typed requests ------------------------------------------------------------------------------------

  /** Handshake era only (the stateless era has no ping). */
  async ping(options?: CallOptions): Promise<void> {
    await this.request("ping", undefined, options);
  }
  /** Stateless era: the server's versions, capabilities and identity. */
  discover(options?: CallOptions): Promise<Record<string, unknown>> {
    return this.request("server/discover", {}, options);
  }
  listTools(params: PageParams = {}, options?: CallOptions): Promise<ListToolsResult> {
    return this.request("tools/list", params, options) as Promise<ListToolsResult>;
  }
  async listAllTools(options?: CallOptions): Promise<ToolDefinition[]> {
    return collectPages((p) => this.listTools(p, options), (r) => r.tools);
  }
  callTool(name: string, args?: Readonly<Record<string, unknown>>, options?: CallOptions): Promise<CallToolResult> {
    const params = args === undefined ? { name } : { name, arguments: args };
    return this.request("tools/call", params, options) as Promise<CallToolResult>;
  }
  listResources(params: PageParams = {}, options?: CallOptions): Promise<ListResourcesResult> {
    return this.request("resources/list", params, options) as Promise<ListResourcesResult>;
  }
  listAllResources(options?: CallOptions): Promise<ResourceDefinition[]> {
    return collectPages((p) => this.listResources(p, options), (r) => r.resources);
  }
  listResourceTemplates(params: PageParams = {}, options?: CallOptions): Promise<ListResourceTemplatesResult> {
    return this.request("resources/templates/list", params, options) as Promise<ListResourceTemplatesResult>;
  }
  listAllResourceTemplates(options?: CallOptions): Promise<ResourceTemplateDefinition[]> {
    return collectPages((p) => this.listResourceTemplates(p, options), (r) => r.resourceTemplates);
  }
  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    return this.request("resources/read", { uri }, options) as Promise<ReadResourceResult>;
  }
  /** Handshake era: `resources/subscribe`; updates arrive as `notifications/resources/updated` (see `on`). */
  async subscribeResource(uri: string, options?: CallOptions): Promise<void> {
    await this.request("resources/subscribe", { uri }, options);
  }
  async unsubscribeResource(uri: string, options?: CallOptions): Promise<void> {
    await this.request("resources/unsubscribe", { uri }, options);
  }
  listPrompts(params: PageParams = {}, options?: CallOptions): Promise<ListPromptsResult> {
    return this.request("prompts/list", params, options) as Promise<ListPromptsResult>;
  }
  listAllPrompts(options?: CallOptions): Promise<PromptDefinition[]> {
    return collectPages((p) => this.listPrompts(p, options), (r) => r.prompts);
  }
  getPrompt(name: string, args?: Readonly<Record<string, string>>, options?: CallOptions): Promise<GetPromptResult> {
    const params = args === undefined ? { name } : { name, arguments: args };
    return this.request("prompts/get", params, options) as Promise<GetPromptResult>;
  }
  complete(params: CompleteParams, options?: CallOptions): Promise<CompleteResult> {
    return this.request("completion/complete", params, options) as Promise<CompleteResult>;
  }
  /** Handshake era: `logging/setLevel` (the stateless era uses `ClientOptions.logLevel`). */
  async setLogLevel(level: LogLevel, options?: CallOptions): Promise<void> {
    await this.request("logging/setLevel", { level }, options);
  }

  /**
   * Stateless era: opens a `subscriptions/listen` stream and resolves once the server acknowledged it. The stream's
   * notifications reach `on(method, …)` listeners and carry `_meta["io.modelcontextprotocol/subscriptionId"]`.
   */
  listen(filter: SubscriptionFilter, options: { readonly signal?: AbortSignal } = {}): Promise<Subscription> {
    const controller = new AbortController();
    options.signal?.addEventListener("abort", () => controller.abort(options.signal?.reason), { once: true });
    let subscriptionId: JsonRpcId | undefined;
    return new Promise<Subscription>((resolve, reject) => {
      const stop = this.on("notifications/subscriptions/acknowledged", (params) => {
        const p = params as { _meta?: Record<string, unknown>; notifications: SubscriptionFilter };
        if (subscriptionId === undefined || p._meta?.[MetaKey.subscriptionId] !== subscriptionId) return;
        stop();
        resolve({ id: subscriptionId, filter: p.notifications, ended, close: () => controller.abort("unsubscribed") });
      });
      const ended = this.request("subscriptions/listen", { notifications: filter }, {
        timeoutMs: 0,
        signal: controller.signal,
        onRequestId: (id) => (subscriptionId = id),
      }).then(
        () => undefined,
        (error: unknown) => {
          stop();
          reject(error);
          // Ended by us (close) or by the server (notifications/cancelled): an ordinary end of the stream.
          if (!controller.signal.aborted && !(error instanceof RequestCancelledError)) throw error;
        },
      );
      ended.catch(() => undefined);
    });
  }

  /** Closes the connection (for stdio: closes the server's stdin, then escalates to signals). */
  async close(): Promise<void> {
    await this.engine?.close();
  }

  // ---- internals ----------------------------------------------------------------------------------------

  private session(): Negotiated {
    if (!this.negotiated) throw new ProtocolUsageError("the client is not connected (call connect first)");
    return this.negotiated;
  }

  /** The per-request `_meta` of the stateless era (built once per revision; never mutated). */
  private meta(profile: RevisionProfile): Record<string, unknown> {
    let meta = this.metaByRevision.get(profile.revision);
    if (!meta) {
      meta = statelessMeta(profile.revision, this.capabilities, this.options.info);
      if (this.options.logLevel !== undefined) meta[MetaKey.logLevel] = this.options.logLevel;
      this.metaByRevision.set(profile.revision, meta);
    }
    return meta;
  }

  private checkResult(rp: RequestProfile, profile: RevisionProfile, raw: unknown, method: string): Record<string, unknown> {
    if (profile.era === "stateless") {
      const resultType = (raw as Record<string, unknown> | undefined)?.["resultType"];
      if (resultType !== undefined && resultType !== "complete") {
        throw new InvalidMessageError(`${method} result`, [{ path: ["resultType"], message: `unknown resultType ${JSON.stringify(resultType)}` }]);
      }
      if (resultType === undefined && raw && typeof raw === "object") {
        const copy: Record<string, unknown> = Object.assign({}, raw as Record<string, unknown>);
        copy["resultType"] = "complete";
        raw = copy;
      }
    }
    const schema = profile.era === "stateless" ? withRepeatedMeta(rp.completeResult) : rp.completeResult;
    return parseResult(schema, raw, `${method} result`) as Record<string, unknown>;
  }

  private async answer(profile: RevisionProfile, method: string, original: unknown, asked: InputRequired, signal: AbortSignal | undefined) {
    const context: ClientRequestContext = { signal: signal ?? new AbortController().signal, revision: profile.revision, era: profile.era };
    const inputResponses = await fulfilInputRequests(profile, this.options.handlers ?? {}, this.capabilities, asked.inputRequests ?? {}, context, method);
    const retry: Record<string, unknown> = { ...(original as Record<string, unknown> | undefined), inputResponses };
    if (asked.requestState !== undefined) retry["requestState"] = asked.requestState;
    return retry;
  }

  private async onServerRequest(request: IncomingRequest): Promise<unknown> {
    const profile = this.negotiated?.profile ?? this.acceptable.find((p) => p.era === "handshake");
    if (request.method === "ping") return {};
    const rp = profile?.requests.get(request.method);
    const handler = handlerFor(this.options.handlers ?? {}, request.method);
    if (!profile || profile.era !== "handshake" || !rp || rp.token.direction === "clientToServer" || !handler) {
      throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
    }
    const gate = rp.token.capability;
    if (gate?.side === "client" && !hasCapability(this.capabilities, gate.path)) {
      throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${request.method} (the client did not declare ${describeGate(gate)})`);
    }
    const params = parseParams(rp.token.params, request.params ?? {}, request.method);
    // client/elicitation.mdx: a mode the client did not declare is answered with -32602.
    if (request.method === "elicitation/create" && !elicitationModeAllowed(this.capabilities, params)) {
      throw new RpcError(ErrorCode.InvalidParams, `Invalid params: elicitation mode "${(params as { mode?: string }).mode ?? "form"}" was not declared by the client`);
    }
    return handler(params, { signal: request.signal, revision: profile.revision, era: profile.era });
  }

  private onNotification(method: string, params: unknown): void {
    const p = (params ?? {}) as Record<string, unknown>;
    if (method === PROGRESS_NOTIFICATION) {
      this.engine?.deliverProgress(p["progressToken"], p as unknown as { progress: number });
      return;
    }
    if (method === CANCELLED_NOTIFICATION) {
      const id = p["requestId"] as JsonRpcId | undefined;
      const reason = p["reason"] as string | undefined;
      // Handshake era: the server cancels its own request to us. Stateless era: it ends one of our listen streams.
      if (id !== undefined && this.negotiated?.profile.era === "stateless") this.engine?.cancelOutgoing(id, reason);
      else if (id !== undefined) this.engine?.cancelIncoming(id, reason);
    }
    const token = this.negotiated?.profile.methods[method];
    if (token?.kind === "notification" && !token.params.safeParse(params ?? {}).success) {
      this.options.onDiagnostic?.(`ignored an invalid ${method} notification`);
      return;
    }
    this.options.onNotification?.(method, params);
    for (const listener of this.listeners.get(method) ?? []) listener(params);
  }
}

interface InputRequired {
  readonly inputRequests?: Readonly<Record<string, { method: string; params?: unknown }>>;
  readonly requestState?: string;
}
