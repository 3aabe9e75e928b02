import { describe, expect, it } from "vitest";
import {
  builtinRevisions,
  createMemoryTransportPair,
  McpClient,
  ProtocolUsageError,
  RequestCancelledError,
  RpcError,
  SUPPORTED_REVISIONS,
  type ClientHandlers,
} from "../../../runtime/index.ts";
import { getProfile } from "../builtin-lookup.ts";
import { addKeyedInputTools, createDemoServer } from "../fixtures/demo-server.ts";

const handlers: ClientHandlers = {
  elicitation: (params) => ({ action: "accept", content: { name: "Ada", city: "Paris", echo: params.message } }),
  sampling: () => ({ role: "assistant", content: { type: "text", text: "sampled" }, model: "m" }),
  roots: () => ({ roots: [{ uri: "file:///a" }] }),
};

async function connect(revision: string, extra: Partial<ConstructorParameters<typeof McpClient>[0]> = {}) {
  const server = createDemoServer();
  const [clientSide, serverSide] = createMemoryTransportPair();
  await server.connect(serverSide);
  const notifications: Array<[string, unknown]> = [];
  const client = new McpClient({
    info: { name: "test-client", version: "0.0.1" },
    revisions: builtinRevisions.filter((r) => r.version === revision),
    handlers,
    onNotification: (method, params) => notifications.push([method, params]),
    ...extra,
  });
  await client.connect(clientSide);
  return { client, server, notifications };
}

