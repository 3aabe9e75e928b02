/**
 * Handshake era: resource subscriptions (`resources/subscribe` / `resources/unsubscribe` /
 * `notifications/resources/updated`) and the `list_changed` notifications of tools, resources and prompts, end to
 * end to client listeners, and their capability gates on both sides.
 */
import { describe, expect, it } from "vitest";
import {
  builtinRevisions,
  createMemoryTransportPair,
  McpClient,
  McpServer,
  ProtocolUsageError,
  SUPPORTED_REVISIONS,
  type ServerOptions,
} from "../../../runtime/index.ts";
import { getProfile } from "../builtin-lookup.ts";
import { createDemoServer } from "../fixtures/demo-server.ts";
import { delay, ScriptedTransport } from "../helpers.ts";

const HANDSHAKE = SUPPORTED_REVISIONS.filter((r) => getProfile(r)!.era === "handshake");
const LIST_CHANGED = [
  "notifications/tools/list_changed",
  "notifications/resources/list_changed",
  "notifications/prompts/list_changed",
];

async function connect(server: McpServer, revision: string) {
  const [a, b] = createMemoryTransportPair();
  const session = await server.connect(b);
  const received: Array<[string, unknown]> = [];
  const client = new McpClient({
    info: { name: "listener", version: "1" },
    revisions: builtinRevisions.filter((r) => r.version === revision),
  });
  await client.connect(a);
  for (const method of [...LIST_CHANGED, "notifications/resources/updated"])
    client.on(method, (params) => received.push([method, params]));
  return { client, session, received };
}

describe.each(HANDSHAKE)("notifications at %s", (revision) => {
  it("delivers resource updates between subscribe and unsubscribe only, per URI", async () => {
    const server = createDemoServer();
    server.resource({ uri: "demo://other", name: "other" }, (uri) => ({ contents: [{ uri, text: "other" }] }));
    const { client, received } = await connect(server, revision);
    server.notifyResourceUpdated("demo://readme"); // not subscribed yet
    await client.subscribeResource("demo://readme");
    await client.subscribeResource("demo://other");
    server.notifyResourceUpdated("demo://readme");
    server.notifyResourceUpdated("demo://items/1"); // never subscribed
    await delay(5);
    expect(received).toEqual([["notifications/resources/updated", { uri: "demo://readme" }]]);

    await client.unsubscribeResource("demo://readme");
    received.length = 0;
    server.notifyResourceUpdated("demo://readme");
    server.notifyResourceUpdated("demo://other");
    await delay(5);
    // The other subscription still flows, so the silence about demo://readme is the unsubscribe's doing.
    expect(received).toEqual([["notifications/resources/updated", { uri: "demo://other" }]]);
    await client.close();
  });

  it("sends list_changed for tools, resources and prompts to client listeners", async () => {
    const server = createDemoServer();
    const { client, received } = await connect(server, revision);
    server.tool({ name: "late", inputSchema: { type: "object" } }, () => ({ content: [] }));
    server.removeTool("late");
    server.resource({ uri: "demo://late", name: "late" }, (uri) => ({ contents: [{ uri, text: "" }] }));
    server.resourceTemplate({ uriTemplate: "demo://late/{x}", name: "late-t" }, (uri) => ({
      contents: [{ uri, text: "" }],
    }));
    server.prompt({ name: "late" }, () => ({ messages: [] }));
    await delay(5);
    expect(received.map(([method]) => method)).toEqual([
      "notifications/tools/list_changed",
      "notifications/tools/list_changed",
      "notifications/resources/list_changed",
      "notifications/resources/list_changed",
      "notifications/prompts/list_changed",
    ]);
    // The lists reflect the change.
    expect((await client.listAllPrompts()).map((p) => p.name)).toEqual(["greet", "late"]);
    await client.close();
  });

  it("sends nothing the server did not declare, and refuses subscriptions it does not offer", async () => {
    const off: ServerOptions["capabilities"] = {
      tools: { listChanged: false },
      resources: { subscribe: false, listChanged: false },
      prompts: { listChanged: false },
    };
    const server = createDemoServer({ capabilities: off });
    const { client, session, received } = await connect(server, revision);
    expect(client.serverCapabilities).toMatchObject(off);
    server.tool({ name: "late", inputSchema: { type: "object" } }, () => ({ content: [] }));
    server.resource({ uri: "demo://late", name: "late" }, (uri) => ({ contents: [{ uri, text: "" }] }));
    server.prompt({ name: "late" }, () => ({ messages: [] }));
    server.notifyResourceUpdated("demo://readme");
    // The client refuses before sending; a raw request is refused by the server (below).
    await expect(client.subscribeResource("demo://readme")).rejects.toBeInstanceOf(ProtocolUsageError);
    await expect(client.unsubscribeResource("demo://readme")).rejects.toBeInstanceOf(ProtocolUsageError);
    await expect(session.notify("notifications/resources/updated", { uri: "demo://readme" })).rejects.toThrow(
      /resources\.subscribe/,
    );
    for (const method of LIST_CHANGED) await expect(session.notify(method)).rejects.toThrow(/listChanged/);
    await delay(5);
    expect(received).toEqual([]);
    // Still a working session: the lists changed even though nobody was told.
    expect((await client.listAllTools()).map((t) => t.name)).toContain("late");
    await client.close();
  });

  it("does not announce list changes for a capability the handshake did not declare", async () => {
    // At initialize this server has only resources; tools registered later were not part of the negotiated capabilities.
    const server = new McpServer({ revisions: builtinRevisions, info: { name: "late-tools", version: "1" } });
    server.resource({ uri: "a://x", name: "x" }, (uri) => ({ contents: [{ uri, text: "x" }] }));
    const { client, received } = await connect(server, revision);
    expect(client.serverCapabilities).not.toHaveProperty("tools");
    server.tool({ name: "late", inputSchema: { type: "object" } }, () => ({ content: [] }));
    server.resource({ uri: "a://y", name: "y" }, (uri) => ({ contents: [{ uri, text: "y" }] }));
    await delay(5);
    expect(received.map(([method]) => method)).toEqual(["notifications/resources/list_changed"]);
    await client.close();
  });
});

