/**
 * Types of a core method across the built-in revisions, for the code that serves or calls any of them: for each
 * method, the union of what the revisions that have it define, so a value is typed exactly as one of the revisions
 * a peer may negotiate. Derived from the generated method tables; nothing here is written by hand. Server and
 * client both read them here (neither may import the other).
 */
import type { revisions } from "../generated/protocol/revisions.ts";
import type { CompleteResultOf, ParamsOf, ResultOf } from "./method-type.ts";

type BuiltinTable = (typeof revisions)[keyof typeof revisions]["methods"];

/** A method of any built-in revision. */
export type BuiltinMethod = BuiltinTable extends infer Table
  ? Table extends unknown
    ? keyof Table & string
    : never
  : never;

/** The token of `method` in each built-in revision that has it (a union). */
export type BuiltinToken<M extends string> = BuiltinTable extends infer Table
  ? Table extends { readonly [K in M]: infer Token }
    ? Token
    : never
  : never;

/** A method's complete result in any built-in revision. */
export type BuiltinResult<M extends string> =
  BuiltinToken<M> extends infer Token ? (Token extends unknown ? CompleteResultOf<Token> : never) : never;
/** A method's params in any built-in revision. */
export type BuiltinParams<M extends string> =
  BuiltinToken<M> extends infer Token ? (Token extends unknown ? ParamsOf<Token> : never) : never;
/** A method's full result (with an `InputRequiredResult` member where the revision has one) in any built-in revision. */
export type BuiltinAnswer<M extends string> =
  BuiltinToken<M> extends infer Token ? (Token extends unknown ? ResultOf<Token> : never) : never;

/** A peer's name and version (`clientInfo`, `serverInfo`) in any built-in revision. */
export type Implementation = BuiltinParams<"initialize">["clientInfo"];
/** Which notifications a stateless-era `subscriptions/listen` stream carries. */
export type SubscriptionFilter = BuiltinParams<"subscriptions/listen">["notifications"];
export type CompleteParams = BuiltinParams<"completion/complete">;

// ---- The protocol shapes the convenience API names (`callTool`, handlers, generated code), as aliases ----------

/** Declared property names of `T`, without its index signature. */
type KnownKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: unknown };
type KeyOfAnyMember<U> = U extends unknown ? KnownKeys<U> : never;
/**
 * Each member of union `U` with the fields only other members declare marked absent (`?: never`): any member's field
 * then reads as `T | undefined` without narrowing (`tool.title` of a 2024-11-05 tool is `undefined`), and a literal
 * discriminant absent from older revisions (`ElicitParams["mode"]`) narrows the union.
 */
type Exclusive<U, All = U> = U extends unknown
  ? U & { readonly [K in Exclude<KeyOfAnyMember<All>, KnownKeys<U>>]?: never }
  : never;
/** The members of `U` that accept any further field (an index signature), such as the newest revisions' JSON Schemas. */
type OpenMembers<U> = U extends unknown ? (string extends keyof U ? U : never) : never;

export type CallToolResult = BuiltinResult<"tools/call">;
/** A content block of a tool result: narrow on `type` (`"text"`, `"image"`, …; which ones depends on the revision). */
export type ContentBlock = CallToolResult["content"][number];
export type ListToolsResult = BuiltinResult<"tools/list">;
export type ToolDefinition = Exclusive<ListToolsResult["tools"][number]>;
/** A tool's `inputSchema` as the revisions that take any JSON Schema keyword declare it (what a manifest's schemas are). */
export type ToolInputSchema = OpenMembers<ToolDefinition["inputSchema"]>;

export type ListResourcesResult = BuiltinResult<"resources/list">;
export type ResourceDefinition = Exclusive<ListResourcesResult["resources"][number]>;
export type ListResourceTemplatesResult = BuiltinResult<"resources/templates/list">;
export type ResourceTemplateDefinition = Exclusive<ListResourceTemplatesResult["resourceTemplates"][number]>;
export type ReadResourceResult = BuiltinResult<"resources/read">;
/** One item of `contents`: narrow with `"text" in item` / `"blob" in item`. */
export type ResourceContents = ReadResourceResult["contents"][number];

export type ListPromptsResult = BuiltinResult<"prompts/list">;
export type PromptDefinition = Exclusive<ListPromptsResult["prompts"][number]>;
export type PromptArgument = NonNullable<PromptDefinition["arguments"]>[number];
export type GetPromptResult = BuiltinResult<"prompts/get">;
export type PromptMessage = GetPromptResult["messages"][number];

export type CompleteResult = BuiltinResult<"completion/complete">;

/**
 * `elicitation/create` params: narrow on `mode` (`"url"`, else form; 2025-06-18 has no `mode` and only forms).
 * `elicitationId` (URL mode) exists in 2025-11-25 only, so it reads as `string | undefined`.
 */
export type ElicitParams = Exclusive<BuiltinParams<"elicitation/create">>;
export type ElicitUrlParams = Extract<ElicitParams, { readonly mode: "url" }>;
export type ElicitFormParams = Exclude<ElicitParams, { readonly mode: "url" }>;
/** The form of a form-mode elicitation: a flat object schema of primitive properties. */
export type ElicitRequestedSchema = ElicitFormParams["requestedSchema"];
export type ElicitResult = BuiltinAnswer<"elicitation/create">;
export type CreateMessageParams = BuiltinParams<"sampling/createMessage">;
export type CreateMessageResult = BuiltinAnswer<"sampling/createMessage">;
export type ListRootsResult = BuiltinAnswer<"roots/list">;
export type Root = ListRootsResult["roots"][number];
