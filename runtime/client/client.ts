/**
 * `McpClient`, the public client class: one client for servers of every revision. Requests, notifications and
 * server→client handlers typed by method token, and the convenience methods (`callTool`, `listTools`, …), whose
 * results are typed as any built-in revision defines them (the unions of `protocol/builtin-types.ts`, what generated
 * clients and users import); `request(methods["tools/call"], …)` types a result exactly as one revision defines it.
 * The protocol core (negotiation, routing, eras, extensions) is the `ClientConnection` it holds privately
 * (connection.ts), so none of it is public API.
 */
import type { LogLevel } from "../protocol/meta.ts";
import type {
  BuiltinResult,
  BuiltinToken,
  CallToolResult,
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
} from "../protocol/builtin-types.ts";
import type { AnyNotificationType, AnyRequestType, CompleteResultOf, Era, ParamsOf } from "../protocol/method-type.ts";
import type { Transport } from "../transport/transport.ts";
import { ClientConnection } from "./connection.ts";
import type { RequestHandler } from "./handlers.ts";
import type { ClientOptions } from "./options.ts";
import { collectPages } from "./pagination.ts";
import { openSubscription, type Subscription } from "./subscriptions.ts";
import type { RequestFacts } from "./era.ts";
import type { ClientExtension, ClientFeature, FeatureClient } from "./extensions.ts";
import { ProtocolUsageError } from "../jsonrpc/errors.ts";
import type { CallerParamsOf, CallOptions, NotificationArgs, RequestArgs } from "./tokens.ts";

export type { ClientOptions } from "./options.ts";
export type { Subscription } from "./subscriptions.ts";
export type { CallOptions } from "./tokens.ts";

export interface PageParams {
  readonly cursor?: string;
}

/** What each convenience method resolves to: the method's complete result in any built-in revision. */
interface ConvenienceResults {
  readonly ping: unknown;
  readonly "server/discover": BuiltinResult<"server/discover">;
  readonly "tools/list": ListToolsResult;
  readonly "tools/call": CallToolResult;
  readonly "resources/list": ListResourcesResult;
  readonly "resources/templates/list": ListResourceTemplatesResult;
  readonly "resources/read": ReadResourceResult;
  readonly "resources/subscribe": unknown;
  readonly "resources/unsubscribe": unknown;
  readonly "prompts/list": ListPromptsResult;
  readonly "prompts/get": GetPromptResult;
  readonly "completion/complete": CompleteResult;
  readonly "logging/setLevel": unknown;
  readonly "subscriptions/listen": unknown;
}

/**
 * The client, given its revisions as values (`ClientOptions.revisions`, e.g. `builtinRevisions`): code built on it
 * bundles the bindings of those revisions and no others.
 */
export class McpClient {
  readonly #connection: ClientConnection;
  /** What the declared extensions do here (`ClientExtension.attach`), by extension id. */
  readonly #features = new Map<string, ClientFeature>();

  constructor(options: ClientOptions) {
    // An answer a feature settles (e.g. a created task, followed to its end) resolves to what the feature says.
    const features = this.#features;
    const connection: ClientConnection = new ClientConnection(options, (raw, facts, call): unknown => {
      if (features.size > 0)
        for (const feature of features.values()) {
          const settled = feature.settle?.(raw, facts, call);
          if (settled) return settled;
        }
      return connection.completeResult(raw, facts);
    });
    this.#connection = connection;
    const lent = featureClient(connection);
    for (const extension of options.extensions ?? []) {
      const feature = extension.attach?.(lent);
      if (feature) features.set(extension.id, feature);
    }
  }

  /**
   * The typed API of a declared extension (`ClientFeature.api` of the extension with the same id, e.g.
   * `client.extension(notes)`). Throws `ProtocolUsageError` when `ClientOptions.extensions` does not list it.
   */
  extension<Api>(extension: ClientExtension<Api>): Api {
    const api = this.#features.get(extension.id)?.api;
    if (api === undefined)
      throw new ProtocolUsageError(
        `extension ${extension.id} is not declared with an API here: list it in ClientOptions.extensions`,
      );
    return api as Api;
  }

  /** What this client declares (handlers, extensions, `options.capabilities`); once connected, for its revision. */
  get capabilities(): Record<string, unknown> {
    return this.#connection.capabilities;
  }

  /**
   * Starts the transport and negotiates a revision. Rejects (and closes) when no revision fits. A reopenable transport
   * (stdio) whose server exits on the `server/discover` probe is started again for `initialize`.
   */
  connect(transport: Transport, options: { readonly signal?: AbortSignal } = {}): Promise<void> {
    return this.#connection.connect(transport, options);
  }

