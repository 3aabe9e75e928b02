/**
 * A client notification in the stateless era (2026-07-28) over real loopback HTTP. streamable-http.mdx: every POST
 * carries `MCP-Protocol-Version`; only requests must name their revision in `_meta` (basic/index.mdx). Our client
 * names it in both, so the POST shows its era; our server takes a notification whose POST names a stateless-era
 * revision in the header alone, instead of asking it for a handshake session.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { builtinRevisions, McpClient, McpServer, ProtocolNotificationType } from "../../../runtime/index.ts";
import { StreamableHttpClientTransport } from "../../../runtime/http/client/transport.ts";
import { serve, type RunningServer } from "../../../runtime/http/server/node.ts";
import { MODERN, modernMeta, post } from "./helpers.ts";

let server: RunningServer;
const heard: string[] = [];

/** A client→server notification of a made-up extension (the 2026-07-28 core has none for HTTP). */
const EXT = "com.example/notes";
const told = new ProtocolNotificationType({
  method: "notifications/notes/told",
  direction: "clientToServer",
  params: z.object({ text: z.string(), _meta: z.record(z.string(), z.unknown()).optional() }),
  paramsOptional: false,
});

beforeAll(async () => {
  const mcp = new McpServer({
    info: { name: "notes", version: "1.0.0" },
    revisions: builtinRevisions,
    extensions: [{ id: EXT, methods: [told] }],
  });
  mcp.setNotificationHandler(told, ({ text }) => void heard.push(text));
  mcp.tool({ name: "ping", inputSchema: { type: "object" } }, () => ({ content: [{ type: "text", text: "pong" }] }));
  server = await serve(mcp);
});
afterAll(() => server.close());

async function waitUntil(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
}

const cancelled = (params: object) => ({ jsonrpc: "2.0", method: "notifications/cancelled", params });

describe("client notifications in the stateless era over HTTP", () => {
  it("our client's extension notification reaches the server, carrying MCP-Protocol-Version and its revision in _meta", async () => {
    const sent: Array<{ headers: Headers; body: unknown }> = [];
    const recording: typeof fetch = (input, init) => {
      sent.push({ headers: new Headers(init?.headers), body: JSON.parse(String(init?.body ?? "null")) });
      return fetch(input, init);
    };
    const client = new McpClient({
      info: { name: "c", version: "1" },
      revisions: builtinRevisions,
      extensions: [{ id: EXT, methods: [told] }],
    });
    await client.connect(new StreamableHttpClientTransport(server.url, { fetch: recording }));
    try {
      expect(client.revision).toBe(MODERN);
      await client.notify(told, { text: "hello" });
      const notification = sent.find((s) => (s.body as { method?: string }).method === told.method);
      expect(notification?.headers.get("mcp-protocol-version")).toBe(MODERN);
      expect(notification?.body).toMatchObject({
        params: { text: "hello", _meta: { "io.modelcontextprotocol/protocolVersion": MODERN } },
      });
      await waitUntil(() => heard.length > 0);
      expect(heard).toEqual(["hello"]);
      expect((await client.callTool("ping", {})).content).toEqual([{ type: "text", text: "pong" }]);
    } finally {
      await client.close();
    }
  });

  it("a notification POST naming the revision in the header only gets 202", async () => {
    const response = await post(server.url, cancelled({ requestId: 1 }), { "mcp-protocol-version": MODERN });
    expect(response.status).toBe(202);
    expect(await response.text()).toBe("");
  });

  it("a notification whose _meta and header disagree, or naming no served version, is still refused", async () => {
    const mismatch = await post(server.url, cancelled({ requestId: 1, _meta: modernMeta() }), {
      "mcp-protocol-version": "2026-01-01",
    });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.json()).toMatchObject({ error: { code: -32020 } });
    const unknown = await post(server.url, cancelled({ requestId: 1 }), { "mcp-protocol-version": "2099-01-01" });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: { code: -32022 } });
  });
});