describe.each(SUPPORTED_REVISIONS)("revision %s in memory", (revision) => {
  const era = getProfile(revision)!.era;

  it("negotiates the revision and lists everything with pagination", async () => {
    const { client } = await connect(revision);
    expect(client.revision).toBe(revision);
    expect(client.era).toBe(era);
    expect(client.serverInfo?.name).toBe("demo-server");
    const tools = await client.listAllTools();
    expect(tools.map((t) => t.name)).toEqual([
      "add",
      "slow",
      "ask",
      "sample-and-roots",
      "fail",
      "protocol-fail",
      "log",
    ]);
    const firstPage = await client.listTools();
    expect(firstPage.tools).toHaveLength(2);
    expect(typeof firstPage.nextCursor).toBe("string");
    if (era === "stateless")
      expect(firstPage).toMatchObject({ resultType: "complete", ttlMs: 0, cacheScope: "public" });
    expect((await client.listAllResources()).map((r) => r.uri)).toEqual(["demo://readme"]);
    expect((await client.listAllResourceTemplates()).map((r) => r.uriTemplate)).toEqual(["demo://items/{id}"]);
    expect((await client.listAllPrompts()).map((p) => p.name)).toEqual(["greet"]);
    await client.close();
  });

  it("calls tools, reads resources, gets prompts, completes", async () => {
    const { client } = await connect(revision);
    const sum = await client.callTool("add", { a: 2, b: 3 });
    expect(sum.structuredContent).toEqual({ sum: 5 });
    const bad = await client.callTool("add", { a: "x", b: 3 });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain("arguments.a");
    const failed = await client.callTool("fail", {});
    expect(failed).toMatchObject({ isError: true, content: [{ type: "text", text: "tool exploded" }] });
    await expect(client.callTool("protocol-fail", {})).rejects.toMatchObject({ code: -32602, data: { detail: 1 } });
    await expect(client.callTool("nope", {})).rejects.toMatchObject({ code: -32602, message: "Unknown tool: nope" });
    expect((await client.readResource("demo://items/42")).contents[0]).toMatchObject({ text: "item 42" });
    await expect(client.readResource("demo://missing")).rejects.toBeInstanceOf(RpcError);
    const prompt = await client.getPrompt("greet", { who: "Bo" });
    expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "Hello Bo" });
    await expect(client.getPrompt("greet", {})).rejects.toMatchObject({ code: -32602 });
    const completion = await client.complete({
      ref: { type: "ref/prompt", name: "greet" },
      argument: { name: "who", value: "al" },
    });
    expect(completion.completion.values).toEqual(["alice", "alan"]);
    await client.close();
  });

  it("asks the client for input in either era with the same handler code", async () => {
    const { client } = await connect(revision);
    const hasElicitation = getProfile(revision)!.methods["elicitation/create"] !== undefined;
    const asked = await client.callTool("ask", {});
    if (hasElicitation) expect(asked.content[0]).toEqual({ type: "text", text: "Ada from Paris" });
    else expect(asked.isError).toBe(true);
    const both = await client.callTool("sample-and-roots", {});
    expect(both.content[0]).toEqual({ type: "text", text: "sampled|file:///a" });
    await client.close();
  });

  it("lets handlers choose input keys, with the same handler code in either era", async () => {
    const { client, server } = await connect(revision);
    addKeyedInputTools(server);
    const hasElicitation = getProfile(revision)!.methods["elicitation/create"] !== undefined;
    const asked = await client.callTool("ask-keyed", {});
    if (hasElicitation) expect(asked.content[0]).toEqual({ type: "text", text: "Ada|sampled|file:///a" });
    else expect(asked.isError).toBe(true);
    await client.close();
  });

  it("reports progress, honours cancellation and keeps serving", async () => {
    const { client } = await connect(revision);
    const updates: number[] = [];
    const done = await client.callTool(
      "slow",
      { steps: 3, stepMs: 5 },
      { onProgress: (u) => updates.push(u.progress) },
    );
    expect(done.content[0]).toMatchObject({ text: "done 3" });
    expect(updates).toEqual([1, 2, 3]);
    const controller = new AbortController();
    const call = client.callTool("slow", { steps: 50, stepMs: 20 }, { signal: controller.signal });
    setTimeout(() => controller.abort("stop"), 30);
    await expect(call).rejects.toBeInstanceOf(RequestCancelledError);
    expect((await client.callTool("add", { a: 1, b: 1 })).structuredContent).toEqual({ sum: 2 });
    await client.close();
  });

  it("sends log notifications only when asked for", async () => {
    if (era === "handshake") {
      const { client, notifications } = await connect(revision);
      await client.setLogLevel("warning");
      await client.callTool("log", {});
      const logs = notifications.filter(([m]) => m === "notifications/message");
      expect(logs).toEqual([["notifications/message", { level: "warning", logger: "demo", data: { note: "warned" } }]]);
    } else {
      const quiet = await connect(revision);
      await quiet.client.callTool("log", {});
      expect(quiet.notifications.filter(([m]) => m === "notifications/message")).toEqual([]);
      const loud = await connect(revision, { logLevel: "debug" });
      const result = await loud.client.callTool("log", {});
      expect(result.content[0]).toMatchObject({ text: `${revision}/stateless/test-client` });
      expect(loud.notifications.filter(([m]) => m === "notifications/message")).toHaveLength(2);
    }
  });

  it("refuses methods the revision or the peer's capabilities do not allow", async () => {
    const { client } = await connect(revision);
    await expect(client.request("no/such-method", {})).rejects.toBeInstanceOf(ProtocolUsageError);
    if (era === "handshake") {
      await client.ping();
      await expect(client.discover()).rejects.toBeInstanceOf(ProtocolUsageError);
    } else {
      await expect(client.ping()).rejects.toBeInstanceOf(ProtocolUsageError);
      const discovered = await client.discover();
      expect(discovered["supportedVersions"]).toEqual([...SUPPORTED_REVISIONS]);
    }
    await client.close();
  });

  it("notifies list changes and resource updates to interested clients", async () => {
    const { client, server, notifications } = await connect(revision);
    if (era === "handshake") {
      await client.subscribeResource("demo://readme");
      server.tool({ name: "late", inputSchema: { type: "object" } }, () => ({ content: [] }));
      server.notifyResourceUpdated("demo://readme");
      server.notifyResourceUpdated("demo://other");
      await new Promise((r) => setTimeout(r, 10));
      expect(notifications.map(([m]) => m)).toEqual([
        "notifications/tools/list_changed",
        "notifications/resources/updated",
      ]);
    } else {
      const sub = await client.listen({ toolsListChanged: true, resourceSubscriptions: ["demo://readme"] });
      expect(sub.filter).toEqual({ toolsListChanged: true, resourceSubscriptions: ["demo://readme"] });
      server.tool({ name: "late", inputSchema: { type: "object" } }, () => ({ content: [] }));
      server.notifyResourceUpdated("demo://readme");
      await new Promise((r) => setTimeout(r, 10));
      const streamed = notifications.filter(([m]) => m !== "notifications/subscriptions/acknowledged");
      expect(streamed).toEqual([
        ["notifications/tools/list_changed", { _meta: { "io.modelcontextprotocol/subscriptionId": sub.id } }],
        [
          "notifications/resources/updated",
          { uri: "demo://readme", _meta: { "io.modelcontextprotocol/subscriptionId": sub.id } },
        ],
      ]);
      // A second stream, cancelled by the client: it stops receiving, and nothing answers the cancelled request.
      const other = await client.listen({ resourceSubscriptions: ["demo://readme"] });
      other.close();
      await expect(other.ended).resolves.toBeUndefined();
      await new Promise((r) => setTimeout(r, 5));
      notifications.length = 0;
      server.notifyResourceUpdated("demo://readme");
      await new Promise((r) => setTimeout(r, 5));
      expect(
        notifications.map(
          ([, p]) => (p as { _meta: Record<string, unknown> })._meta["io.modelcontextprotocol/subscriptionId"],
        ),
      ).toEqual([sub.id]);
      const ended = sub.ended;
      await server.close();
      await expect(ended).resolves.toBeUndefined();
    }
  });
});

