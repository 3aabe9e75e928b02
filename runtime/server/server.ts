/**
 * The server definition: what the server offers (tools, resources, resource templates, prompts, completions) and
 * how it is configured. It holds no connection state; `connect` starts a `ServerSession` per connection (stdio
 * process, HTTP session, or a single stateless HTTP request), all sharing this definition.
 */
import type { JsonRpcId } from "../jsonrpc/messages.ts";
import type { Awaitable } from "../protocol/helper-types.ts";
import type {
  CallToolResult,
  GetPromptResult,
  Implementation,
  PromptDefinition,
  ReadResourceResult,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
} from "../protocol/builtin-types.ts";
import { hasCapability, mergeCapabilities, type Capabilities } from "../protocol/capabilities.ts";
import type {
  AnyMethodType,
  AnyNotificationType,
  AnyRequestType,
  CompleteResultOf,
  MethodTable,
  NotificationParamsOf,
  ParamsOf,
} from "../protocol/method-type.ts";
import type { RevisionProfile } from "../protocol/profiles.ts";
import { withBuiltinRevisions } from "../protocol/builtin-revisions.ts";
import { descriptorsOnly, rankProfiles, type RevisionInput } from "../protocol/registry.ts";
import type { Validator } from "../protocol/validation.ts";
import type { Transport } from "../transport/transport.ts";
import type { RequestContext } from "./context.ts";
import { SERVER_METHODS, type MethodImpl } from "./methods.ts";
import { RequestStateSealer } from "./request-state.ts";
import { ServerSession } from "./session.ts";
import { matchUriTemplate } from "../protocol/uri-template.ts";

export type ToolHandler<Args> = (args: Args, context: RequestContext) => Awaitable<CallToolResult>;
export type ResourceHandler = (uri: string, context: RequestContext) => Awaitable<ReadResourceResult>;
export type ResourceTemplateHandler = (
  uri: string,
  variables: Readonly<Record<string, string>>,
  context: RequestContext,
) => Awaitable<ReadResourceResult>;
export type PromptHandler<Args> = (args: Args, context: RequestContext) => Awaitable<GetPromptResult>;
/** Completes one argument: receives the partial value and the other arguments already filled in. */
export type Completer = (
  value: string,
  context: { readonly arguments: Readonly<Record<string, string>>; readonly request: RequestContext },
) => Awaitable<readonly string[]>;

/** Result fields the runtime fills in where the revision has them (stateless era): a handler may leave them out. */
type FilledByRuntime = "resultType" | "ttlMs" | "cacheScope";

/** What a request handler returns for a result type `R`: `R`, with the fields the runtime fills in optional. */
export type HandlerResult<R> = R extends object
  ? { [K in keyof R as K extends FilledByRuntime ? never : K]: R[K] } & {
      [K in keyof R as K extends FilledByRuntime ? K : never]?: R[K];
    }
  : R;

/** A handler for the request of token `T`: typed by the token's params and complete result. */
export type ServerRequestHandler<T extends AnyRequestType> = (
  params: ParamsOf<T>,
  context: RequestContext,
) => Awaitable<HandlerResult<CompleteResultOf<T>>>;

/** A handler for the client notification of token `T`. */
export type ServerNotificationHandler<T extends AnyNotificationType> = (
  params: NotificationParamsOf<T>,
  session: ServerSession,
) => void | Promise<void>;

/**
 * An extension the server supports (basic/versioning.mdx#extension-negotiation): advertised under
 * `capabilities.extensions[id]`; its methods are served to clients that declare the same id, and are otherwise
 * unknown (-32601).
 */
export interface ServerExtension {
  /** The extension identifier, `{vendor-prefix}/{name}`, e.g. `io.modelcontextprotocol/tasks`. */
  readonly id: string;
  /** The settings object advertised for it (default `{}`: supported, no settings). */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** The extension's methods: a generated method table, or tokens. */
  readonly methods: MethodTable | readonly AnyMethodType[];
}

export interface ToolOptions<Args> {
  /** Validates and types `arguments`; a failure becomes an `isError` result naming the path (the model can retry). */
  readonly arguments?: Validator<Args>;
  /** OAuth scopes a caller needs for this tool; Streamable HTTP bearer auth enforces them (see `BearerAuthOptions`). */
  readonly scopes?: readonly string[];
}

