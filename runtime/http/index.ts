/**
 * MCP over HTTP. Server: `serve(server, options)` for one line on `node:http`; `new McpHttpHandler(server, options)`
 * with `toFetchHandler` (web `Request → Response`: Bun, Deno, workers, Hono) or `toNodeListener` (node:http,
 * Express). Client: `StreamableHttpClientTransport` for every revision (falls back to legacy HTTP+SSE).
 * Auth (resource server): `auth: { verifyToken, resourceMetadata, … }` in the options; the verifiers, metadata and
 * the OAuth client are on `@mcp-gen/runtime/auth` (this entry does not re-export them).
 * Workers, Deno, Bun: import from `@mcp-gen/runtime/http/web` (web-entry.ts), the server side without the
 * `node:http` edge, on web APIs only; its options, event store, host guard and header helpers are exported there only
 * (one name, one home), and only `McpHttpHandler` and `toFetchHandler` here too.
 */
// The two names the Node examples use beside `toNodeListener`; the rest of the web side is /http/web's only.
export { McpHttpHandler } from "./server/handler.ts";
export { toFetchHandler } from "./server/web.ts";
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
export { StreamableHttpClientTransport, HttpError, type HttpClientOptions } from "./client/transport.ts";