describe("capability enforcement and server→client traffic (handshake era)", () => {
  it("never sends what the peer did not declare, and refuses what we did not declare", async () => {
    const { McpServer } = await import("../../../runtime/index.ts");
    const server = new McpServer({ revisions: builtinRevisions, info: { name: "tools-only", version: "1" } });
    server.tool({ name: "ask", inputSchema: { type: "object" } }, async (_args, ctx) => {
      await ctx.elicit({ message: "?", requestedSchema: { type: "object", properties: {} } });
      return { content: [] };
    });
    const [a, b] = createMemoryTransportPair();
    const session = await server.connect(b);
    const client = new McpClient({
      info: { name: "bare", version: "1" },
      revisions: builtinRevisions.filter((r) => ["2025-11-25"].includes(r.version)),
    });
    await client.connect(a);
    // The server declared no resources: the client refuses before sending.
    await expect(client.subscribeResource("x://y")).rejects.toThrow(
      /did not declare the server capability resources.subscribe/,
    );
    // The client declared no elicitation: the server refuses to send it; the tool reports the error.
    const asked = await client.callTool("ask", {});
    expect(asked).toMatchObject({ isError: true, content: [{ text: expect.stringContaining("elicitation") }] });
    // The client declared no roots: it may not announce root changes.
    await expect(client.notifyRootsListChanged()).rejects.toBeInstanceOf(ProtocolUsageError);
    // Server→client ping works in the handshake era; notifications are checked against the table and the gates.
    await session.ping(1000);
    const changed: unknown[] = [];
    client.on("notifications/tools/list_changed", (p) => changed.push(p));
    await session.notify("notifications/tools/list_changed");
    await expect(session.notify("notifications/initialized")).rejects.toBeInstanceOf(ProtocolUsageError);
    await expect(session.notify("notifications/resources/list_changed")).rejects.toThrow(/resources.listChanged/);
    await new Promise((r) => setTimeout(r, 5));
    expect(changed).toHaveLength(1);
    expect(session.revision).toBe("2025-11-25");
    expect(session.clientInfo).toMatchObject({ name: "bare" });
    await client.close();
  });

  it("lets a client with roots announce changes", async () => {
    const seen: string[] = [];
    const server = createDemoServer({ onClientNotification: (method) => seen.push(method) });
    const [a, b] = createMemoryTransportPair();
    await server.connect(b);
    const client = new McpClient({
      info: { name: "c", version: "1" },
      revisions: builtinRevisions.filter((r) => ["2025-06-18"].includes(r.version)),
      handlers: { roots: () => ({ roots: [] }) },
    });
    await client.connect(a);
    await client.notifyRootsListChanged();
    await new Promise((r) => setTimeout(r, 5));
    expect(seen).toEqual(["notifications/roots/list_changed"]);
  });
});

