/**
 * MCP over HTTP. Server: `serve(server, options)` for one line on `node:http`; `new McpHttpHandler(server, options)`
 * with `toFetchHandler` (web `Request → Response`: Bun, Deno, workers, Hono) or `toNodeListener` (node:http,
 * Express). Client: `StreamableHttpClientTransport` for every revision (falls back to legacy HTTP+SSE).
 * Auth (resource server): `auth: { verifyToken, resourceMetadata, … }` in the options; the verifiers, metadata and
 * the OAuth client are on `@mcp-gen/runtime/auth` (this entry does not re-export them).
 * Workers, Deno, Bun: import from `@mcp-gen/runtime/http/web` (web-entry.ts), the same server side without the
 * `node:http` edge, on web APIs only.
 */
export { McpHttpHandler, mintSessionId, type McpHttpOptions, type SessionHost } from "./server/handler.ts";
export { toFetchHandler, fromWebRequest, toWebResponse } from "./server/web.ts";
export {
  serve,
  SERVE_DEFAULTS,
  toNodeListener,
  fromNodeRequest,
  writeNodeResponse,
  type RunningServer,
  type ServeOptions,
  type NodeListener,
} from "./server/node.ts";
export type { HostTool, LegacyPaths } from "./server/options.ts";
export { InMemoryEventStore, type EventStore } from "./server/event-store.ts";
export {
  memoryStateStore,
  StoreUnavailableError,
  type MemoryStateStore,
  type Broadcast,
  type BusMessage,
  type MemoryStoreOptions,
  type SessionRecord,
  type SessionStore,
  type StateStore,
} from "./server/shared-state.ts";
export { LOOPBACK_HOSTS, type HostGuardOptions } from "./server/guards.ts";
export { headerParamsFromTools, type HeaderParamsLookup } from "./server/stateless-checks.ts";
export { encodeHeaderValue, decodeHeaderValue, headerParamsOf, type HeaderParam } from "./mcp-headers.ts";
export { StreamableHttpClientTransport, HttpError, type HttpClientOptions } from "./client/transport.ts";
export type { ResponseMode } from "./server/exchange.ts";
export type { HttpRequestIn, HttpResponseOut } from "./server/types.ts";
