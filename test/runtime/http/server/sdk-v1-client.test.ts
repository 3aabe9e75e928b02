/** The official SDK v1 client (Streamable HTTP and legacy SSE) against our HTTP layer, over real loopback HTTP. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { CreateMessageRequestSchema, LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { serve, type RunningServer } from "../../../../runtime/http/server/node.ts";
import { FixtureHost } from "../fixtures/fixture-host.ts";
import { waitFor } from "../helpers.ts";

let server: RunningServer;
const host = new FixtureHost();

beforeAll(async () => {
  server = await serve(host);
});
afterAll(async () => {
  await server.close();
});

function newClient(): Client {
  const client = new Client({ name: "sdk-v1", version: "1.0.0" }, { capabilities: { sampling: {} } });
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: "assistant",
    content: { type: "text", text: "forty-two" },
    model: "test-model",
  }));
  return client;
}

describe("SDK v1 Streamable HTTP client against our server", () => {
  it("initializes, lists and calls tools, and gets a session id", async () => {
    const client = newClient();
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    await client.connect(transport);
    expect(transport.sessionId).toMatch(/^[\x21-\x7e]+$/);
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain("echo");
    const result = await client.callTool({ name: "echo", arguments: { text: "hello" } });
    expect(result.content).toEqual([{ type: "text", text: "hello" }]);
    await client.close();
  });

  it("gets log notifications on the request's stream and answers a sampling request", async () => {
    const client = newClient();
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    const logged = await client.callTool({ name: "progress", arguments: {} });
    expect(logged.content).toEqual([{ type: "text", text: "logged" }]);
    expect(logs).toEqual(["one", "two", "three"]);
    const sampled = await client.callTool({ name: "sample", arguments: {} });
    expect(sampled.content).toEqual([{ type: "text", text: "model said: forty-two" }]);
    await client.close();
  });

  it("ends the session with DELETE; the id is then unknown (404)", async () => {
    const client = newClient();
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    await client.connect(transport);
    const id = transport.sessionId!;
    const openBefore = host.open;
    await transport.terminateSession();
    await waitFor(() => host.open === openBefore - 1);
    const after = await fetch(server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-session-id": id,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" }),
    });
    expect(after.status).toBe(404);
    await client.close();
  });

  it("speaks the legacy HTTP+SSE transport to an old client", async () => {
    const client = newClient();
    await client.connect(new SSEClientTransport(new URL(server.url.replace("/mcp", "/sse"))));
    const result = await client.callTool({ name: "echo", arguments: { text: "old" } });
    expect(result.content).toEqual([{ type: "text", text: "old" }]);
    const open = host.open;
    const sessions = server.handler.sessionCount;
    await client.close();
    // Closing the SSE stream ends the legacy session and frees it.
    await waitFor(() => host.open === open - 1 && server.handler.sessionCount === sessions - 1);
  });
});
