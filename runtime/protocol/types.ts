/**
 * Revision-independent shapes used by the server and client APIs. They name the fields the runtime and typical
 * handlers touch and stay open (`[key: string]: unknown`) so that any revision's richer fields pass through; the
 * exact per-revision types and validators are the generated ones in `generated/protocol/<rev>/`.
 */

export type Awaitable<T> = T | Promise<T>;

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: unknown };

export interface Implementation {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
  readonly [key: string]: unknown;
}

export type CapabilitiesObject = Readonly<Record<string, unknown>>;

export interface ContentBlock {
  readonly type: string;
  readonly [key: string]: unknown;
}

export interface ToolDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: JsonObject;
  readonly outputSchema?: JsonObject;
  readonly annotations?: JsonObject;
  readonly [key: string]: unknown;
}

export interface CallToolResult {
  readonly content: readonly ContentBlock[];
  readonly structuredContent?: unknown;
  readonly isError?: boolean;
  readonly _meta?: JsonObject;
  readonly [key: string]: unknown;
}

export interface ResourceDefinition {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly [key: string]: unknown;
}

export interface ResourceTemplateDefinition {
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly [key: string]: unknown;
}

export interface ResourceContents {
  readonly uri: string;
  readonly mimeType?: string;
  readonly text?: string;
  readonly blob?: string;
  readonly [key: string]: unknown;
}

export interface ReadResourceResult {
  readonly contents: readonly ResourceContents[];
  readonly [key: string]: unknown;
}

export interface PromptArgument {
  readonly name: string;
  readonly description?: string;
  readonly required?: boolean;
  readonly [key: string]: unknown;
}

export interface PromptDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: readonly PromptArgument[];
  readonly [key: string]: unknown;
}

export interface PromptMessage {
  readonly role: "user" | "assistant";
  readonly content: ContentBlock;
  readonly [key: string]: unknown;
}

export interface GetPromptResult {
  readonly description?: string;
  readonly messages: readonly PromptMessage[];
  readonly [key: string]: unknown;
}

export interface CompleteResult {
  readonly completion: { readonly values: readonly string[]; readonly total?: number; readonly hasMore?: boolean };
  readonly [key: string]: unknown;
}

export interface CompleteParams {
  readonly ref: { readonly type: string; readonly name?: string; readonly uri?: string };
  readonly argument: { readonly name: string; readonly value: string };
  readonly context?: { readonly arguments?: Readonly<Record<string, string>> };
  readonly [key: string]: unknown;
}

/** The form of a form-mode elicitation: a flat object whose properties are primitive JSON Schemas. */
export interface ElicitRequestedSchema {
  readonly $schema?: string;
  readonly type: "object";
  /** One primitive schema (string, number/integer, boolean, enum) per field; the revision's table checks them. */
  readonly properties: Readonly<Record<string, JsonObject>>;
  readonly required?: readonly string[];
  readonly [key: string]: unknown;
}

/** Form mode: the client collects data matching `requestedSchema`. `mode` may be omitted (it means form). */
export interface ElicitFormParams {
  readonly mode?: "form";
  readonly message: string;
  readonly requestedSchema: ElicitRequestedSchema;
  readonly [key: string]: unknown;
}

/** URL mode (2025-11-25 on): the user is sent to `url` for an out-of-band interaction; the client sees no data. */
export interface ElicitUrlParams {
  readonly mode: "url";
  readonly message: string;
  readonly url: string;
  /**
   * Required by 2025-11-25 (unique within the server; `completeElicitation` and -32042 errors name it). 2026-07-28
   * removed it: the client learns the outcome by retrying, and its requests never carry one.
   */
  readonly elicitationId?: string;
  readonly [key: string]: unknown;
}

/**
 * `elicitation/create` params: narrow on `mode` (`"url"`, else form). Kept in step with the generated
 * `ElicitRequestParams` of the newest revisions by test/runtime/elicitation-types.test.ts.
 */
export type ElicitParams = ElicitFormParams | ElicitUrlParams;

export interface ElicitResult {
  readonly action: "accept" | "decline" | "cancel";
  readonly content?: Readonly<Record<string, unknown>>;
  readonly [key: string]: unknown;
}

export interface CreateMessageParams {
  readonly messages: readonly { readonly role: string; readonly content: unknown }[];
  readonly maxTokens: number;
  readonly [key: string]: unknown;
}

export interface CreateMessageResult {
  readonly role: string;
  readonly content: unknown;
  readonly model: string;
  readonly stopReason?: string;
  readonly [key: string]: unknown;
}

export interface Root {
  readonly uri: string;
  readonly name?: string;
  readonly [key: string]: unknown;
}

export interface ListRootsResult {
  readonly roots: readonly Root[];
  readonly [key: string]: unknown;
}

export interface PaginatedResult {
  readonly nextCursor?: string;
  readonly [key: string]: unknown;
}

export interface ListToolsResult extends PaginatedResult {
  readonly tools: readonly ToolDefinition[];
}
export interface ListResourcesResult extends PaginatedResult {
  readonly resources: readonly ResourceDefinition[];
}
export interface ListResourceTemplatesResult extends PaginatedResult {
  readonly resourceTemplates: readonly ResourceTemplateDefinition[];
}
export interface ListPromptsResult extends PaginatedResult {
  readonly prompts: readonly PromptDefinition[];
}

/** Which notifications a stateless-era `subscriptions/listen` stream carries. */
export interface SubscriptionFilter {
  readonly toolsListChanged?: boolean;
  readonly promptsListChanged?: boolean;
  readonly resourcesListChanged?: boolean;
  readonly resourceSubscriptions?: readonly string[];
}
