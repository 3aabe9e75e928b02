/**
 * The client's protocol core, internal: `McpClient` (client.ts, the public class) holds one privately and forwards to
 * it. `connect` negotiates the revision (negotiate.ts); afterwards every request is checked against the negotiated
 * method table or a negotiated extension (direction, server capability), shaped by the era's strategy (era.ts), and
 * its result validated. Methods are named by string here; the public class maps method tokens to names and types.
 */
import { JsonRpcEngine } from "../protocol/engine.ts";
import { routeUtilityNotification } from "../protocol/utility-notifications.ts";
import { ProtocolUsageError } from "../jsonrpc/errors.ts";
import { capabilityFor, describeGate, hasCapability, mergeCapabilities } from "../protocol/capabilities.ts";
import { MetaKey, withMeta } from "../protocol/meta.ts";
import type { AnyRequestType } from "../protocol/method-type.ts";
import type { Era, RevisionProfile } from "../protocol/profiles.ts";
import { rankProfiles } from "../protocol/preference.ts";
import type { ReopenableTransport, Transport } from "../transport/transport.ts";
import type { Implementation } from "../protocol/builtin-types.ts";
import { checkRounds, clientEra, type ClientEra, type InputRequired, type RequestFacts } from "./era.ts";
import { ExtensionMethods, extensionCapabilities } from "./extensions.ts";
import { HandlerRegistry, type ClientRequestContext, type RequestHandler } from "./handlers.ts";
import { fulfilInputRequests, withAnswers } from "./input-rounds.ts";
import {
  LateDiscoverAnswerError,
  negotiate,
  ProbeConnectionLostError,
  statelessMeta,
  type Negotiated,
} from "./negotiate.ts";
import type { ClientOptions } from "./options.ts";
import { answerServerRequest } from "./server-requests.ts";
import type { CallOptions } from "./tokens.ts";

interface Session extends Negotiated {
  readonly strategy: ClientEra;
}

/** How a request settles, decided by the class the connection serves (McpClient: a created task is followed). */
export type Settle = (raw: unknown, facts: RequestFacts, options: CallOptions) => unknown;

export class ClientConnection {
  private engine: JsonRpcEngine | undefined;
  private negotiated: Session | undefined;
  private readonly acceptable: RevisionProfile[];
  private readonly listeners = new Map<string, Set<(params: unknown) => void>>();
  private readonly metaByRevision = new Map<string, Record<string, unknown>>();
  private readonly handlers: HandlerRegistry;
  private readonly extensions: ExtensionMethods;
  private declared: Record<string, unknown>;

  /** `settle` turns a request's last answer into what `request` resolves to. */
  constructor(
    private readonly options: ClientOptions,
    private readonly settle: Settle,
  ) {
    this.acceptable = rankProfiles(options.revisions);
    this.handlers = HandlerRegistry.from(options.handlers ?? {});
    this.extensions = new ExtensionMethods(options.extensions ?? []);
    this.declared = this.declare();
  }

  /** What this client declares (handlers, extensions, `options.capabilities`); once connected, for its revision. */
  get capabilities(): Record<string, unknown> {
    return this.declared;
  }

  private declare(version?: string): Record<string, unknown> {
    return mergeCapabilities(
      ...this.handlers.implied,
      extensionCapabilities(this.options.extensions ?? [], version),
      this.options.capabilities,
    );
  }

  /**
   * Starts the transport and negotiates a revision. Rejects (and closes) when no revision fits. A reopenable transport
   * (stdio) whose server exits on the `server/discover` probe is started again for `initialize`.
   */
  async connect(transport: Transport, options: { readonly signal?: AbortSignal } = {}): Promise<void> {
    if (this.engine) throw new ProtocolUsageError("McpClient.connect may be called once");
    const reopen = (transport as Partial<ReopenableTransport>).reopen;
    const restartable = typeof reopen === "function";
    let negotiated: Negotiated;
    try {
      negotiated = await this.open(transport, { restartable }, options.signal);
    } catch (error) {
      const lost = error instanceof ProbeConnectionLostError;
      if (!(lost || error instanceof LateDiscoverAnswerError) || !restartable) throw error;
      const retry = lost ? "initialize" : "a server/discover probe that waits as long as any request";
      this.options.onDiagnostic?.(`${error.message}; starting it again for ${retry}`);
      const again = lost ? { skipProbe: true } : { patientProbe: true };
      negotiated = await this.open(reopen.call(transport), again, options.signal);
    }
    this.declared = this.declare(negotiated.profile.version);
    this.extensions.negotiate(negotiated.serverCapabilities, negotiated.profile.version);
    this.negotiated = { ...negotiated, strategy: clientEra(negotiated.profile.era) };
  }

