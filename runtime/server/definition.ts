/**
 * The server definition behind `McpServer` (server.ts, the public class, holds one and forwards to it): what the
 * server offers (tools, resources, resource templates, prompts, completions), how it is configured, and what a
 * session asks of it (`SessionDefinition`: method implementations, extension tokens, the revisions' dispatch indexes, the
 * request-state sealer). It holds no connection state; `connect` starts a `ServerSession` per connection (stdio
 * process, HTTP session, or a single stateless HTTP request), all sharing this definition.
 */
import type {
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
} from "../protocol/builtin-types.ts";
import { mergeCapabilities, type Capabilities } from "../protocol/capabilities.ts";
import type { AnyMethodType, AnyNotificationType, AnyRequestType, ParamsOf } from "../protocol/method-type.ts";
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
import type { MethodImpl } from "./method-env.ts";
import { SERVER_METHODS } from "./methods.ts";
import { RequestStateSealer } from "./request-state.ts";
import type { ServerSession } from "./context.ts";
import { Session } from "./session.ts";
import { subscriptionLimit } from "./subscriptions.ts";
import { matchUriTemplate } from "../protocol/uri-template.ts";
import { jsonSchemaValidator } from "../protocol/json-schema-check.ts";
import { extensionApplies } from "../protocol/extensions.ts";
import type { ServerFeature } from "./extension.ts";
import { ExtensionMethods } from "./extension-methods.ts";

/** A change every interested client is owed a notification of. */
export type ServerBroadcast =
  | { readonly kind: "listChanged"; readonly list: "tools" | "resources" | "prompts" }
  | { readonly kind: "resourceUpdated"; readonly uri: string };

export class ServerDefinition {
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
  private readonly live = new Set<Session>();
  private readonly requestHandlers = new Map<string, MethodImpl>();
  private readonly notificationHandlers = new Map<
    string,
    (params: unknown, session: ServerSession) => void | Promise<void>
  >();
  private cachedCapabilities: Record<string, unknown> | undefined;
  private readonly extensionMethods: ExtensionMethods;
  /** What the served extensions do here (`ServerExtension.serve`), in `options.extensions` order. */
  readonly features: readonly ServerFeature[];

