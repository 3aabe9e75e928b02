/**
 * An MCP server on the official SDK (v1) that serves whatever lists it is given, every field as given (duplicates,
 * `_meta`, `execution`, any name): `{ tools, resources, resourceTemplates, prompts }`, and `instructions` when given.
 * - `lists-server.mjs <file>`: stdio; the lists are read from the JSON file when it starts.
 * - `lists-server.mjs --http`: Streamable HTTP (stateless, JSON answers) on a free loopback port, printed on stdout
 *   as `{"port":N}`; `POST /lists` with the lists as its body replaces them (answered 204), `/mcp` is the endpoint.
 */
import { readFileSync } from "node:fs";
import { Buffer } from "node:buffer";
import http from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

let lists = {};

function mcpServer() {
  const server = new Server(
    { name: "lists-server", version: "1.0.0" },
    {
      capabilities: { tools: {}, resources: {}, prompts: {} },
      ...(typeof lists.instructions === "string" ? { instructions: lists.instructions } : {}),
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: lists.tools ?? [] }));
  server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: lists.resources ?? [] }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: lists.resourceTemplates ?? [],
  }));
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: lists.prompts ?? [] }));
  server.setRequestHandler(CallToolRequestSchema, (request) => ({
    content: [{ type: "text", text: request.params.name }],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => ({
    contents: [{ uri: request.params.uri, text: "" }],
  }));
  server.setRequestHandler(GetPromptRequestSchema, () => ({ messages: [] }));
  return server;
}

const body = (request) =>
  new Promise((resolve, reject) => {
    const chunks = [];
    request.on("data", (c) => chunks.push(c));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });

if (process.argv[2] === "--http") {
  const httpServer = http.createServer(async (request, response) => {
    try {
      if (request.url === "/lists" && request.method === "POST") {
        lists = JSON.parse(await body(request));
        response.writeHead(204).end();
        return;
      }
      if (request.url !== "/mcp" || request.method !== "POST") {
        response.writeHead(405, { allow: "POST" }).end();
        return;
      }
      const server = mcpServer();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      response.on("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request, response, JSON.parse(await body(request)));
    } catch (error) {
      if (!response.headersSent) response.writeHead(500);
      response.end(String(error));
    }
  });
  httpServer.listen(0, "127.0.0.1", () => {
    process.stdout.write(`${JSON.stringify({ port: httpServer.address().port })}\n`);
  });
} else {
  lists = JSON.parse(readFileSync(process.argv[2], "utf8"));
  await mcpServer().connect(new StdioServerTransport());
}