  private async open(
    transport: Transport,
    how: { readonly skipProbe?: boolean; readonly patientProbe?: boolean; readonly restartable?: boolean },
    signal: AbortSignal | undefined,
  ): Promise<Negotiated> {
    const diagnose = this.options.onDiagnostic;
    const engine: JsonRpcEngine = new JsonRpcEngine(
      transport,
      {
        onRequest: (request) =>
          answerServerRequest(
            {
              profile: this.negotiated?.profile,
              acceptable: this.acceptable,
              handlers: this.handlers,
              extensions: this.extensions,
              capabilities: this.capabilities,
            },
            request,
          ),
        onNotification: (method, params) => this.receiveNotification(method, params),
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
        capabilities: (version) => this.declare(version),
        info: this.options.info,
        probeTimeoutMs:
          (how.patientProbe ? undefined : this.options.probeTimeoutMs) ??
          (transport.answersEveryRequest || how.patientProbe ? (this.options.requestTimeoutMs ?? 60_000) : 5000),
        requestTimeoutMs: this.options.requestTimeoutMs ?? 60_000,
        signal,
        skipProbe: how.skipProbe === true,
        restartable: how.restartable === true,
        onDiagnostic: diagnose,
      });
    } catch (error) {
      await engine.close().catch(() => undefined);
      throw error;
    }
  }

  /** The negotiated revision's wire version (what `initialize` and `_meta` name). */
  get revision(): string {
    return this.session().profile.version;
  }
  /** The negotiated revision's descriptor name (the `--revision` it was generated as; a built-in's is its version). */
  get revisionName(): string {
    return this.session().profile.name;
  }
  get era(): Era {
    return this.session().profile.era;
  }
  get serverCapabilities(): Readonly<Record<string, unknown>> {
    return this.session().serverCapabilities;
  }
  get serverInfo(): Implementation | undefined {
    return this.session().serverInfo;
  }
  get instructions(): string | undefined {
    return this.session().instructions;
  }

  /** Listens to a server notification that passed validation; returns a function that stops listening. */
  on(method: string, listener: (params: unknown) => void): () => void {
    let set = this.listeners.get(method);
    if (!set) this.listeners.set(method, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Answers server→client request `type` with `handler`; before `connect` (its capability gate is declared). */
  handle<T extends AnyRequestType>(type: T, handler: RequestHandler<T>): void {
    if (this.engine)
      throw new ProtocolUsageError(
        "McpClient.handle must be called before connect (capabilities are declared when connecting)",
      );
    const gate = type.capability?.side === "client" ? type.capability : undefined;
    this.handlers.add(
      type.method,
      handler as (params: unknown, context: ClientRequestContext) => unknown,
      gate ? capabilityFor(gate) : undefined,
    );
    this.declared = this.declare();
  }

  /** Sends a client→server request; resolves to what its last answer settles to (`settle`). */
  async request(method: string, params: unknown, options: CallOptions = {}): Promise<unknown> {
    const { raw, facts } = await this.exchange(method, params, options);
    return this.settle(raw, facts, options);
  }

  /** `raw` validated as the complete result of a request (`facts`) in the negotiated era. */
  completeResult(raw: unknown, facts: RequestFacts): Record<string, unknown> {
    return this.session().strategy.completeResult(raw, facts);
  }

  /** Sends a request, answering multi round-trip rounds; resolves to the server's last answer. */
  async exchange(method: string, params: unknown, options: CallOptions) {
    const { profile, strategy } = this.session();
    const facts = this.clientRequest(method);
    const original = options.meta ? withMeta(params, options.meta) : params;
    let current: unknown = original;
    for (let round = 0; ; round++) {
      const wire = strategy.wireParams(current, facts, () => this.meta(profile));
      const raw = await this.engine!.request(method, wire, options);
      const asked = strategy.inputRequired(raw, facts, profile.inputRequiredResult);
      if (!asked) return { raw, facts };
      checkRounds(method, round, this.options.maxInputRounds ?? 8);
      current = withAnswers(original, asked, await this.fulfil(asked.inputRequests ?? {}, options.signal, method));
    }
  }

  /** Sends a client→server notification the revision or a negotiated extension has, its capability gate declared. */
  async notify(method: string, params: unknown): Promise<void> {
    const { profile, serverCapabilities, strategy } = this.session();
    const core = profile.methods[method];
    const token =
      core?.kind === "notification" && core.direction !== "serverToClient"
        ? core
        : this.extensions.notification(method, "client");
    if (!token) throw this.unknownMethod(method, "notification");
    const gate = token.capability;
    if (gate && !hasCapability(gate.side === "client" ? this.capabilities : serverCapabilities, gate.path)) {
      throw new ProtocolUsageError(`cannot send ${method}: the ${describeGate(gate)} was not declared`);
    }
    await this.engine!.notify(
      method,
      strategy.notificationParams(params, () => this.meta(profile)),
    );
  }

  /** Closes the connection (for stdio: closes the server's stdin, then escalates to signals). */
  async close(): Promise<void> {
    await this.engine?.close();
  }

  // ---- internals ----------------------------------------------------------------------------------------

  private session(): Session {
    if (!this.negotiated) throw new ProtocolUsageError("the client is not connected (call connect first)");
    return this.negotiated;
  }

  /** The facts of a request this client may send now, else the ProtocolUsageError saying why not. */
  clientRequest(method: string): RequestFacts {
    const { profile, serverCapabilities } = this.session();
    const token = profile.requests.get(method);
    if (token && token.direction !== "serverToClient") {
      const gate = token.capability;
      if (gate?.side === "server" && !hasCapability(serverCapabilities, gate.path)) {
        throw new ProtocolUsageError(`cannot send ${method}: the server did not declare the ${describeGate(gate)}`);
      }
      return token;
    }
    const extension = token ? undefined : this.extensions.clientRequest(method);
    if (!extension) throw this.unknownMethod(method, "request");
    return extension;
  }

  private unknownMethod(method: string, kind: "request" | "notification"): ProtocolUsageError {
    const why = this.extensions.whyUnavailable(method);
    const revision = this.session().profile.version;
    return new ProtocolUsageError(
      `${method} is not a client ${kind} in revision ${revision}${why ? ` (${why})` : " nor in a negotiated extension"}`,
    );
  }

  /** The per-request `_meta` of the stateless era (built once per revision; never mutated). */
  private meta(profile: RevisionProfile): Record<string, unknown> {
    let meta = this.metaByRevision.get(profile.version);
    if (!meta) {
      meta = statelessMeta(profile.version, this.capabilities, this.options.info);
      if (this.options.logLevel !== undefined) meta[MetaKey.logLevel] = this.options.logLevel;
      this.metaByRevision.set(profile.version, meta);
    }
    return meta;
  }

  /** Answers input requests (a multi round-trip round, or an `input_required` task) with the client's handlers. */
  fulfil(requests: NonNullable<InputRequired["inputRequests"]>, signal: AbortSignal | undefined, method: string) {
    return fulfilInputRequests(this.session().profile, this.handlers, this.capabilities, requests, signal, method);
  }

  private receiveNotification(method: string, params: unknown): void {
    const core = this.negotiated?.profile.methods[method];
    const token = core ?? this.extensions.notification(method, "server");
    if (token?.kind === "notification" && !token.params.safeParse(params ?? {}).success) {
      this.options.onDiagnostic?.(`ignored an invalid ${method} notification`);
      return;
    }
    const cancels = this.negotiated?.strategy.serverCancels === "our-request" ? "ours" : "peer";
    // Progress is the waiting request's alone; a cancellation also reaches the application's listeners.
    if (
      this.engine &&
      routeUtilityNotification(this.engine, method, (params ?? {}) as Record<string, unknown>, cancels) === "progress"
    )
      return;
    this.options.onNotification?.(method, params);
    // Listeners get the params that were validated: an absent params object is the empty one.
    for (const listener of this.listeners.get(method) ?? []) listener(params ?? {});
  }
}
