/**
 * mcp-gen runtime: the public entry.
 *
 * Layers (each imports only those before it): `jsonrpc/` (framing, messages, errors) → `transport/` (the `Transport`
 * contract, stdio, in-memory) → `protocol/` (method tokens, the JSON-RPC engine over a transport, revision profiles
 * derived from `runtime/generated/protocol/`, capabilities, `_meta`, validation) → `server/` and `client/` → `auth/` and
 * `http/` (Streamable HTTP and HTTP+SSE, both sides).
 *
 * Server:
 * ```ts
 * const server = new McpServer({ info: { name: "demo", version: "1.0.0" }, revisions: builtinRevisions })
 *   .tool({ name: "add", inputSchema: { type: "object" } }, ({ a, b }, ctx) => ({
 *     content: [{ type: "text", text: String(a + b) }],
 *   }), { arguments: AddArgsSchema });
 * await server.connect(new StdioServerTransport()); // one ServerSession per connection; HTTP calls connect per session/request
 * ```
 * Handlers get a `RequestContext` (request id, AbortSignal, progress, logger, revision/era, client info and
 * capabilities, `authInfo`/`headers` from HTTP) and may call `ctx.elicit`/`ctx.createMessage`/`ctx.listRoots` in
 * every era: server→client requests in the handshake era, multi round-trip rounds (HMAC-protected `requestState`)
 * in the stateless era, where the handler re-runs on the client's retry with earlier answers replayed in call order
 * (inputs are keyed `input-0`, `input-1`, … unless the handler names them: `ctx.elicit(params, { key: "user_name" })`).
 * Over Streamable HTTP with resumable streams, `ctx.closeSseStream()` ends the answer's connection early and the client
 * resumes it with Last-Event-ID (SSE polling).
 * Tool handler errors become `isError` results; `RpcError`s pass through as JSON-RPC errors; a resource or template
 * handler throws `ResourceNotFoundError` for the revision's resource-not-found error.
 *
 * Revisions are values: `revisions: [r2026_07_28, myDraft]` takes the `revision` descriptor a `mcp-gen protocol` folder
 * (or `@mcp-gen/runtime/protocol/<name>`) exports, `builtinRevisions` every built-in one; nothing registers globally.
 * The wire version is the descriptor's `version`; preference never depends on names (protocol/preference.ts). Any method of a
 * served revision or of a declared extension (`extensions: [{ id, methods }]`, served to clients that declare the
 * same id) gets a handler by token, typed by it: `server.setRequestHandler(methods["echo/say"], (params, ctx) => …)`.
 * Internals (the JSON-RPC engine, era rules, revision ranking) are on `@mcp-gen/runtime/advanced` (advanced.ts).
 *
 * Client:
 * ```ts
 * const client = new McpClient({ info: { name: "app", version: "1.0.0" }, revisions: builtinRevisions, handlers: { elicitation: async (p) => ({ action: "decline" }) } });
 * await client.connect(new StdioClientTransport({ command: "node", args: ["server.js"] })); // from "@mcp-gen/runtime/node"
 * client.revision; // negotiated: server/discover probe first, initialize as the fallback
 * const result = await client.callTool("add", { a: 1, b: 2 }, { timeoutMs: 5000, onProgress: (p) => …, signal });
 * await client.request("tools/list", {}); // any method of the negotiated revision, validated by its table
 * ```
 */
export {
  ConnectionClosedError,
  ErrorCode,
  RuntimeErrorCode,
  ProtocolUsageError,
  RequestCancelledError,
  RequestTimeoutError,
  RpcError,
  TransportRefusalError,
} from "./jsonrpc/errors.ts";
export type {
  JsonRpcErrorObject,
  JsonRpcId,
  JsonRpcMessage,
  JsonRpcRequest,
  JsonRpcNotification,
} from "./jsonrpc/messages.ts";

export type {
  AuthInfo,
  IncomingContext,
  OutgoingOptions,
  ReopenableTransport,
  Transport,
  TransportSink,
} from "./transport/transport.ts";
export { createMemoryTransportPair } from "./transport/memory.ts";
export type { MemoryPairOptions } from "./transport/memory.ts";
export { StdioServerTransport } from "./transport/stdio-server.ts";
export type { StdioServerTransportOptions } from "./transport/stdio-server.ts";

