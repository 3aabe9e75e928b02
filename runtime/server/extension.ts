/**
 * An extension on the server (basic/versioning.mdx#extension-negotiation, extensions/overview.mdx): what it is (its
 * identifier, the revisions it extends, its settings and methods: the descriptor `mcp-gen protocol` generates) and,
 * optionally, what it does (`serve`: its `ServerFeature`, made once per server). The server definition, its sessions
 * and the built-in methods know extensions through this interface only: an extension's requests, what it adds to a
 * core request (`tools/call`, `subscriptions/listen`) and what it holds until the server closes are its feature's.
 */
import type { ResourceDefinition, ToolDefinition } from "../protocol/builtin-types.ts";
import type { Awaitable } from "../protocol/helper-types.ts";
import type { ExtensionScope } from "../protocol/extensions.ts";
import type { AnyMethodType, AnyRequestType, MethodTable } from "../protocol/method-type.ts";
import type { RevisionProfile } from "../protocol/profiles.ts";
import type { RequestContext } from "./context.ts";

type Result = Record<string, unknown>;

/**
 * An extension the server supports: advertised under `capabilities.extensions[id]` (in `initialize` and
 * `server/discover` results of the revisions it extends, all when `versions` is absent); its methods are served to
 * clients that declare the same id (to every client with `clientDeclares: false`). A client that does not declare it
 * gets -32021 naming it (`data.requiredCapabilities.extensions`); under a revision it does not extend, its methods
 * are unknown (-32601).
 */
export interface ServerExtension extends ExtensionScope {
  /** The extension identifier, `{vendor-prefix}/{name}`, e.g. `com.example/notes`. */
  readonly id: string;
  /** The settings object advertised for it (default `{}`: supported, no settings). */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** The extension's methods: a generated method table, or tokens. */
  readonly methods: MethodTable | readonly AnyMethodType[];
  /**
   * Whether a client must declare the extension to call its methods (default true: an undeclared client gets
   * -32021). False for an extension whose page asks only the server to declare it: its methods are then served to
   * every client of a revision it extends.
   */
  readonly clientDeclares?: boolean;
  /**
   * What the extension does on a server, beyond methods served by `setRequestHandler`: called once, when the server
   * is built. Absent: the extension is its methods only.
   */
  readonly serve?: (server: FeatureServer) => ServerFeature;
}

/** What a feature is given of the server it is part of. */
export interface FeatureServer {
  /** The revisions served (their profiles), newest first. */
  readonly revisions: readonly RevisionProfile[];
  /** The server's diagnostics sink (`ServerOptions.onDiagnostic`). */
  readonly onDiagnostic: ((message: string) => void) | undefined;
}

/** An extension's request served by its feature: params validated by the method's (or `admit`'s) token. */
export type FeatureRequest = (params: Readonly<Record<string, unknown>>, context: RequestContext) => Awaitable<Result>;

/** The tool a `tools/call` names, as a feature sees it: its name and the options given for extensions. */
export interface ToolCallTarget {
  readonly name: string;
  /** The tool's definition as registered (what `tools/list` lists before any feature's `toolList`). */
  readonly definition: ToolDefinition;
  /** `ToolOptions.extensions`: options by extension id (each extension reads and checks its own). */
  readonly extensions: Readonly<Record<string, unknown>> | undefined;
}

/**
 * How a `tools/call` runs when a feature takes it over: `run` calls the tool's handler (arguments validated) with a
 * context, `inline` answers the request as if no feature had taken it. Resolves with the request's answer.
 */
export type ToolCallRunner = (
  run: (context: RequestContext) => Awaitable<Result>,
  inline: () => Result | Promise<Result>,
) => Promise<Result>;

/** What a feature adds to one `subscriptions/listen` stream. */
export interface ListenAddition {
  /** Fields of the acknowledgement's `notifications` (what the server agreed to of the feature's filter fields). */
  readonly agreed: Readonly<Record<string, unknown>>;
  /**
   * Starts following for this stream: `send` puts one of the extension's notifications on it (tagged with the
   * subscription id). Returns the stop, called when the stream ends.
   */
  follow(send: (method: string, params: Result) => void): () => void;
}

/** What an extension does on one server. Every member is optional. */
export interface ServerFeature {
  /**
   * Implementations of the extension's requests, by method (a handler set with `setRequestHandler` replaces one).
   * A method of the extension with neither is unknown (-32601).
   */
  readonly requests?: Readonly<Record<string, FeatureRequest>>;
  /**
   * Core capabilities the feature's work needs declared (merged under what is registered and `options.capabilities`),
   * e.g. `{ resources: {} }` for a feature that serves resources.
   */
  readonly capabilities?: Readonly<Record<string, unknown>>;
  /**
   * `resources/read` of a URI no registered resource has (tried before the templates): the read's result, or
   * undefined when the URI is not the feature's. May throw an `RpcError` (the request's answer).
   */
  readResource?(uri: string, context: RequestContext): Awaitable<Result | undefined>;
  /**
   * Whether `uri` (no registered resource's) is one the feature serves through `readResource`, so
   * `resources/subscribe` accepts it. Absent: no URI is (the subscription is answered resource-not-found).
   */
  servesResource?(uri: string): boolean;
  /** The token a request of the extension's method is admitted with (default: the method's token). */
  admit?(token: AnyRequestType): AnyRequestType;
  /**
   * `tools/call`: called before the tool's arguments are validated; returns how the call runs, or undefined to let
   * it run inline. May throw an `RpcError` (the request's answer, before the handler runs).
   */
  toolCall?(tool: ToolCallTarget, context: RequestContext): ToolCallRunner | undefined;
  /**
   * `tools/list`: the tools this request lists, given those the features before it list (all registered ones for
   * the first), before pagination. Absent: listed as they are.
   */
  toolList?(tools: readonly ToolDefinition[], context: RequestContext): readonly ToolDefinition[];
  /**
   * `resources/list`: the resources this request lists, given those the features before it list (all registered
   * ones for the first), before pagination. Absent: listed as they are.
   */
  resourceList?(resources: readonly ResourceDefinition[], context: RequestContext): readonly ResourceDefinition[];
  /** `subscriptions/listen`: what the feature agrees to of the request's `notifications` filter; undefined: nothing. */
  listen?(filter: Readonly<Record<string, unknown>>, context: RequestContext): Promise<ListenAddition | undefined>;
  /**
   * An HTTP endpoint serving this server shares its state with other instances (`McpHttpOptions.store`): throw when
   * the feature keeps state only this process sees (a configuration error, at start-up).
   */
  shareState?(store: object): void;
  /** The server closes: stop what runs and release what is held. */
  close?(): Promise<void>;
}
