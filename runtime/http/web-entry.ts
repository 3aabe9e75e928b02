/**
 * The web-standard HTTP entry (`@mcp-gen/runtime/http/web`): the MCP endpoint as `Request → Response` for Workers,
 * Deno, Bun and Hono, without the `node:http` edge and `serve()` (those are on `@mcp-gen/runtime/http`). Everything
 * reachable from here uses web APIs only; test/runtime/http/server/web-only.test.ts bundles this module for a neutral platform and
 * fails on any `node:` import or use of `Buffer`, `process` or `setImmediate`.
 */
export {
  McpHttpHandler,
  mintSessionId,
  type DrainOptions,
  type EndpointState,
  type HealthOptions,
  type McpHttpOptions,
  type SessionHost,
} from "./server/handler.ts";
export { toFetchHandler, fromWebRequest, toWebResponse } from "./server/web.ts";
export type { HostTool, LegacyPaths } from "./server/options.ts";
export { InMemoryEventStore, type EventStore } from "./server/event-store.ts";
export { LOOPBACK_HOSTS, type HostGuardOptions } from "./server/guards.ts";
export { headerParamsFromTools, type HeaderParamsLookup } from "./server/stateless-checks.ts";
export { encodeHeaderValue, decodeHeaderValue, headerParamsOf, type HeaderParam } from "./mcp-headers.ts";
export type { ResponseMode } from "./server/exchange.ts";
export type { HttpRequestIn, HttpResponseOut } from "./server/types.ts";
