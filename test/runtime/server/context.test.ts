/**
 * What a handler sees (request id, method, revision/era, client info and capabilities, `_meta`) in both eras,
 * cancellation reaching server→client requests, a dying client failing them, and one session serving both eras.
 */
import { describe, expect, it } from "vitest";
import {
  builtinRevisions,
  ConnectionClosedError,
  createMemoryTransportPair,
  McpClient,
  McpServer,
  RequestCancelledError,
  SUPPORTED_REVISIONS,
  type JsonRpcId,
  type RequestContext,
} from "../../../runtime/index.ts";
import { getProfile } from "../builtin-lookup.ts";
import { createDemoServer } from "../fixtures/demo-server.ts";
import { delay, ScriptedTransport } from "../helpers.ts";

const NEWEST_HANDSHAKE = SUPPORTED_REVISIONS.find((r) => getProfile(r)!.era === "handshake")!;
const NEWEST_STATELESS = SUPPORTED_REVISIONS.find((r) => getProfile(r)!.era === "stateless")!;

describe.each([NEWEST_HANDSHAKE, NEWEST_STATELESS])("the handler context at %s", (revision) => {
  it("carries the request id, method, revision, era, client info, capabilities and _meta", async () => {
    const seen: RequestContext[] = [];
    const server = new McpServer({ revisions: builtinRevisions, info: { name: "ctx", version: "1" } });
    server.tool(
      { name: "inspect", inputSchema: { type: "object" } },
      (_args, ctx) => (seen.push(ctx), { content: [] }),
    );
    const [a, b] = createMemoryTransportPair();
    await server.connect(b);
    const client = new McpClient({
      info: { name: "ctx-client", version: "7" },
      revisions: builtinRevisions.filter((r) => r.version === revision),
      handlers: { roots: () => ({ roots: [] }) },
    });
    await client.connect(a);
    let wireId: JsonRpcId | undefined;
    await client.callTool("inspect", {}, { meta: { "example.com/trace": "t-1" }, onRequestId: (id) => (wireId = id) });
    const ctx = seen[0]!;
    expect(ctx.requestId).toBe(wireId);
    expect(ctx.method).toBe("tools/call");
    expect(ctx.revision).toBe(revision);
    expect(ctx.era).toBe(getProfile(revision)!.era);
    expect(ctx.clientInfo).toEqual({ name: "ctx-client", version: "7" });
    expect(ctx.clientCapabilities).toEqual({ roots: { listChanged: true } });
    expect(ctx.meta?.["example.com/trace"]).toBe("t-1");
    expect(ctx.signal.aborted).toBe(false);
    expect(ctx.authInfo).toBeUndefined();
    expect(ctx.closeSseStream()).toBe(false); // not an HTTP stream
    await client.close();
  });
});

describe("server→client requests (handshake era)", () => {
  function askingServer() {
    const outcomes: unknown[] = [];
    const server = new McpServer({ revisions: builtinRevisions, info: { name: "asker", version: "1" } });
    server.tool({ name: "ask", inputSchema: { type: "object" } }, async (_args, ctx) => {
      try {
        await ctx.elicit({ message: "Wait for me", requestedSchema: { type: "object", properties: {} } });
        outcomes.push("answered");
      } catch (error) {
        outcomes.push(error);
      }
      return { content: [] };
    });
    return { server, outcomes };
  }

  it("cancels the server's request at the client when the client cancels the call that caused it", async () => {
    const { server, outcomes } = askingServer();
    const [a, b] = createMemoryTransportPair();
    await server.connect(b);
    const handlerAborted: unknown[] = [];
    let asked!: () => void;
    const askedOnce = new Promise<void>((resolve) => (asked = resolve));
    const client = new McpClient({
      info: { name: "c", version: "1" },
      revisions: builtinRevisions.filter((r) => r.version === NEWEST_HANDSHAKE),
      handlers: {
        elicitation: (_params, context) =>
          new Promise((_resolve, reject) => {
            asked();
            context.signal.addEventListener(
              "abort",
              () => (handlerAborted.push(context.signal.reason), reject(new Error("user went away"))),
            );
          }),
      },
    });
    await client.connect(a);
    const controller = new AbortController();
    const call = client.callTool("ask", {}, { signal: controller.signal });
    await askedOnce;
    controller.abort("stop");
    await expect(call).rejects.toBeInstanceOf(RequestCancelledError);
    for (let i = 0; i < 50 && (handlerAborted.length === 0 || outcomes.length === 0); i++) await delay(5);
    expect(handlerAborted).toHaveLength(1); // the client's handler learned that the server gave up
    expect(outcomes[0]).toBeInstanceOf(RequestCancelledError); // and the server's elicit rejected
    await client.close();
  });

  it("fails a pending server→client request when the client goes away", async () => {
    const { server, outcomes } = askingServer();
    const [a, b] = createMemoryTransportPair();
    await server.connect(b);
    let asked!: () => void;
    const askedOnce = new Promise<void>((resolve) => (asked = resolve));
    const client = new McpClient({
      info: { name: "c", version: "1" },
      revisions: builtinRevisions.filter((r) => r.version === NEWEST_HANDSHAKE),
      handlers: { elicitation: () => (asked(), new Promise(() => undefined)) },
    });
    await client.connect(a);
    void client.callTool("ask", {}).catch(() => undefined);
    await askedOnce;
    await client.close();
    for (let i = 0; i < 50 && outcomes.length === 0; i++) await delay(5);
    expect(outcomes[0]).toBeInstanceOf(ConnectionClosedError);
  });
});

