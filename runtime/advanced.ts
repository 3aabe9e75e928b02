/**
 * mcp-gen runtime: the advanced entry (`@mcp-gen/runtime/advanced`). Internals for code that builds on the runtime's
 * machinery rather than on `McpServer` / `McpClient`: the JSON-RPC engine over a `Transport`, the era rules, how a
 * `revisions` list is ranked, and the built-in wire versions. What a server or client application writes against is
 * on the core entry (`@mcp-gen/runtime`); nothing here is exported from another entry.
 */
export { JsonRpcEngine } from "./protocol/engine.ts";
export type { EngineHandlers, IncomingRequest, ProgressUpdate, RequestOptions } from "./protocol/engine.ts";
export { ERA_RULES } from "./protocol/era.ts";
export type { EraRules } from "./protocol/era.ts";
export { rankProfiles } from "./protocol/preference.ts";
export type { RevisionFacts } from "./protocol/preference.ts";
export type { RevisionProfile } from "./protocol/profiles.ts";
