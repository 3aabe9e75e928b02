/**
 * End to end over real loopback HTTP with the runtime's McpServer and McpClient: our client ↔ our server for every
 * revision (2024-11-05 also over the legacy HTTP+SSE transport), and the official SDK v1 and v2 clients against our server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema, ElicitRequestSchema, LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { McpClient, SUPPORTED_REVISIONS } from "../../runtime/index.ts";
import { StreamableHttpClientTransport } from "../../runtime/http/client-transport.ts";
import { serve, type RunningServer } from "../../runtime/http/node.ts";
import { createEverythingServer } from "./fixtures/everything-server.ts";

let server: RunningServer;
let legacyOnly: RunningServer;

beforeAll(async () => {
  server = await serve(createEverythingServer());
  // An "old" deployment: only the 2024-11-05 HTTP+SSE endpoints answer at /mcp.
  legacyOnly = await serve(createEverythingServer(), { path: "/streamable", legacySse: { ssePath: "/mcp", messagesPath: "/messages" } });
});
afterAll(async () => {
  await server.close();
  await legacyOnly.close();
});

describe("our client ↔ our server", () => {
  for (const revision of SUPPORTED_REVISIONS) {
    it(`speaks ${revision} over Streamable HTTP`, async () => {
      const client = new McpClient({
        info: { name: "e2e", version: "1.0.0" },
        revisions: [revision],
        handlers: { sampling: async () => ({ role: "assistant", content: { type: "text", text: "Paris" }, model: "m" }) },
      });
      await client.connect(new StreamableHttpClientTransport(server.url));
      expect(client.revision).toBe(revision);
      const tools = await client.listAllTools();
      expect(tools.map((t) => t.name)).toContain("test_simple_text");
      const simple = await client.callTool("test_simple_text", {});
      expect(simple.content).toEqual([{ type: "text", text: "This is a simple text response for testing." }]);
      const progress: number[] = [];
      await client.callTool("test_tool_with_progress", {}, { onProgress: (p) => void progress.push(p.progress) });
      expect(progress).toEqual([0, 50, 100]);
      const sampled = await client.callTool("test_sampling", { prompt: "Capital of France?" });
      expect(sampled.content).toEqual([{ type: "text", text: "LLM response: Paris" }]);
      await client.close();
    });
  }

  it("falls back to the legacy HTTP+SSE transport for an old server", async () => {
    const client = new McpClient({ info: { name: "e2e", version: "1.0.0" }, revisions: ["2024-11-05"] });
    await client.connect(new StreamableHttpClientTransport(legacyOnly.url));
    const simple = await client.callTool("test_simple_text", {});
    expect(simple.content).toEqual([{ type: "text", text: "This is a simple text response for testing." }]);
    await client.close();
  });
});

describe("official SDK clients against our server", () => {
  it("SDK v1: tools, logging on the request stream, sampling and elicitation", async () => {
    const client = new ClientV1({ name: "v1", version: "1.0.0" }, { capabilities: { sampling: {}, elicitation: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({ role: "assistant", content: { type: "text", text: "hi" }, model: "m" }));
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { username: "ada", email: "ada@example.com" } }));
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
    const transport = new TransportV1(new URL(server.url));
    await client.connect(transport);
    await client.setLoggingLevel("debug");
    await client.callTool({ name: "test_tool_with_logging", arguments: {} });
    expect(logs).toEqual(["Tool execution started", "Tool processing data", "Tool execution completed"]);
    const sampled = await client.callTool({ name: "test_sampling", arguments: { prompt: "x" } });
    expect(sampled.content).toEqual([{ type: "text", text: "LLM response: hi" }]);
    const elicited = await client.callTool({ name: "test_elicitation", arguments: { message: "who?" } });
    expect(JSON.stringify(elicited.content)).toContain("ada@example.com");
    await transport.terminateSession();
    await client.close();
  });

  it("SDK v2: the 2026-07-28 stateless wire (server/discover, then calls)", async () => {
    const client = new ClientV2({ name: "v2", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(new TransportV2(new URL(server.url)));
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain("test_simple_text");
    const result = await client.callTool({ name: "test_simple_text", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "This is a simple text response for testing." }]);
    await client.close();
  });

  it("SDK v2 on the 2025 wire", async () => {
    const client = new ClientV2({ name: "v2", version: "1.0.0" }, { versionNegotiation: { mode: "legacy" } });
    await client.connect(new TransportV2(new URL(server.url)));
    expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    const result = await client.callTool({ name: "test_simple_text", arguments: {} });
    expect(result.content).toEqual([{ type: "text", text: "This is a simple text response for testing." }]);
    await client.close();
  });
});
