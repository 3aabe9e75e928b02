/**
 * A Streamable HTTP MCP server on the official SDK (v1, stateless) that takes a personal access token: every request
 * must carry `Authorization: Bearer $PAT` and `?api_key=$API_KEY`, else 401 (no OAuth offered). Prints
 * `listening <port>` on stdout once it listens on 127.0.0.1.
 */
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

const { PAT, API_KEY } = process.env;
const http = createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  if (req.headers.authorization !== `Bearer ${PAT}` || url.searchParams.get("api_key") !== API_KEY) {
    res.writeHead(401, { "content-type": "text/plain" }).end("a personal access token is required");
    return;
  }
  const server = new McpServer({ name: "pat-server", version: "1.0.0" });
  server.registerTool("whoami", { description: "Says who the token belongs to." }, async () => ({
    content: [{ type: "text", text: "the owner of the token" }],
  }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on("close", () => void transport.close());
  await server.connect(transport);
  await transport.handleRequest(req, res);
});
http.listen(0, "127.0.0.1", () => console.log(`listening ${http.address().port}`));