export interface PromptOptions<Args> {
  readonly arguments?: Validator<Args>;
  /** Completers by argument name (`completion/complete` with a `ref/prompt`). */
  readonly complete?: Readonly<Record<string, Completer>>;
}

export interface ResourceTemplateOptions {
  /** Completers by template variable (`completion/complete` with a `ref/resource`). */
  readonly complete?: Readonly<Record<string, Completer>>;
  /** Extracts the variables from a URI, or returns undefined when it does not match. Default: RFC 6570 level 1-2 matching. */
  readonly match?: (uri: string) => Record<string, string> | undefined;
}

export interface ServerOptions {
  readonly info: Implementation;
  readonly instructions?: string;
  /**
   * Revisions served: generated revision descriptors (the `revision` export of a `mcp-gen protocol` folder) or
   * built-in revision names. Default: every built-in revision. Preference order: see `protocol/registry.ts`.
   */
  readonly revisions?: readonly RevisionInput[];
  /** Extensions served; each is advertised in `capabilities.extensions`. */
  readonly extensions?: readonly ServerExtension[];
  /** Extra capabilities merged over the ones derived from registrations (e.g. `experimental`). */
  readonly capabilities?: Capabilities;
  /**
   * Longest URI matched against resource templates (default 8,192 characters; matching takes time linear in the
   * URI's length): a longer `resources/read` URI matches no template. Templates with their own `match` are not bound.
   */
  readonly maxTemplateUriLength?: number;
  /**
   * Requests of one session whose handlers may run at once (default 256); each member of a batch counts. Requests
   * beyond it are answered at once with error -31429 (`RuntimeErrorCode.TooManyRequestsInFlight`). A request whose
   * client hung up counts until its handler settles. Over HTTP without sessions every request is its own session.
   */
  readonly maxRequestsInFlight?: number;
  /** Page size for list results (default 100; 0 = no pagination). */
  readonly pageSize?: number;
  /** HMAC key for multi round-trip `requestState` (default: random per process; set it when several processes serve). */
  readonly requestStateKey?: string | Uint8Array;
  /** How long a `requestState` stays valid (default 10 minutes). */
  readonly requestStateTtlMs?: number;
  /** Caching hints for cacheable results that do not set their own (stateless era). Default ttl 0. */
  readonly cache?: { readonly ttlMs?: number; readonly scope?: "public" | "private" };
  /** Default timeout for server→client requests (handshake era). */
  readonly requestTimeoutMs?: number;
  /** Diagnostics (protocol violations by peers, handler crashes); default: none. Never written to stdout. */
  readonly onDiagnostic?: (message: string) => void;
  /** Client notifications the runtime does not consume itself (e.g. `notifications/roots/list_changed`). */
  readonly onClientNotification?: (method: string, params: unknown, session: ServerSession) => void;
}

export interface RegisteredTool {
  readonly definition: ToolDefinition;
  readonly handler: ToolHandler<unknown>;
  readonly validator: Validator<unknown> | undefined;
  readonly scopes: readonly string[];
}
export interface RegisteredResource {
  readonly definition: ResourceDefinition;
  readonly handler: ResourceHandler;
}
export interface RegisteredTemplate {
  readonly definition: ResourceTemplateDefinition;
  readonly handler: ResourceTemplateHandler;
  readonly match: (uri: string) => Record<string, string> | undefined;
  readonly complete: Readonly<Record<string, Completer>>;
}
export interface RegisteredPrompt {
  readonly definition: PromptDefinition;
  readonly handler: PromptHandler<unknown>;
  readonly validator: Validator<unknown> | undefined;
  readonly complete: Readonly<Record<string, Completer>>;
}

/**
 * The server, given its revisions as descriptors only (`revisions` is required, built-in names are refused): code
 * built on it bundles the bindings of those revisions and no others. `McpServer` is the same server with the
 * built-in revisions as the default and their names accepted.
 */
