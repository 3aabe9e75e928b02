/**
 * `McpServer`, the public server class: what a server application writes against (register tools, resources,
 * templates, prompts and handlers; connect transports; close) and the host contract the HTTP layer serves it through
 * (`SessionHost` of `@mcp-gen/runtime/http/web`: revisions, tools, broadcasts, shared state). Everything a session asks of
 * the server (method implementations, extension tokens, dispatch indexes, the request-state sealer) lives on the
 * `ServerDefinition` it holds privately (definition.ts), so none of it is public API.
 */
import type {
  PromptDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
} from "../protocol/builtin-types.ts";
import type { AnyNotificationType, AnyRequestType, RevisionDescriptor } from "../protocol/method-type.ts";
import type { Transport } from "../transport/transport.ts";
import type { ServerSession } from "./context.ts";
import { ServerDefinition, type ServerBroadcast } from "./definition.ts";
import { subscriptionLimit } from "./subscriptions.ts";
import type {
  PromptHandler,
  PromptOptions,
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

export type { ServerBroadcast } from "./definition.ts";

/**
 * The server: what it offers and how it is configured, given its revisions as values (`ServerOptions.revisions`).
 * Code built on it bundles the bindings of those revisions and no others.
 */
export class McpServer {
  readonly #definition: ServerDefinition;

  constructor(options: ServerOptions) {
    this.#definition = new ServerDefinition(options);
  }

  /**
   * Serves the request of `token` (a method of a served revision, or of a declared extension) with `handler`,
   * replacing the built-in implementation of that method if there is one. Params arrive validated by the token;
   * the result is completed by the era (e.g. `resultType`) and must match the token's complete result.
   */
  setRequestHandler<T extends AnyRequestType>(token: T, handler: ServerRequestHandler<T>): this {
    this.#definition.setRequestHandler(token, handler);
    return this;
  }

  /** Calls `handler` for each valid client notification of `token` (instead of `onClientNotification`). */
  setNotificationHandler<T extends AnyNotificationType>(token: T, handler: ServerNotificationHandler<T>): this {
    this.#definition.setNotificationHandler(token, handler);
    return this;
  }

  tool<Args = Readonly<Record<string, unknown>>>(
    definition: ToolDefinition,
    handler: ToolHandler<Args>,
    options?: ToolOptions<Args>,
  ): this {
    this.#definition.tool(definition, handler, options);
    return this;
  }

  resource(definition: ResourceDefinition, handler: ResourceHandler): this {
    this.#definition.resource(definition, handler);
    return this;
  }

  resourceTemplate<Vars = Readonly<Record<string, string>>>(
    definition: ResourceTemplateDefinition,
    handler: ResourceTemplateHandler<Vars>,
    options?: ResourceTemplateOptions<Vars>,
  ): this {
    this.#definition.resourceTemplate(definition, handler, options);
    return this;
  }

  prompt<Args = Readonly<Record<string, string>>>(
    definition: PromptDefinition,
    handler: PromptHandler<Args>,
    options?: PromptOptions<Args>,
  ): this {
    this.#definition.prompt(definition, handler, options);
    return this;
  }

  /** Unregisters a tool (clients that listen are told the list changed); false when none had that name. */
  removeTool(name: string): boolean {
    return this.#definition.removeTool(name);
  }

  /** Registered tools by name (a read-only view; register with `tool`, remove with `removeTool`). */
  get tools(): ReadonlyMap<string, RegisteredTool> {
    return this.#definition.tools;
  }

  /** The revisions served, most preferred first (`ServerOptions.revisions`, ranked). */
  get revisions(): readonly RevisionDescriptor[] {
    return this.#definition.revisions;
  }

  /** Wire versions served, most preferred first. */
  get versions(): readonly string[] {
    return this.#definition.versions;
  }

  /**
   * Capabilities derived from what is registered, merged with `options.capabilities`; given the wire `version` of a
   * revision, without the extensions not defined under it (`ServerExtension.versions`). Do not mutate the result.
   */
  capabilities(version?: string): Record<string, unknown> {
    return this.#definition.capabilities(version);
  }

  /** Starts serving one connection. The session ends when the transport closes. */
  connect(transport: Transport): Promise<ServerSession> {
    return this.#definition.connect(transport);
  }

  /** Live sessions (for broadcasting; HTTP transports may also use it for bookkeeping). */
  get sessions(): ReadonlySet<ServerSession> {
    return this.#definition.sessions;
  }

  /** The most resource subscriptions one session may hold (`ServerOptions.maxSubscriptionsPerSession`, default 1,000). */
  get maxSubscriptionsPerSession(): number {
    return subscriptionLimit(this.#definition.options);
  }

  /** Tells every interested client that a resource changed (`notifications/resources/updated`). */
  notifyResourceUpdated(uri: string): void {
    this.#definition.notifyResourceUpdated(uri);
  }

  /** Hears the broadcasts raised here; an HTTP endpoint whose instances share a `store` sets it to tell the others. */
  get onBroadcast(): ((broadcast: ServerBroadcast) => void) | undefined {
    return this.#definition.onBroadcast;
  }
  set onBroadcast(listener: ((broadcast: ServerBroadcast) => void) | undefined) {
    this.#definition.onBroadcast = listener;
  }

  /** A broadcast (raised here, or on another instance of a shared deployment) for this process's sessions. */
  deliverBroadcast(broadcast: ServerBroadcast): void {
    this.#definition.deliverBroadcast(broadcast);
  }

  /**
   * An HTTP endpoint serving this server shares its state (`store`) with other instances: throws when an extension
   * served keeps state only this process sees (e.g. tasks in memory), a configuration error found at start-up.
   */
  shareState(store: object): void {
    this.#definition.shareState(store);
  }

  /**
   * Ends every session's `subscriptions/listen` streams gracefully and leaves the sessions open: an HTTP endpoint
   * shutting down calls it, so listening clients reconnect to another instance.
   */
  endListenStreams(): void {
    this.#definition.endListenStreams();
  }

  /** Ends every session's `subscriptions/listen` streams gracefully and closes the sessions. */
  close(): Promise<void> {
    return this.#definition.close();
  }
}
