/** Our Streamable HTTP client transport, over real loopback HTTP: against our server, a raw server and the official SDK server. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { builtinRevisions, McpClient, RpcError } from "../../../../runtime/index.ts";
import { StreamableHttpClientTransport } from "../../../../runtime/http/client/transport.ts";
import { headerParamsFromTools } from "../../../../runtime/http/server/stateless-checks.ts";
import { serve, type RunningServer } from "../../../../runtime/http/server/node.ts";
import { FixtureHost, FIXTURE_TOOLS } from "../fixtures/fixture-host.ts";
import { CollectingSink, initializeMessage, modernMeta, request, waitFor } from "../helpers.ts";

let server: RunningServer;
const host = new FixtureHost();

beforeAll(async () => {
  server = await serve(host, { headerParams: headerParamsFromTools(FIXTURE_TOOLS) });
});
afterAll(async () => {
  await server.close();
});

async function connected(url: string): Promise<{ transport: StreamableHttpClientTransport; sink: CollectingSink }> {
  const transport = new StreamableHttpClientTransport(url);
  const sink = new CollectingSink();
  await transport.start(sink);
  const init = await request(
    transport,
    sink,
    "init",
    "initialize",
    (initializeMessage(0) as { params: unknown }).params,
  );
  expect(init["result"]).toMatchObject({ protocolVersion: "2025-11-25" });
  await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return { transport, sink };
}

describe("handshake era against our server", () => {
  it("keeps the session id and version, gets related notifications and answers server requests", async () => {
    const { transport, sink } = await connected(server.url);
    expect(transport.sessionId).toBeDefined();
    expect(transport.protocolVersion).toBe("2025-11-25");
    const logged = await request(transport, sink, 2, "tools/call", { name: "progress", arguments: {} });
    expect(logged["result"]).toMatchObject({ content: [{ text: "logged" }] });
    const logs = sink.messages
      .filter((m) => m["method"] === "notifications/message")
      .map((m) => (m["params"] as { data: string }).data);
    expect(logs).toEqual(["one", "two", "three"]);

    await transport.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "sample", arguments: {} } });
    const ask = await sink.next((m) => m["method"] === "sampling/createMessage");
    await transport.send({
      jsonrpc: "2.0",
      id: ask["id"],
      result: { role: "assistant", content: { type: "text", text: "yes" }, model: "m" },
    });
    expect((await sink.response(3))["result"]).toMatchObject({ content: [{ text: "model said: yes" }] });
    await transport.terminateSession();
  });

  it("starts a new session transparently when the server answers 404", async () => {
    const { transport, sink } = await connected(server.url);
    const first = transport.sessionId!;
    const deleted = await fetch(server.url, { method: "DELETE", headers: { "mcp-session-id": first } });
    expect(deleted.status).toBe(200);
    const sessionsBefore = server.handler.sessionCount;
    // Three calls hit the ended session at once: one new session serves them all.
    const answers = await Promise.all(
      [5, 6, 7].map((id) =>
        request(transport, sink, id, "tools/call", { name: "echo", arguments: { text: `again ${id}` } }),
      ),
    );
    expect(answers.map((a) => (a["result"] as { content: Array<{ text: string }> }).content[0]!.text)).toEqual([
      "again 5",
      "again 6",
      "again 7",
    ]);
    expect(transport.sessionId).toBeDefined();
    expect(transport.sessionId).not.toBe(first);
    expect(server.handler.sessionCount).toBe(sessionsBefore + 1);
    await transport.terminateSession();
  });
});

describe("stateless era against our server", () => {
  it("mirrors headers, drops tools with invalid x-mcp-header, and cancels by closing the stream", async () => {
    const transport = new StreamableHttpClientTransport(server.url);
    const sink = new CollectingSink();
    await transport.start(sink);
    const list = await request(transport, sink, 1, "tools/list", { _meta: modernMeta() });
    const names = (list["result"] as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    expect(names).toContain("regional");
    expect(names).not.toContain("broken");
    // The server checks Mcp-Param-Region against the body, so this only succeeds when the client mirrored it.
    const regional = await request(transport, sink, 2, "tools/call", {
      name: "regional",
      arguments: { region: "Zürich " },
      _meta: modernMeta(),
    });
    expect(regional["result"]).toMatchObject({ content: [{ text: "Zürich " }] });

    const cancelledBefore = host.cancelled.length;
    // send() resolves once the answer starts; "slow" answers nothing until cancelled, so do not await it yet.
    const sent = transport.send({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "slow", arguments: {}, _meta: modernMeta() },
    });
    await new Promise((r) => setTimeout(r, 50));
    await transport.send({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: 3, _meta: modernMeta() },
    });
    await waitFor(() => host.cancelled.length === cancelledBefore + 1);
    await sent;
    await transport.close();
  });

  it("hands a JSON-RPC error answered with HTTP 400/404 to the session", async () => {
    const transport = new StreamableHttpClientTransport(server.url);
    const sink = new CollectingSink();
    await transport.start(sink);
    const unknown = await request(transport, sink, 1, "no/such", { _meta: modernMeta() });
    expect(unknown["error"]).toMatchObject({ code: -32601 });
    await transport.close();
  });
});

describe("legacy HTTP+SSE fallback", () => {
  it("falls back when the first POST is refused with 405, and then works over the old transport", async () => {
    const old = await serve(new FixtureHost(), {
      path: "/streamable",
      legacySse: { ssePath: "/mcp", messagesPath: "/messages" },
    });
    try {
      const { transport, sink } = await connected(old.url);
      const echo = await request(transport, sink, 2, "tools/call", { name: "echo", arguments: { text: "legacy" } });
      expect(echo["result"]).toMatchObject({ content: [{ text: "legacy" }] });
      await transport.close();
    } finally {
      await old.close();
    }
  });
});

describe("resumption", () => {
  it("waits for the server's retry, then resumes the POST stream with GET and Last-Event-ID", async () => {
    let getAt = 0;
    let closedAt = 0;
    let lastEventId: string | undefined;
    const raw: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
      if (req.method === "POST") {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write("id: ev-1\nretry: 300\ndata: \n\n");
        setTimeout(() => {
          closedAt = Date.now();
          res.end();
        }, 20);
        return;
      }
      getAt = Date.now();
      lastEventId = req.headers["last-event-id"] as string | undefined;
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(`id: ev-2\nevent: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: 1, result: { ok: true } })}\n\n`);
    });
    await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
    const transport = new StreamableHttpClientTransport(`http://127.0.0.1:${(raw.address() as AddressInfo).port}/mcp`, {
      openGetStream: false,
    });
    const sink = new CollectingSink();
    await transport.start(sink);
    const answer = await request(transport, sink, 1, "tools/call", { name: "x" });
    expect(answer["result"]).toEqual({ ok: true });
    expect(lastEventId).toBe("ev-1");
    expect(getAt - closedAt).toBeGreaterThanOrEqual(280);
    await transport.close();
    raw.close();
  });
});

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
      const { transport, sink } = await connected(`http://127.0.0.1:${(sdkServer.address() as AddressInfo).port}/mcp`);
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
      const transport = new StreamableHttpClientTransport(url);
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
    ["sse_garbage", /^Parse error: the server's SSE stream carried data that is not a JSON-RPC message: "\{not json"$/],
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
    await client.connect(new StreamableHttpClientTransport(url, { openGetStream: false }));
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
      await client.connect(
        new StreamableHttpClientTransport(`http://127.0.0.1:${(raw.address() as AddressInfo).port}/mcp`),
      );
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