  /** The negotiated revision's wire version (what `initialize` and `_meta` name). */
  get revision(): string {
    return this.#connection.revision;
  }
  /** The negotiated revision's descriptor name (the `--revision` it was generated as; a built-in's is its version). */
  get revisionName(): string {
    return this.#connection.revisionName;
  }
  get era(): Era {
    return this.#connection.era;
  }
  get serverCapabilities(): Readonly<Record<string, unknown>> {
    return this.#connection.serverCapabilities;
  }
  get serverInfo(): Implementation | undefined {
    return this.#connection.serverInfo;
  }
  get instructions(): string | undefined {
    return this.#connection.instructions;
  }

  /**
   * Listens to a server notification, by token (params typed) or method name; returns a function that stops
   * listening. Only notifications that passed validation reach listeners.
   */
  on<T extends AnyNotificationType>(type: T, listener: (params: ParamsOf<T>) => void): () => void;
  on(method: string, listener: (params: unknown) => void): () => void;
  on(type: string | AnyNotificationType, listener: (params: never) => void): () => void {
    return this.#connection.on(typeof type === "string" ? type : type.method, listener as (params: unknown) => void);
  }

  /**
   * Answers server→client request `type` (a core method such as `roots/list`, or an extension's) with `handler`.
   * Register before `connect`: the capability the method is gated on is declared for it.
   */
  handle<T extends AnyRequestType>(type: T, handler: RequestHandler<T>): this {
    this.#connection.handle(type, handler);
    return this;
  }

  /**
   * Sends a client→server request and returns its validated complete result, typed by the token (`request(method,
   * …)` with a method name is the untyped form for names known only at run time). Throws `ProtocolUsageError` before
   * sending when the method is neither in the negotiated revision nor in a negotiated extension, or needs a server
   * capability that was not declared; `RpcError` for an error response; `InvalidMessageError` for a malformed result.
   * Multi round-trip rounds (stateless era) are answered with the registered handlers and retried. A core method's
   * result is validated by the negotiated revision's table: pass that revision's token (e.g. from the descriptor
   * given in `revisions`) for a type that is exact whichever revision a server picks.
   */
  request<T extends AnyRequestType>(type: T, ...args: RequestArgs<T>): Promise<CompleteResultOf<T>>;
  request(
    method: string,
    params?: Readonly<Record<string, unknown>>,
    options?: CallOptions,
  ): Promise<Record<string, unknown>>;
  async request(type: string | AnyRequestType, params?: unknown, options?: CallOptions): Promise<unknown> {
    return this.#connection.request(typeof type === "string" ? type : type.method, params, options);
  }

  /**
   * Sends a client→server notification (by token, or method name), refusing (ProtocolUsageError) one neither the
   * revision nor a negotiated extension has, or whose capability gate is not declared, e.g.
   * `notifications/roots/list_changed` needs our `roots.listChanged`.
   */
  notify<T extends AnyNotificationType>(type: T, ...args: NotificationArgs<T>): Promise<void>;
  notify(method: string, params?: Readonly<Record<string, unknown>>): Promise<void>;
  async notify(type: string | AnyNotificationType, params?: unknown): Promise<void> {
    return this.#connection.notify(typeof type === "string" ? type : type.method, params);
  }

  /** Closes the connection (for stdio: closes the server's stdin, then escalates to signals). */
  close(): Promise<void> {
    return this.#connection.close();
  }