describe("server-side gates on the wire (handshake era)", () => {
  async function initialize(server: McpServer, initialized: boolean) {
    const t = new ScriptedTransport();
    await server.connect(t);
    t.inject({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    await t.waitForSent(1);
    if (initialized) t.inject({ jsonrpc: "2.0", method: "notifications/initialized" });
    await delay(1);
    return t;
  }
  const request = async (t: ScriptedTransport, id: number, method: string, params: object) => {
    const before = t.sent.length;
    t.inject({ jsonrpc: "2.0", id, method, params });
    await t.waitForSent(before + 1);
    return t.sent.slice(before).find((m) => (m as { id?: unknown }).id === id) as {
      result?: unknown;
      error?: { code: number; message: string };
    };
  };

  it("answers resources/subscribe and unsubscribe with -32601 when the server does not offer subscriptions", async () => {
    const t = await initialize(createDemoServer({ capabilities: { resources: { subscribe: false } } }), true);
    expect((await request(t, 1, "resources/subscribe", { uri: "demo://readme" })).error).toMatchObject({
      code: -32601,
    });
    expect((await request(t, 2, "resources/unsubscribe", { uri: "demo://readme" })).error).toMatchObject({
      code: -32601,
    });
    const served = await initialize(createDemoServer(), true);
    expect((await request(served, 1, "resources/subscribe", { uri: "demo://readme" })).result).toEqual({});
    expect((await request(served, 2, "resources/unsubscribe", { uri: "demo://readme" })).result).toEqual({});
  });

  it("sends no list_changed before notifications/initialized", async () => {
    const server = createDemoServer();
    const t = await initialize(server, false);
    const sentBefore = t.sent.length;
    server.tool({ name: "early", inputSchema: { type: "object" } }, () => ({ content: [] }));
    await delay(5);
    expect(t.sent.length).toBe(sentBefore);
    t.inject({ jsonrpc: "2.0", method: "notifications/initialized" });
    server.tool({ name: "later", inputSchema: { type: "object" } }, () => ({ content: [] }));
    await t.waitForSent(sentBefore + 1);
    expect(t.sent.slice(sentBefore)).toEqual([
      { jsonrpc: "2.0", method: "notifications/tools/list_changed", params: {} },
    ]);
  });
});

describe("stateless era: subscriptions/listen for every list and the agreed filter", () => {
  const STATELESS = SUPPORTED_REVISIONS.find((r) => getProfile(r)!.era === "stateless")!;
  const subscriptionIdOf = (params: unknown) =>
    (params as { _meta: Record<string, unknown> })._meta["io.modelcontextprotocol/subscriptionId"];

  it("streams resources and prompts list changes, and only what the filter asked for", async () => {
    const server = createDemoServer();
    const { client, received } = await connect(server, STATELESS);
    const sub = await client.listen({ resourcesListChanged: true, promptsListChanged: true });
    expect(sub.filter).toEqual({ resourcesListChanged: true, promptsListChanged: true });
    server.tool({ name: "late", inputSchema: { type: "object" } }, () => ({ content: [] })); // not asked for
    server.resource({ uri: "demo://late", name: "late" }, (uri) => ({ contents: [{ uri, text: "" }] }));
    server.prompt({ name: "late" }, () => ({ messages: [] }));
    server.notifyResourceUpdated("demo://readme"); // not asked for
    await delay(5);
    expect(received.map(([method]) => method)).toEqual([
      "notifications/resources/list_changed",
      "notifications/prompts/list_changed",
    ]);
    expect(received.map(([, params]) => subscriptionIdOf(params))).toEqual([sub.id, sub.id]);
    sub.close();
    await sub.ended;
    await client.close();
  });

  it("agrees only to what the server declares", async () => {
    const server = createDemoServer({
      capabilities: { tools: { listChanged: false }, resources: { subscribe: false, listChanged: true } },
    });
    const { client, received } = await connect(server, STATELESS);
    const sub = await client.listen({
      toolsListChanged: true,
      resourcesListChanged: true,
      resourceSubscriptions: ["demo://readme"],
    });
    expect(sub.filter).toEqual({ resourcesListChanged: true });
    server.tool({ name: "late", inputSchema: { type: "object" } }, () => ({ content: [] }));
    server.notifyResourceUpdated("demo://readme");
    server.resource({ uri: "demo://late", name: "late" }, (uri) => ({ contents: [{ uri, text: "" }] }));
    await delay(5);
    expect(received.map(([method]) => method)).toEqual(["notifications/resources/list_changed"]);
    sub.close();
    await client.close();
  });
});
