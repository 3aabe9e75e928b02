/** The signup example as a module worker, built like examples/workers/worker.ts (stateless, shared state key). */
import { env } from "cloudflare:workers";
import { McpHttpHandler, toFetchHandler } from "@mcp-gen/runtime/http/web";
import { createServer } from "./generated/index.ts";
import { handlers } from "./handlers.ts";

const key = env["MCP_REQUEST_STATE_KEY"];
if (!key) throw new Error("MCP_REQUEST_STATE_KEY is not set");
const handler = new McpHttpHandler(createServer(handlers, { requestStateKey: key }), { sessions: false });

export default { fetch: toFetchHandler(handler) };
