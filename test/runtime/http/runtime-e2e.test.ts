/**
 * End to end over real loopback HTTP with the conformance server (examples/everything: its generated `createServer`
 * and handlers) and the runtime's McpClient: our client ↔ our server for every revision (2024-11-05 also over the
 * legacy HTTP+SSE transport), and the official SDK v1 and v2 clients against our server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { builtinRevisions, McpClient, SUPPORTED_REVISIONS } from "../../../runtime/index.ts";
import { StreamableHttpClientTransport } from "../../../runtime/http/client/transport.ts";
import { serve, type RunningServer } from "../../../runtime/http/server/node.ts";
import { createServer } from "../../../examples/everything/generated/index.ts";
import { handlers } from "../../../examples/everything/handlers.ts";
import { JSON_HEADERS, modernMeta, post, waitFor } from "./helpers.ts";

const createEverythingServer = () => createServer(handlers);
let server: RunningServer;
let legacyOnly: RunningServer;

beforeAll(async () => {
  server = await serve(createEverythingServer());
  // An "old" deployment: only the 2024-11-05 HTTP+SSE endpoints answer at /mcp.
  legacyOnly = await serve(createEverythingServer(), {
    path: "/streamable",
    legacySse: { ssePath: "/mcp", messagesPath: "/messages" },
  });
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
        revisions: builtinRevisions.filter((r) => r.version === revision),
        handlers: {
          sampling: async () => ({ role: "assistant", content: { type: "text", text: "Paris" }, model: "m" }),
        },
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

  it("2026-07-28: serve() checks a tool's Mcp-Param-* headers, and our client mirrors them", async () => {
    const client = new McpClient({
      info: { name: "e2e", version: "1.0.0" },
      revisions: builtinRevisions.filter((r) => ["2026-07-28"].includes(r.version)),
    });
    await client.connect(new StreamableHttpClientTransport(server.url));
    // Called without listing tools first: the server answers -32020, the transport re-lists the tools and retries.
    const args = { region: "Zürich", query: "rain" };
    expect((await client.callTool("test_custom_header_echo", args)).content).toEqual([
      { type: "text", text: "region=Zürich query=rain" },
    ]);
    await client.close();
    const body = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "test_custom_header_echo", arguments: { region: "eu" }, _meta: modernMeta() },
    };
    const headers = {
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "tools/call",
      "mcp-name": "test_custom_header_echo",
    };
    const missing = await post(server.url, body, headers);
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: { code: number } }).error.code).toBe(-32020);
    const mirrored = await post(server.url, body, { ...headers, "mcp-param-region": "eu" });
    expect(mirrored.status).toBe(200);
  });

  it("2026-07-28: initialize, which that era lacks, gets 404 + -32601 and mints no session", async () => {
    const params = {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
      _meta: modernMeta(),
    };
    const headers = { "mcp-protocol-version": "2026-07-28", "mcp-method": "initialize" };
    const response = await post(server.url, { jsonrpc: "2.0", id: 7, method: "initialize", params }, headers);
    expect(response.status).toBe(404);
    expect(response.headers.get("mcp-session-id")).toBeNull();
    expect(await response.json()).toMatchObject({ id: 7, error: { code: -32601 } });
  });

  it("falls back to the legacy HTTP+SSE transport for an old server", async () => {
    const client = new McpClient({
      info: { name: "e2e", version: "1.0.0" },
      revisions: builtinRevisions.filter((r) => ["2024-11-05"].includes(r.version)),
    });
    await client.connect(new StreamableHttpClientTransport(legacyOnly.url));
    const simple = await client.callTool("test_simple_text", {});
    expect(simple.content).toEqual([{ type: "text", text: "This is a simple text response for testing." }]);
    await client.close();
  });
});

describe("official SDK clients against our server", () => {
  it("SDK v1: tools, logging on the request stream, sampling and elicitation", async () => {
    const client = new ClientV1({ name: "v1", version: "1.0.0" }, { capabilities: { sampling: {}, elicitation: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: "assistant",
      content: { type: "text", text: "hi" },
      model: "m",
    }));
    client.setRequestHandler(ElicitRequestSchema, async () => ({
      action: "accept",
      content: { username: "ada", email: "ada@example.com" },
    }));
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

describe("handshake era without sessions (sessions: false)", () => {
  it("serves every POST on its own: our client and the SDK v1 client, no Mcp-Session-Id minted", async () => {
    const running = await serve(createEverythingServer(), { sessions: false });
    try {
      const ours = new McpClient({
        info: { name: "e2e", version: "1.0.0" },
        revisions: builtinRevisions.filter((r) => ["2025-11-25"].includes(r.version)),
      });
      const transport = new StreamableHttpClientTransport(running.url);
      await ours.connect(transport);
      expect(transport.sessionId).toBeUndefined();
      expect((await ours.callTool("test_simple_text", {})).content).toHaveLength(1);
      await ours.close();
      const sdk = new ClientV1({ name: "v1", version: "1.0.0" });
      const sdkTransport = new TransportV1(new URL(running.url));
      await sdk.connect(sdkTransport);
      expect(sdkTransport.sessionId).toBeUndefined();
      expect((await sdk.listTools()).tools.length).toBeGreaterThan(5);
      await sdk.close();
      expect(running.handler.sessionCount).toBe(0);
    } finally {
      await running.close();
    }
  });
});

describe("server-initiated messages (2025-11-25)", () => {
  it("our client's GET stream receives list_changed sent outside any request", async () => {
    const mcp = createEverythingServer();
    const running = await serve(mcp, { retryMs: 50 });
    try {
      const client = new McpClient({
        info: { name: "e2e", version: "1.0.0" },
        revisions: builtinRevisions.filter((r) => ["2025-11-25"].includes(r.version)),
      });
      await client.connect(new StreamableHttpClientTransport(running.url, { reconnect: { initialDelayMs: 50 } }));
      const changed: unknown[] = [];
      client.on("notifications/tools/list_changed", (p) => void changed.push(p));
      // The GET stream opens in the background after notifications/initialized; a change made before it is open
      // has nowhere to go, so keep changing the tool list until one notification arrives.
      for (let i = 0; changed.length === 0 && i < 50; i++) {
        mcp.tool({ name: `late_tool_${i}`, inputSchema: { type: "object" } }, () => ({ content: [] }));
        await waitFor(() => changed.length > 0, 200).catch(() => undefined);
      }
      expect(changed.length).toBeGreaterThan(0);
      await client.close();
    } finally {
      await running.close();
    }
  });
});

describe("long-lived and abandoned streams (2026-07-28)", () => {
  it("subscriptions/listen over HTTP: acknowledged, receives list_changed, and closing it frees the server session", async () => {
    const mcp = createEverythingServer();
    const running = await serve(mcp);
    try {
      const client = new McpClient({
        info: { name: "e2e", version: "1.0.0" },
        revisions: builtinRevisions.filter((r) => ["2026-07-28"].includes(r.version)),
      });
      await client.connect(new StreamableHttpClientTransport(running.url));
      const changed: unknown[] = [];
      client.on("notifications/tools/list_changed", (p) => void changed.push(p));
      const subscription = await client.listen({ toolsListChanged: true });
      expect(mcp.sessions.size).toBe(1); // only the listen request's session is alive
      mcp.tool({ name: "late_tool", inputSchema: { type: "object" } }, () => ({ content: [] }));
      await waitFor(() => changed.length === 1);
      subscription.close();
      await waitFor(() => mcp.sessions.size === 0);
      await client.close();
    } finally {
      await running.close();
    }
  });

  it("a client that drops a streaming call mid-way cancels it, and the server keeps serving", async () => {
    const mcp = createEverythingServer();
    const running = await serve(mcp);
    try {
      const controller = new AbortController();
      const headers = {
        ...JSON_HEADERS,
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "test_tool_with_progress",
      };
      const meta = { ...modernMeta(), progressToken: "p1" };
      const response = await fetch(running.url, {
        method: "POST",
        headers,
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "test_tool_with_progress", arguments: {}, _meta: meta },
        }),
        signal: controller.signal,
      });
      expect(response.headers.get("content-type")).toBe("text/event-stream");
      const reader = response.body!.getReader();
      await reader.read(); // the first progress notification
      controller.abort();
      await waitFor(() => mcp.sessions.size === 0);
      const client = new McpClient({
        info: { name: "e2e", version: "1.0.0" },
        revisions: builtinRevisions.filter((r) => ["2026-07-28"].includes(r.version)),
      });
      await client.connect(new StreamableHttpClientTransport(running.url));
      expect((await client.callTool("test_simple_text", {})).content).toHaveLength(1);
      await client.close();
    } finally {
      await running.close();
    }
  });
});