export class McpServerCore {
  readonly tools = new Map<string, RegisteredTool>();
  readonly resources = new Map<string, RegisteredResource>();
  readonly templates = new Map<string, RegisteredTemplate>();
  readonly prompts = new Map<string, RegisteredPrompt>();
  /** Wire versions served, newest first. */
  readonly revisions: readonly string[];
  /** Handshake-era profiles served, newest first. */
  readonly handshakeProfiles: readonly RevisionProfile[];
  readonly handshakeByRevision: ReadonlyMap<string, RevisionProfile>;
  readonly statelessByRevision: ReadonlyMap<string, RevisionProfile>;
  readonly sealer: RequestStateSealer;
  private readonly live = new Set<ServerSession>();
  private readonly requestHandlers = new Map<string, MethodImpl>();
  private readonly notificationHandlers = new Map<
    string,
    (params: unknown, session: ServerSession) => void | Promise<void>
  >();
  /** Extension methods by method name, with the extension id a client must declare. */
  private readonly extensionMethods = new Map<string, { readonly id: string; readonly token: AnyMethodType }>();
  private cachedCapabilities: Record<string, unknown> | undefined;

  constructor(readonly options: ServerOptions) {
    const profiles = rankProfiles(descriptorsOnly(options.revisions));
    this.revisions = profiles.map((p) => p.version);
    this.handshakeProfiles = profiles.filter((p) => p.era === "handshake");
    this.handshakeByRevision = new Map(this.handshakeProfiles.map((p) => [p.version, p]));
    this.statelessByRevision = new Map(profiles.filter((p) => p.era === "stateless").map((p) => [p.version, p]));
    this.sealer = new RequestStateSealer(options.requestStateKey, options.requestStateTtlMs ?? 600_000);
    for (const extension of options.extensions ?? []) {
      const tokens = Array.isArray(extension.methods)
        ? extension.methods
        : Object.values(extension.methods as MethodTable);
      for (const token of tokens as readonly AnyMethodType[]) {
        const previous = this.extensionMethods.get(token.method);
        if (previous)
          throw new Error(`extension method ${token.method} is declared by both ${previous.id} and ${extension.id}`);
        this.extensionMethods.set(token.method, { id: extension.id, token });
      }
    }
  }

  /**
   * Serves the request of `token` (a method of a served revision, or of a declared extension) with `handler`,
   * replacing the built-in implementation of that method if there is one. Params arrive validated by the token;
   * the result is completed by the era (e.g. `resultType`) and must match the token's complete result.
   */
  setRequestHandler<T extends AnyRequestType>(token: T, handler: ServerRequestHandler<T>): this {
    if (token.kind !== "request" || token.direction === "serverToClient")
      throw new Error(`${token.method} is not a client→server request`);
    this.requestHandlers.set(
      token.method,
      (env) =>
        handler(env.params as ParamsOf<T>, env.context) as Record<string, unknown> | Promise<Record<string, unknown>>,
    );
    return this;
  }

  /** Calls `handler` for each valid client notification of `token` (instead of `onClientNotification`). */
  setNotificationHandler<T extends AnyNotificationType>(token: T, handler: ServerNotificationHandler<T>): this {
    if (token.kind !== "notification" || token.direction === "serverToClient")
      throw new Error(`${token.method} is not a client→server notification`);
    this.notificationHandlers.set(
      token.method,
      handler as (params: unknown, session: ServerSession) => void | Promise<void>,
    );
    return this;
  }

  /** The implementation of a client→server request: a registered handler, else the built-in one. */
  implementationOf(method: string): MethodImpl | undefined {
    return (
      this.requestHandlers.get(method) ?? (Object.hasOwn(SERVER_METHODS, method) ? SERVER_METHODS[method] : undefined)
    );
  }

  notificationHandlerOf(
    method: string,
  ): ((params: unknown, session: ServerSession) => void | Promise<void>) | undefined {
    return this.notificationHandlers.get(method);
  }

  /** The token of an extension method, when the client's capabilities declare its extension. */
  extensionToken(method: string, clientCapabilities: Capabilities): AnyMethodType | undefined {
    const entry = this.extensionMethods.get(method);
    return entry && hasCapability(clientCapabilities, ["extensions", entry.id]) ? entry.token : undefined;
  }

  /** The token of an extension request, when the client's capabilities declare its extension. */
  extensionRequest(method: string, clientCapabilities: Capabilities): AnyRequestType | undefined {
    const entry = this.extensionMethods.get(method);
    return entry?.token.kind === "request" && hasCapability(clientCapabilities, ["extensions", entry.id])
      ? entry.token
      : undefined;
  }

  /** The most preferred revision served (the profile client notifications are read with before any negotiation). */
  get newestProfile(): RevisionProfile {
    const first = this.statelessByRevision.values().next().value ?? this.handshakeProfiles[0];
    if (!first) throw new Error("no revisions configured");
    return first;
  }

