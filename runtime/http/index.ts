/**
 * MCP over HTTP. Server: `serve(server, options)` for one line on `node:http`; `new McpHttpHandler(server, options)`
 * with `toFetchHandler` (web `Request → Response`: Bun, Deno, workers, Hono) or `toNodeListener` (node:http,
 * Express). Client: `StreamableHttpClientTransport` for every revision (falls back to legacy HTTP+SSE).
 * Auth (resource server): `auth: { verifyToken, resourceMetadata, … }` in the options; the verifiers, metadata and
 * the OAuth client are on `@mcp-gen/runtime/auth` (this entry does not re-export them).
 * The handler itself (`McpHttpHandler`, `toFetchHandler`, its options, event store, host guard and header helpers) is
 * `@mcp-gen/runtime/http/web`'s (web-entry.ts: web APIs only, for Workers, Deno and Bun too), never repeated here:
 * one name, one home. This entry adds the `node:http` edge.
 */
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
  type AnswerRoute,
  type BusMessage,
  type MemoryStoreOptions,
  type SessionRecord,
  type SessionStore,
  type StateStore,
} from "./server/shared-state.ts";
export { StreamableHttpClientTransport, HttpError, type HttpClientOptions } from "./client/transport.ts";
