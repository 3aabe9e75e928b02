/**
 * The server definition: what the server offers (tools, resources, resource templates, prompts, completions) and
 * how it is configured. It holds no connection state; `connect` starts a `ServerSession` per connection (stdio
 * process, HTTP session, or a single stateless HTTP request), all sharing this definition.
 */
import type {
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
} from "../protocol/builtin-types.ts";
import { hasCapability, mergeCapabilities, type Capabilities } from "../protocol/capabilities.ts";
import type {
  AnyMethodType,
  AnyNotificationType,
  AnyRequestType,
  MethodTable,
  ParamsOf,
} from "../protocol/method-type.ts";
import type { RevisionProfile } from "../protocol/profiles.ts";
import { rankProfiles } from "../protocol/preference.ts";
import type { Transport } from "../transport/transport.ts";
import type {
  PromptHandler,
  PromptOptions,
  RegisteredPrompt,
  RegisteredResource,
  RegisteredTemplate,
  RegisteredTool,
  ResourceHandler,
  ResourceTemplateHandler,
  ResourceTemplateOptions,
  ServerNotificationHandler,
  ServerOptions,
  ServerRequestHandler,
  ToolHandler,
  ToolOptions,
} from "./options.ts";
import { SERVER_METHODS, type MethodImpl } from "./methods.ts";
import { RequestStateSealer } from "./request-state.ts";
import { ServerSession } from "./session.ts";
import { matchUriTemplate } from "../protocol/uri-template.ts";

/**
 * The server: what it offers and how it is configured, given its revisions as values (`ServerOptions.revisions`).
 * Code built on it bundles the bindings of those revisions and no others.
 */
export class McpServer {
  private readonly toolMap = new Map<string, RegisteredTool>();
  private readonly resourceMap = new Map<string, RegisteredResource>();
  private readonly templateMap = new Map<string, RegisteredTemplate>();
  private readonly promptMap = new Map<string, RegisteredPrompt>();
  /** Revisions served, newest first (their profiles: descriptor plus dispatch indexes). */
  readonly revisions: readonly RevisionProfile[];
  /** Wire versions served, newest first. */
  readonly versions: readonly string[];
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
    const profiles = rankProfiles(options.revisions);
    this.revisions = profiles;
    this.versions = profiles.map((p) => p.version);
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

  /** Registered tools by name (a read-only view; register with `tool`, remove with `removeTool`). */
  get tools(): ReadonlyMap<string, RegisteredTool> {
    return this.toolMap;
  }
  /** Registered resources by URI (a read-only view). */
  get resources(): ReadonlyMap<string, RegisteredResource> {
    return this.resourceMap;
  }
  /** Registered resource templates by URI template (a read-only view). */
  get templates(): ReadonlyMap<string, RegisteredTemplate> {
    return this.templateMap;
  }
  /** Registered prompts by name (a read-only view). */
  get prompts(): ReadonlyMap<string, RegisteredPrompt> {
    return this.promptMap;
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
    this.toolMap.set(definition.name, {
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
    this.resourceMap.set(definition.uri, { definition, handler });
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
    this.templateMap.set(definition.uriTemplate, { definition, handler, match, complete: options.complete ?? {} });
    this.changed("resources");
    return this;
  }

  prompt<Args = Readonly<Record<string, string>>>(
    definition: PromptDefinition,
    handler: PromptHandler<Args>,
    options: PromptOptions<Args> = {},
  ): this {
    if (this.prompts.has(definition.name)) throw new Error(`prompt "${definition.name}" is already registered`);
    this.promptMap.set(definition.name, {
      definition,
      handler: handler as PromptHandler<unknown>,
      validator: options.arguments,
      complete: options.complete ?? {},
    });
    this.changed("prompts");
    return this;
  }

  removeTool(name: string): boolean {
    const removed = this.toolMap.delete(name);
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
