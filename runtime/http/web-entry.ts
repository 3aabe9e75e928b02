/**
 * The web-standard HTTP entry (`@mcp-gen/runtime/http/web`): the MCP endpoint as `Request → Response` for Workers,
 * Deno, Bun and Hono, without the `node:http` edge and `serve()` (those are on `@mcp-gen/runtime/http`). Everything
 * reachable from here uses web APIs only; test/http/web-only.test.ts bundles this module for a neutral platform and
 * fails on any `node:` import or use of `Buffer`, `process` or `setImmediate`.
 */
export { McpHttpHandler, mintSessionId, type McpHttpOptions, type SessionHost } from "./handler.ts";
export { toFetchHandler, fromWebRequest, toWebResponse } from "./web.ts";
export type { HostTool, LegacyPaths } from "./options.ts";
export { InMemoryEventStore, type EventStore } from "./event-store.ts";
export { LOOPBACK_HOSTS, type HostGuardOptions } from "./guards.ts";
export { headerParamsFromTools, type HeaderParamsLookup } from "./stateless-checks.ts";
export { encodeHeaderValue, decodeHeaderValue, headerParamsOf, type HeaderParam } from "./mcp-headers.ts";
export type { ResponseMode } from "./exchange.ts";
export type { HttpRequestIn, HttpResponseOut } from "./types.ts";
export * from "../auth/bearer.ts";
export * from "../auth/metadata.ts";
export * from "../auth/jwt.ts";
export * from "../auth/principal.ts";