  /**
   * A core method by name, params checked against every built-in revision's. The negotiated revision's table has
   * validated the result when it resolves, so it is one member of `BuiltinResult<M>` (for a built-in revision): the
   * one narrowing of this class.
   */
  #call<M extends keyof ConvenienceResults>(
    method: M,
    params: CallerParamsOf<BuiltinToken<M>> | undefined,
    options: CallOptions | undefined,
  ): Promise<ConvenienceResults[M]> {
    return this.#connection.request(method, params, options) as Promise<ConvenienceResults[M]>;
  }

  /** Handshake era: tells the server the roots changed (needs `roots.listChanged`, declared when a roots handler is set). */
  notifyRootsListChanged(): Promise<void> {
    return this.notify("notifications/roots/list_changed");
  }

  /** Handshake era only (the stateless era has no ping). */
  async ping(options?: CallOptions): Promise<void> {
    await this.#call("ping", undefined, options);
  }
  /** Stateless era: the server's versions, capabilities and identity. */
  discover(options?: CallOptions): Promise<BuiltinResult<"server/discover">> {
    return this.#call("server/discover", {}, options);
  }
  listTools(params: PageParams = {}, options?: CallOptions): Promise<ListToolsResult> {
    return this.#call("tools/list", params, options);
  }
  async listAllTools(options?: CallOptions): Promise<ToolDefinition[]> {
    return collectPages(
      (p) => this.listTools(p, options),
      (r) => r.tools,
    );
  }
  callTool(name: string, args?: Readonly<Record<string, unknown>>, options?: CallOptions): Promise<CallToolResult> {
    return this.#call("tools/call", args === undefined ? { name } : { name, arguments: args }, options);
  }
  listResources(params: PageParams = {}, options?: CallOptions): Promise<ListResourcesResult> {
    return this.#call("resources/list", params, options);
  }
  listAllResources(options?: CallOptions): Promise<ResourceDefinition[]> {
    return collectPages(
      (p) => this.listResources(p, options),
      (r) => r.resources,
    );
  }
  listResourceTemplates(params: PageParams = {}, options?: CallOptions): Promise<ListResourceTemplatesResult> {
    return this.#call("resources/templates/list", params, options);
  }
  listAllResourceTemplates(options?: CallOptions): Promise<ResourceTemplateDefinition[]> {
    return collectPages(
      (p) => this.listResourceTemplates(p, options),
      (r) => r.resourceTemplates,
    );
  }
  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    return this.#call("resources/read", { uri }, options);
  }
  /** Handshake era: `resources/subscribe`; updates arrive as `notifications/resources/updated` (see `on`). */
  async subscribeResource(uri: string, options?: CallOptions): Promise<void> {
    await this.#call("resources/subscribe", { uri }, options);
  }
  async unsubscribeResource(uri: string, options?: CallOptions): Promise<void> {
    await this.#call("resources/unsubscribe", { uri }, options);
  }
  listPrompts(params: PageParams = {}, options?: CallOptions): Promise<ListPromptsResult> {
    return this.#call("prompts/list", params, options);
  }
  listAllPrompts(options?: CallOptions): Promise<PromptDefinition[]> {
    return collectPages(
      (p) => this.listPrompts(p, options),
      (r) => r.prompts,
    );
  }
  getPrompt(name: string, args?: Readonly<Record<string, string>>, options?: CallOptions): Promise<GetPromptResult> {
    return this.#call("prompts/get", args === undefined ? { name } : { name, arguments: args }, options);
  }
  complete(
    params: CallerParamsOf<BuiltinToken<"completion/complete">>,
    options?: CallOptions,
  ): Promise<CompleteResult> {
    return this.#call("completion/complete", params, options);
  }
  /** Handshake era: `logging/setLevel` (the stateless era uses `ClientOptions.logLevel`). */
  async setLogLevel(level: LogLevel, options?: CallOptions): Promise<void> {
    await this.#call("logging/setLevel", { level }, options);
  }

  /**
   * Stateless era: opens a `subscriptions/listen` stream and resolves once the server acknowledged it. The stream's
   * notifications reach `on(method, …)` listeners and carry `_meta["io.modelcontextprotocol/subscriptionId"]`.
   */
  listen(filter: SubscriptionFilter, options: { readonly signal?: AbortSignal } = {}): Promise<Subscription> {
    return openSubscription(this.#connection, filter, options);
  }
}

/** What the connection lends the extensions' features. */
function featureClient(connection: ClientConnection): FeatureClient {
  return {
    get era() {
      return connection.era;
    },
    get serverCapabilities() {
      return connection.serverCapabilities;
    },
    get serverInfo() {
      return connection.serverInfo;
    },
    request: (method, params, options) =>
      connection.request(method, params, options) as Promise<Record<string, unknown>>,
    exchange: (method, params, options) => connection.exchange(method, params, options),
    completeResult: (raw: unknown, facts: RequestFacts) => connection.completeResult(raw, facts),
    requestFacts: (method) => connection.clientRequest(method),
    answer: (requests, signal, method) => connection.fulfil(requests, signal, method),
    on: (method, listener) => connection.on(method, listener),
    listen: async (filter, signal) => {
      const subscription = await openSubscription(connection, filter as SubscriptionFilter, { signal });
      const agreed = subscription.filter as Readonly<Record<string, unknown>>;
      return { filter: agreed, ended: subscription.ended, close: () => subscription.close() };
    },
  };
}