export { LOG_LEVELS, MetaKey } from "./protocol/meta.ts";
export type { LogLevel } from "./protocol/meta.ts";
export type { Era } from "./protocol/profiles.ts";
export { builtinRevisions } from "./protocol/builtin-revisions.ts";
export { SUPPORTED_REVISIONS } from "./protocol/preference.ts";
export { InvalidMessageError } from "./protocol/validation.ts";
export type { ValidationIssue, Validator } from "./protocol/validation.ts";
export { jsonSchemaCheck } from "./protocol/json-schema-check.ts";
export {
  built,
  closedObject,
  exactly,
  indexedObject,
  objectValue,
  openObject,
  optionalKey,
  ownKeys,
} from "./protocol/zod-helpers.ts";
export type { ObjectSchema } from "./protocol/zod-helpers.ts";

export { McpServer } from "./server/server.ts";
export { hasCapability, layerCapabilities } from "./protocol/capabilities.ts";
export { extensionApplies, missingExtensionError, type ExtensionScope } from "./protocol/extensions.ts";
export type {
  Completer,
  HandlerResult,
  ServerNotificationHandler,
  ServerRequestHandler,
  PromptHandler,
  PromptOptions,
  ResourceHandler,
  ResourceTemplateHandler,
  ResourceTemplateOptions,
  ServerOptions,
  ToolHandler,
  ToolOptions,
} from "./server/options.ts";
export type {
  FeatureRequest,
  FeatureServer,
  ListenAddition,
  ServerExtension,
  ServerFeature,
  ToolCallRunner,
  ToolCallTarget,
} from "./server/extension.ts";
export { ResourceNotFoundError } from "./server/errors.ts";
export type { InputOptions, RequestContext, RequestLogger, ServerSession } from "./server/context.ts";
export { registerTypedTools } from "./server/typed-tools.ts";
export type {
  ContentToolResult,
  StructuredToolResult,
  TypedToolHandler,
  TypedToolHandlers,
  TypedTools,
  TypedToolValidators,
} from "./server/typed-tools.ts";

export { McpClient } from "./client/client.ts";
export type { CallOptions, ClientOptions, PageParams, Subscription } from "./client/client.ts";
export type { ClientHandlers, ClientRequestContext, RequestHandler } from "./client/handlers.ts";
export type {
  ClientExtension,
  ClientFeature,
  FeatureClient,
  InputRequests,
  ListenStream,
} from "./client/extensions.ts";
export type { RequestFacts } from "./client/era.ts";
export type { CallerParamsOf } from "./client/tokens.ts";
export type {
  BuiltinMethod,
  BuiltinParams,
  BuiltinResult,
  BuiltinToken,
  CallToolResult,
  CompleteParams,
  CompleteResult,
  ContentBlock,
  CreateMessageParams,
  CreateMessageResult,
  ElicitFormParams,
  ElicitParams,
  ElicitRequestedSchema,
  ElicitResult,
  ElicitUrlParams,
  GetPromptResult,
  Implementation,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListRootsResult,
  ListToolsResult,
  PromptArgument,
  PromptDefinition,
  PromptMessage,
  ReadResourceResult,
  ResourceContents,
  ResourceDefinition,
  ResourceTemplateDefinition,
  Root,
  SubscriptionFilter,
  ToolDefinition,
  ToolInputSchema,
} from "./protocol/builtin-types.ts";
export { NegotiationError } from "./client/negotiate.ts";
export { expandUriTemplate, uriTemplateVariables } from "./protocol/uri-template.ts";
export type { UriTemplateValue } from "./protocol/uri-template.ts";
export { callStructured, callTool, getPrompt, ToolCallError } from "./client/typed-tools.ts";
export type { StructuredToolCall } from "./client/typed-tools.ts";

export type { Awaitable, JsonObject, JsonValue } from "./protocol/helper-types.ts";
export { ProtocolNotificationType, ProtocolRequestType } from "./protocol/method-type.ts";
export type {
  AnyMethodType,
  CapabilityGate,
  MethodTable,
  ParamsOf,
  ResultOf,
  RevisionDescriptor,
} from "./protocol/method-type.ts";