describe("transport context reaches handlers", () => {
  const newestOf = (era: string) => SUPPORTED_REVISIONS.find((r) => getProfile(r)!.era === era)!;

  it.each([newestOf("handshake"), newestOf("stateless")])("exposes authInfo and headers at %s", async (revision) => {
    const { McpServer } = await import("../../../runtime/index.ts");
    const server = new McpServer({ revisions: builtinRevisions, info: { name: "auth", version: "1" } });
    server.tool({ name: "whoami", inputSchema: { type: "object" } }, (_args, ctx) => ({
      content: [
        {
          type: "text",
          text: `${ctx.authInfo?.clientId}|${ctx.authInfo?.scopes.join(",")}|${ctx.headers?.["x-request-id"]}`,
        },
      ],
    }));
    const [a, b] = createMemoryTransportPair({
      serverContext: {
        authInfo: { token: "t", clientId: "client-7", scopes: ["read"] },
        headers: { "x-request-id": "req-1" },
      },
    });
    await server.connect(b);
    const client = new McpClient({
      info: { name: "c", version: "1" },
      revisions: builtinRevisions.filter((r) => r.version === revision),
    });
    await client.connect(a);
    expect((await client.callTool("whoami", {})).content[0]).toMatchObject({ text: "client-7|read|req-1" });
    // Authenticated callers get private caching hints on cacheable results (stateless era).
    if (client.era === "stateless") expect(await client.listTools()).toMatchObject({ cacheScope: "private" });
    await client.close();
  });
});

describe("a stateless server ending a listen stream with notifications/cancelled", () => {
  it("ends the client's subscription", async () => {
    const { JsonRpcEngine } = await import("../../../runtime/advanced.ts");
    const stateless = SUPPORTED_REVISIONS.find((r) => getProfile(r)!.era === "stateless")!;
    const [a, b] = createMemoryTransportPair();
    const fake: InstanceType<typeof JsonRpcEngine> = new JsonRpcEngine(b, {
      onRequest: (request) => {
        if (request.method === "server/discover") {
          return {
            resultType: "complete",
            supportedVersions: [stateless],
            capabilities: { tools: { listChanged: true } },
            ttlMs: 0,
            cacheScope: "public",
          };
        }
        const meta = { "io.modelcontextprotocol/subscriptionId": request.id };
        void fake.notify("notifications/subscriptions/acknowledged", {
          _meta: meta,
          notifications: { toolsListChanged: true },
        });
        setTimeout(
          () => void fake.notify("notifications/cancelled", { requestId: request.id, reason: "shutting down" }),
          5,
        );
        return new Promise(() => undefined);
      },
      onNotification: () => undefined,
    });
    await fake.start();
    const client = new McpClient({
      info: { name: "c", version: "1" },
      revisions: builtinRevisions.filter((r) => r.version === stateless),
    });
    await client.connect(a);
    const sub = await client.listen({ toolsListChanged: true });
    await expect(sub.ended).resolves.toBeUndefined();
  });
});
