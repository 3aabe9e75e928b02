/**
 * Our Streamable HTTP client transport against the official SDK v1 server (Streamable HTTP and the legacy HTTP+SSE
 * transport) and against raw servers answering in unusable ways, over each request path (node:http and fetch).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { builtinRevisions, McpClient, RpcError } from "../../../../runtime/index.ts";
import { CollectingSink, initializeMessage, request, waitFor } from "../helpers.ts";
import { connectedOver, REQUEST_PATHS, transportOver } from "./paths.ts";

describe.each(REQUEST_PATHS)("requests over %s", (path) => {
  const open = transportOver(path);
  const connected = (url: string) => connectedOver(open, url);

  describe("against the official SDK v1 server", () => {
    it("initializes and calls a tool on a McpServer behind StreamableHTTPServerTransport", async () => {
      const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js");
      const { StreamableHTTPServerTransport } = await import("@modelcontextprotocol/sdk/server/streamableHttp.js");
      const { z } = await import("zod");
      const transports = new Map<string, InstanceType<typeof StreamableHTTPServerTransport>>();
      const sdkServer = createServer(async (req, res) => {
        const sid = req.headers["mcp-session-id"] as string | undefined;
        let transport = sid ? transports.get(sid) : undefined;
        if (!transport) {
          const mcp = new McpServer({ name: "sdk", version: "1.0.0" });
          mcp.registerTool("add", { inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({
            content: [{ type: "text", text: String(a + b) }],
          }));
          const created = new StreamableHTTPServerTransport({
            sessionIdGenerator: () => crypto.randomUUID(),
            onsessioninitialized: (id) => void transports.set(id, created),
          });
          transport = created;
          await mcp.connect(created);
        }
        await transport.handleRequest(req, res);
      });
      await new Promise<void>((resolve) => sdkServer.listen(0, "127.0.0.1", resolve));
      try {
        const { transport, sink } = await connected(
          `http://127.0.0.1:${(sdkServer.address() as AddressInfo).port}/mcp`,
        );
        const sum = await request(transport, sink, 2, "tools/call", { name: "add", arguments: { a: 2, b: 40 } });
        expect(sum["result"]).toMatchObject({ content: [{ type: "text", text: "42" }] });
        await transport.terminateSession();
      } finally {
        sdkServer.closeAllConnections();
        sdkServer.close();
      }
    });

    it("falls back to a McpServer behind the SDK's legacy SSEServerTransport (2024-11-05)", async () => {
      const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js");
      const { SSEServerTransport } = await import("@modelcontextprotocol/sdk/server/sse.js");
      const transports = new Map<string, InstanceType<typeof SSEServerTransport>>();
      const sdkServer = createServer((req, res) => {
        const url = new URL(req.url ?? "/", "http://localhost");
        if (req.method === "GET" && url.pathname === "/mcp") {
          const transport = new SSEServerTransport("/messages", res);
          transports.set(transport.sessionId, transport);
          const mcp = new McpServer({ name: "old-sdk", version: "1.0.0" });
          mcp.registerTool("hello", {}, () => ({ content: [{ type: "text", text: "hi from 2024" }] }));
          void mcp.connect(transport);
          return;
        }
        const transport = transports.get(url.searchParams.get("sessionId") ?? "");
        if (req.method === "POST" && url.pathname === "/messages" && transport)
          return void transport.handlePostMessage(req, res);
        res.writeHead(405).end();
      });
      await new Promise<void>((resolve) => sdkServer.listen(0, "127.0.0.1", resolve));
      try {
        const url = `http://127.0.0.1:${(sdkServer.address() as AddressInfo).port}/mcp`;
        const transport = open(url);
        const sink = new CollectingSink();
        await transport.start(sink);
        const init = await request(
          transport,
          sink,
          1,
          "initialize",
          (initializeMessage(0, "2024-11-05") as { params: unknown }).params,
        );
        expect(init["result"]).toMatchObject({ protocolVersion: "2024-11-05", serverInfo: { name: "old-sdk" } });
        await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
        const hello = await request(transport, sink, 2, "tools/call", { name: "hello", arguments: {} });
        expect(hello["result"]).toMatchObject({ content: [{ text: "hi from 2024" }] });
        await transport.close();
      } finally {
        sdkServer.closeAllConnections();
        sdkServer.close();
      }
    });
  });

  describe("unusable answers fail the pending request with a clear error", () => {
    // A raw server: initialize works; each tool answers tools/call in one broken way.
    const broken: Record<string, (res: ServerResponse, id: unknown) => void> = {
      sse_garbage: (res) => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write("event: message\ndata: {not json\n\n"); // and the stream stays open
      },
      sse_scalar: (res) => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write("event: message\ndata: 42\n\n");
      },
      json_scalar: (res) => void res.writeHead(200, { "content-type": "application/json" }).end('"hello"'),
      json_garbage: (res) => void res.writeHead(200, { "content-type": "application/json" }).end("{oops"),
      json_empty: (res) => void res.writeHead(200, { "content-type": "application/json" }).end(),
      json_other_id: (res) =>
        void res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", id: "other", result: {} })),
      html: (res) => void res.writeHead(200, { "content-type": "text/html" }).end("<h1>hi</h1>"),
      ok: (res, id) =>
        void res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", id, result: { content: [] } })),
    };
    let raw: Server;
    let url: string;

    beforeAll(async () => {
      raw = createServer(async (req: IncomingMessage, res: ServerResponse) => {
        if (req.method !== "POST") return void res.writeHead(405).end();
        let text = "";
        for await (const chunk of req) text += String(chunk);
        const m = JSON.parse(text) as { id?: unknown; method?: string; params?: { name?: string } };
        if (m.id === undefined || m.method === undefined) return void res.writeHead(202).end();
        if (m.method === "initialize") {
          const result = {
            protocolVersion: "2025-11-25",
            capabilities: { tools: {} },
            serverInfo: { name: "raw", version: "1" },
          };
          return void res
            .writeHead(200, { "content-type": "application/json" })
            .end(JSON.stringify({ jsonrpc: "2.0", id: m.id, result }));
        }
        broken[m.params?.name ?? "ok"]!(res, m.id);
      });
      await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
      url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/mcp`;
    });
    afterAll(() => {
      raw.closeAllConnections();
      raw.close();
    });

    it.each<[string, RegExp]>([
      [
        "sse_garbage",
        /^Parse error: the server's SSE stream carried data that is not a JSON-RPC message: "\{not json"$/,
      ],
      ["sse_scalar", /^Parse error: the server's SSE stream carried data that is not a JSON-RPC message: "42"$/],
      ["json_scalar", /^Parse error: the server's JSON response is not a JSON-RPC message: "\\"hello\\""$/],
      ["json_garbage", /^Parse error: the server's JSON response is not a JSON-RPC message: "\{oops"$/],
      ["json_empty", /^Parse error: the server's JSON response is not a JSON-RPC message: \(empty\)$/],
      ["json_other_id", /^Parse error: the server's JSON response does not answer request 2: /],
      ["html", /^Parse error: the server answered HTTP 200 with Content-Type "text\/html", not JSON or an SSE stream$/],
    ])("%s", async (tool, message) => {
      const client = new McpClient({
        info: { name: "t", version: "1" },
        revisions: builtinRevisions.filter((r) => ["2025-11-25"].includes(r.version)),
      });
      await client.connect(open(url, { openGetStream: false }));
      const failure = await client.callTool(tool, {}).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(RpcError);
      expect(failure).toMatchObject({ code: -32700 });
      expect((failure as RpcError).message).toMatch(message);
      // The client is still usable.
      expect(await client.callTool("ok", {})).toMatchObject({ content: [] });
      await client.close();
    });
  });

  describe("unusable server-initiated messages", () => {
    it("garbage on the GET stream is answered to the server with -32700 (id null), not dropped silently", async () => {
      const posted: Record<string, unknown>[] = [];
      const raw = createServer(async (req: IncomingMessage, res: ServerResponse) => {
        if (req.method === "GET") {
          res.writeHead(200, { "content-type": "text/event-stream" });
          res.write("data: <not json>\n\n");
          return;
        }
        let text = "";
        for await (const chunk of req) text += String(chunk);
        const m = JSON.parse(text) as Record<string, unknown>;
        if (m["method"] === "initialize") {
          const result = { protocolVersion: "2025-11-25", capabilities: {}, serverInfo: { name: "raw", version: "1" } };
          res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s1" });
          return void res.end(JSON.stringify({ jsonrpc: "2.0", id: m["id"], result }));
        }
        posted.push(m);
        res.writeHead(202).end();
      });
      await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
      try {
        const client = new McpClient({
          info: { name: "t", version: "1" },
          revisions: builtinRevisions.filter((r) => ["2025-11-25"].includes(r.version)),
        });
        await client.connect(open(`http://127.0.0.1:${(raw.address() as AddressInfo).port}/mcp`));
        await waitFor(() => posted.some((m) => "error" in m));
        expect(posted.find((m) => "error" in m)).toMatchObject({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32700, message: 'Parse error: SSE data is not a JSON-RPC message: "<not json>"' },
        });
        await client.close();
      } finally {
        raw.closeAllConnections();
        raw.close();
      }
    });
  });
});
