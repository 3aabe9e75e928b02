/**
 * A stdio MCP server on the official SDK (v1) that serves the tools listed in a JSON file (its first argument),
 * read when it starts: editing the file between two runs changes what the server serves. A tool call answers
 * with the tool's name.
 */
import { readFileSync } from "node:fs";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const tools = JSON.parse(readFileSync(process.argv[2], "utf8"));
const server = new Server({ name: "tools-file-server", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, (request) => ({
  content: [{ type: "text", text: request.params.name }],
}));
await server.connect(new StdioServerTransport());