  constructor(readonly options: ServerOptions) {
    const profiles = rankProfiles(options.revisions);
    this.revisions = profiles;
    this.versions = profiles.map((p) => p.version);
    this.handshakeProfiles = profiles.filter((p) => p.era === "handshake");
    this.handshakeByRevision = new Map(this.handshakeProfiles.map((p) => [p.version, p]));
    this.statelessByRevision = new Map(profiles.filter((p) => p.era === "stateless").map((p) => [p.version, p]));
    subscriptionLimit(options); // a bad cap is refused here, not at the first subscription
    this.sealer = new RequestStateSealer(options.requestStateKey, options.requestStateTtlMs ?? 600_000);
    this.extensionMethods = new ExtensionMethods(options.extensions ?? [], profiles, options.onDiagnostic);
    this.features = this.extensionMethods.features;
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

  /** The implementation of a client→server request (`SessionDefinition.implementationOf`). */
  implementationOf(method: string, definedBy: "revision" | "extension"): MethodImpl | undefined {
    const registered = this.requestHandlers.get(method);
    if (registered) return registered;
    if (definedBy === "extension") return this.extensionMethods.implementationOf(method);
    return Object.hasOwn(SERVER_METHODS, method) ? SERVER_METHODS[method] : undefined;
  }

  notificationHandlerOf(
    method: string,
  ): ((params: unknown, session: ServerSession) => void | Promise<void>) | undefined {
    return this.notificationHandlers.get(method);
  }

  /** See `SessionDefinition`: extension methods, known when the client declares their extension. */
  extensionToken(method: string, clientCapabilities: Capabilities, version?: string): AnyMethodType | undefined {
    return this.extensionMethods.token(method, clientCapabilities, version);
  }
  extensionRequest(method: string, clientCapabilities: Capabilities, version?: string): AnyRequestType | undefined {
    return this.extensionMethods.request(method, clientCapabilities, version);
  }
  undeclaredExtension(method: string, clientCapabilities: Capabilities, version: string): string | undefined {
    return this.extensionMethods.undeclared(method, clientCapabilities, version);
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
    for (const id of Object.keys(options.extensions ?? {}))
      if (!(this.options.extensions ?? []).some((e) => e.id === id))
        throw new Error(`tool "${definition.name}" has options for extension ${id}, which this server does not serve`);
    this.toolMap.set(definition.name, {
      definition,
      handler: handler as ToolHandler<unknown>,
      validator: options.arguments,
      output: options.output ?? (definition.outputSchema ? jsonSchemaValidator(definition.outputSchema) : undefined),
      scopes: options.scopes ?? [],
      extensions: options.extensions,
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

  resourceTemplate<Vars = Readonly<Record<string, string>>>(
    definition: ResourceTemplateDefinition,
    handler: ResourceTemplateHandler<Vars>,
    options: ResourceTemplateOptions<Vars> = {},
  ): this {
    if (this.templates.has(definition.uriTemplate))
      throw new Error(`resource template "${definition.uriTemplate}" is already registered`);
    const bound = this.options.maxTemplateUriLength;
    const match = options.match ?? ((uri: string) => matchUriTemplate(definition.uriTemplate, uri, bound));
    this.templateMap.set(definition.uriTemplate, {
      definition,
      handler: handler as ResourceTemplateHandler<unknown>,
      validator: options.variables,
      match,
      complete: options.complete ?? {},
    });
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

  /**
   * Capabilities derived from what is registered, merged with `options.capabilities`; given the wire `version` of a
   * revision, without the extensions not defined under it (`ServerExtension.versions`). Do not mutate the result.
   */
  capabilities(version?: string): Record<string, unknown> {
    const all = (this.cachedCapabilities ??= this.deriveCapabilities());
    const declared = this.options.extensions;
    if (version === undefined || !declared?.length) return all; // per request: no array built
    const absent = declared.filter((e) => !extensionApplies(e, version));
    const listed = all["extensions"];
    if (absent.length === 0 || typeof listed !== "object" || listed === null) return all;
    const extensions: Record<string, unknown> = { ...listed };
    for (const extension of absent) delete extensions[extension.id];
    const { extensions: _all, ...rest } = all;
    return Object.keys(extensions).length > 0 ? { ...rest, extensions } : rest;
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
    const needed = this.features.map((feature) => feature.capabilities);
    return mergeCapabilities(...needed, derived, this.options.capabilities);
  }

  /** Starts serving one connection. The session ends when the transport closes. */
  async connect(transport: Transport): Promise<ServerSession> {
    const session = new Session(this, transport, () => this.live.delete(session));
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
    this.deliverBroadcast({ kind: "resourceUpdated", uri });
    this.onBroadcast?.({ kind: "resourceUpdated", uri });
  }

  /** Hears the broadcasts raised here; an HTTP endpoint whose instances share a `store` sets it to tell the others. */
  onBroadcast: ((broadcast: ServerBroadcast) => void) | undefined;

  /** A broadcast (raised here, or on another instance of a shared deployment) for this process's sessions. */
  deliverBroadcast(broadcast: ServerBroadcast): void {
    if (broadcast.kind === "listChanged") for (const session of this.live) session.listChanged(broadcast.list);
    else for (const session of this.live) session.resourceUpdated(broadcast.uri);
  }

  /** An HTTP endpoint shares `store` with other instances: each feature checks it can (`ServerFeature.shareState`). */
  shareState(store: object): void {
    for (const feature of this.features) feature.shareState?.(store);
  }

  /** Ends every session's `subscriptions/listen` streams gracefully (a shutdown: clients listen elsewhere). */
  endListenStreams(): void {
    for (const session of this.live) session.endListens();
  }

  /** Ends every session's `subscriptions/listen` streams gracefully and closes the sessions. */
  async close(): Promise<void> {
    await Promise.all([...this.live].map((session) => session.close()));
    await Promise.all(this.features.map((feature) => feature.close?.()));
  }

  private changed(kind: "tools" | "resources" | "prompts"): void {
    this.cachedCapabilities = undefined;
    this.deliverBroadcast({ kind: "listChanged", list: kind });
    this.onBroadcast?.({ kind: "listChanged", list: kind });
  }
}
