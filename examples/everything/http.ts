/**
 * The conformance server over Streamable HTTP on 127.0.0.1 (DNS-rebinding protection on):
 * `npx tsx examples/everything/http.ts [port]` prints the MCP endpoint URL, e.g. http://127.0.0.1:3000/mcp.
 */
import { serve } from "@mcp-gen/runtime/http";
import { createServer } from "./generated/index.ts";
import { handlers } from "./handlers.ts";

const port = Number(process.argv[2] ?? process.env["PORT"] ?? 0);
const server = createServer(handlers, { onDiagnostic: (message) => process.stderr.write(`everything: ${message}\n`) });
const running = await serve(server, { port });
process.stdout.write(`${running.url}\n`);