describe("one session serving both eras", () => {
  it("answers a stateless-era request after a handshake, each by its own era's rules", async () => {
    const server = createDemoServer();
    const t = new ScriptedTransport();
    const session = await server.connect(t);
    t.inject({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: NEWEST_HANDSHAKE, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    t.inject({ jsonrpc: "2.0", method: "notifications/initialized" });
    const meta = {
      "io.modelcontextprotocol/protocolVersion": NEWEST_STATELESS,
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "stateless-client", version: "2" },
    };
    t.inject({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "log", arguments: {} } });
    t.inject({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { _meta: meta, name: "log", arguments: {} } });
    const sent = t.sent as Array<{ id?: number; result?: Record<string, unknown> }>;
    for (let n = 3; !(sent.some((m) => m.id === 1) && sent.some((m) => m.id === 2)); n++) await t.waitForSent(n);
    const byId = (id: number) => sent.find((m) => m.id === id)!.result!;
    expect(byId(1)["content"]).toEqual([{ type: "text", text: `${NEWEST_HANDSHAKE}/handshake/raw` }]);
    expect(byId(1)).not.toHaveProperty("resultType");
    expect(byId(2)["content"]).toEqual([{ type: "text", text: `${NEWEST_STATELESS}/stateless/stateless-client` }]);
    expect(byId(2)).toMatchObject({
      resultType: "complete",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "demo-server" } },
    });
    expect(session.revision).toBe(NEWEST_HANDSHAKE); // the handshake still governs the session
  });
});

describe("a handshake-era connection that cannot carry requests to the client", () => {
  it("refuses server→client requests for that reason, not for capabilities the client may well have", async () => {
    const server = new McpServer({ revisions: builtinRevisions, info: { name: "s", version: "1" } }).tool(
      { name: "ask", inputSchema: { type: "object" } },
      async (_args, ctx) => {
        await ctx.createMessage({ messages: [], maxTokens: 1 });
        return { content: [{ type: "text", text: "asked" }] };
      },
    );
    const t = new ScriptedTransport();
    await server.connect(t);
    const noSession = { serverRequests: false } as const;
    // As HTTP without sessions replays it: an initialize with no capabilities, then the real request.
    const init = { protocolVersion: NEWEST_HANDSHAKE, capabilities: {}, clientInfo: { name: "c", version: "1" } };
    t.inject({ jsonrpc: "2.0", id: 0, method: "initialize", params: init }, noSession);
    t.inject({ jsonrpc: "2.0", method: "notifications/initialized" }, noSession);
    t.inject({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "ask", arguments: {} } }, noSession);
    const [, answer] = (await t.waitForSent(2)) as [
      unknown,
      { result: { isError?: boolean; content: { text: string }[] } },
    ];
    expect(answer.result.isError).toBe(true);
    expect(answer.result.content[0]!.text).toMatch(/no session to carry a request to the client/);
    expect(answer.result.content[0]!.text).not.toMatch(/did not declare/);
  });
});
