/**
 * The weather example on Cloudflare Workers (or plain workerd): a module worker whose MCP handler is built at module
 * scope, once per isolate. Workers give no affinity between requests, so it serves statelessly: `sessions: false`
 * for the 2025 revisions, and for 2026-07-28 multi-round-trip calls every isolate unseals the request state with the
 * same key, an environment secret (`wrangler secret put MCP_REQUEST_STATE_KEY`). Bundle: see README.md here.
 */
import { env } from "cloudflare:workers";
import { McpHttpHandler, toFetchHandler } from "@mcp-gen/runtime/http/web";
import { createServer } from "../weather/generated/index.ts";
import { handlers } from "../weather/handlers.ts";

const server = createServer(handlers, { requestStateKey: requiredSecret("MCP_REQUEST_STATE_KEY") });
const handler = new McpHttpHandler(server, {
  sessions: false,
  allowedHosts: (env["MCP_ALLOWED_HOSTS"] ?? "localhost,127.0.0.1").split(","),
});

export default { fetch: toFetchHandler(handler) };

function requiredSecret(name: string): string {
  const value = env[name];
  if (!value) throw new Error(`${name} is not set: every isolate needs the same request-state key`);
  return value;
}