  tool<Args = Readonly<Record<string, unknown>>>(
    definition: ToolDefinition,
    handler: ToolHandler<Args>,
    options: ToolOptions<Args> = {},
  ): this {
    if (this.tools.has(definition.name)) throw new Error(`tool "${definition.name}" is already registered`);
    this.tools.set(definition.name, {
      definition,
      handler: handler as ToolHandler<unknown>,
      validator: options.arguments,
      scopes: options.scopes ?? [],
    });
    this.changed("tools");
    return this;
  }

  resource(definition: ResourceDefinition, handler: ResourceHandler): this {
    if (this.resources.has(definition.uri)) throw new Error(`resource "${definition.uri}" is already registered`);
    this.resources.set(definition.uri, { definition, handler });
    this.changed("resources");
    return this;
  }

  resourceTemplate(
    definition: ResourceTemplateDefinition,
    handler: ResourceTemplateHandler,
    options: ResourceTemplateOptions = {},
  ): this {
    if (this.templates.has(definition.uriTemplate))
      throw new Error(`resource template "${definition.uriTemplate}" is already registered`);
    const bound = this.options.maxTemplateUriLength;
    const match = options.match ?? ((uri: string) => matchUriTemplate(definition.uriTemplate, uri, bound));
    this.templates.set(definition.uriTemplate, { definition, handler, match, complete: options.complete ?? {} });
    this.changed("resources");
    return this;
  }

  prompt<Args = Readonly<Record<string, string>>>(
    definition: PromptDefinition,
    handler: PromptHandler<Args>,
    options: PromptOptions<Args> = {},
  ): this {
    if (this.prompts.has(definition.name)) throw new Error(`prompt "${definition.name}" is already registered`);
    this.prompts.set(definition.name, {
      definition,
      handler: handler as PromptHandler<unknown>,
      validator: options.arguments,
      complete: options.complete ?? {},
    });
    this.changed("prompts");
    return this;
  }

  removeTool(name: string): boolean {
    const removed = this.tools.delete(name);
    if (removed) this.changed("tools");
    return removed;
  }

  /** Capabilities derived from what is registered, merged with `options.capabilities`. Do not mutate the result. */
  capabilities(): Record<string, unknown> {
    return (this.cachedCapabilities ??= this.deriveCapabilities());
  }

  private deriveCapabilities(): Record<string, unknown> {
    const derived: Record<string, unknown> = { logging: {} };
    if (this.tools.size > 0) derived["tools"] = { listChanged: true };
    if (this.resources.size > 0 || this.templates.size > 0)
      derived["resources"] = { subscribe: true, listChanged: true };
    if (this.prompts.size > 0) derived["prompts"] = { listChanged: true };
    const completable = [...this.prompts.values(), ...this.templates.values()].some(
      (r) => Object.keys(r.complete).length > 0,
    );
    if (completable) derived["completions"] = {};
    const extensions = this.options.extensions ?? [];
    if (extensions.length > 0)
      derived["extensions"] = Object.fromEntries(extensions.map((e) => [e.id, e.settings ?? {}]));
    return mergeCapabilities(derived, this.options.capabilities);
  }

  /** Starts serving one connection. The session ends when the transport closes. */
  async connect(transport: Transport): Promise<ServerSession> {
    const session = new ServerSession(this, transport, () => this.live.delete(session));
    this.live.add(session);
    await session.start();
    return session;
  }

  /** Live sessions (for broadcasting; HTTP transports may also use it for bookkeeping). */
  get sessions(): ReadonlySet<ServerSession> {
    return this.live;
  }

  /** Tells every interested client that a resource changed (`notifications/resources/updated`). */
  notifyResourceUpdated(uri: string): void {
    for (const session of this.live) session.resourceUpdated(uri);
  }

  /** Ends every session's `subscriptions/listen` streams gracefully and closes the sessions. */
  async close(): Promise<void> {
    await Promise.all([...this.live].map((session) => session.close()));
  }

  private changed(kind: "tools" | "resources" | "prompts"): void {
    this.cachedCapabilities = undefined;
    for (const session of this.live) session.listChanged(kind);
  }
}

/** The server; `revisions` defaults to every built-in revision and may name built-ins (this bundles all of them). */
export class McpServer extends McpServerCore {
  constructor(options: ServerOptions) {
    super({ ...options, revisions: withBuiltinRevisions(options.revisions) });
  }
}

export type { JsonRpcId };
