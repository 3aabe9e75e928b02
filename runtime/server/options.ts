/**
 * What a server is configured with and what it keeps per registration: the handler types, `ServerOptions`, the
 * option objects of `tool` / `prompt` / `resourceTemplate`, and the registered entries (read by sessions and the
 * HTTP layer through `McpServer`'s read-only views).
 */
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
import type { Capabilities } from "../protocol/capabilities.ts";
import type {
  AnyNotificationType,
  AnyRequestType,
  CompleteResultOf,
  NotificationParamsOf,
  ParamsOf,
  RevisionDescriptor,
} from "../protocol/method-type.ts";
import type { Validator } from "../protocol/validation.ts";
import type { RequestContext, ServerSession } from "./context.ts";
import type { ServerExtension } from "./extension.ts";

export type ToolHandler<Args> = (args: Args, context: RequestContext) => Awaitable<CallToolResult>;
export type ResourceHandler = (uri: string, context: RequestContext) => Awaitable<ReadResourceResult>;
export type ResourceTemplateHandler<Vars = Readonly<Record<string, string>>> = (
  uri: string,
  variables: Vars,
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

export interface ToolOptions<Args> {
  /** Validates and types `arguments`; a failure becomes an `isError` result naming the path (the model can retry). */
  readonly arguments?: Validator<Args>;
  /**
   * Validates a non-error result's `structuredContent`; a failure becomes an `isError` result naming the path.
   * Default: the definition's `outputSchema` checked as JSON Schema (none without one).
   */
  readonly output?: Validator<unknown>;
  /** OAuth scopes a caller needs for this tool; Streamable HTTP bearer auth enforces them (see `BearerAuthOptions`). */
  readonly scopes?: readonly string[];
  /**
   * Options for the extensions the server serves, by extension id (each extension documents its own, and its entry
   * point may offer a helper that writes them). An id the server does not serve is refused when registering.
   */
  readonly extensions?: Readonly<Record<string, unknown>>;
}

export interface PromptOptions<Args> {
  readonly arguments?: Validator<Args>;
  /** Completers by argument name (`completion/complete` with a `ref/prompt`). */
  readonly complete?: Readonly<Record<string, Completer>>;
}

export interface ResourceTemplateOptions<Vars = Readonly<Record<string, string>>> {
  /** Validates and types the variables matched from the URI; a failure is error -32602 naming the variable. */
  readonly variables?: Validator<Vars>;
  /** Completers by template variable (`completion/complete` with a `ref/resource`). */
  readonly complete?: Readonly<Record<string, Completer>>;
  /** Extracts the variables from a URI, or returns undefined when it does not match. Default: RFC 6570 level 1-2 matching. */
  readonly match?: (uri: string) => Record<string, string> | undefined;
}

export interface ServerOptions {
  readonly info: Implementation;
  readonly instructions?: string;
  /**
   * Revisions served, as descriptors: `builtinRevisions` (every built-in one), a built-in's `revision` export
   * (`@mcp-gen/runtime/protocol/<name>`), or a `mcp-gen protocol` folder's. A bundle holds the bindings of these only.
   * Preference order: see `protocol/preference.ts`.
   */
  readonly revisions: readonly RevisionDescriptor[];
  /** Extensions served; each is advertised in `capabilities.extensions` (see `ServerExtension`). */
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
  /**
   * Resource subscriptions one session may hold (default 1,000; with a shared `store`, counted there across
   * instances). One more `resources/subscribe` is answered -31431 (`RuntimeErrorCode.TooManySubscriptions`,
   * `data.limit`); a URI that names no resource and matches no template is answered resource-not-found (-32002).
   */
  readonly maxSubscriptionsPerSession?: number;
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
  /** Checks `structuredContent` (`ToolOptions.output`, else the definition's `outputSchema`). */
  readonly output: Validator<unknown> | undefined;
  readonly scopes: readonly string[];
  /** `ToolOptions.extensions`. */
  readonly extensions: Readonly<Record<string, unknown>> | undefined;
}
export interface RegisteredResource {
  readonly definition: ResourceDefinition;
  readonly handler: ResourceHandler;
}
export interface RegisteredTemplate {
  readonly definition: ResourceTemplateDefinition;
  readonly handler: ResourceTemplateHandler<unknown>;
  readonly validator: Validator<unknown> | undefined;
  readonly match: (uri: string) => Record<string, string> | undefined;
  readonly complete: Readonly<Record<string, Completer>>;
}
export interface RegisteredPrompt {
  readonly definition: PromptDefinition;
  readonly handler: PromptHandler<unknown>;
  readonly validator: Validator<unknown> | undefined;
  readonly complete: Readonly<Record<string, Completer>>;
}
