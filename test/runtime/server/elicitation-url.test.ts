/**
 * URL-mode elicitation end to end with the typed client handler: a server→client `elicitation/create` request with
 * `mode: "url"` in the handshake era (2025-11-25, with `ctx.completeElicitation` sending
 * `notifications/elicitation/complete`, and the -32042 error), and the same handler code as an `InputRequiredResult`
 * round in the stateless era (2026-07-28, which has no completion notification). Modes are gated on both sides (the
 * client's refusal of an undeclared mode: test/runtime/client/elicitation-modes.test.ts).
 */
import { describe, expect, it } from "vitest";
import {
  builtinRevisions,
  createMemoryTransportPair,
  McpClient,
  MetaKey,
  McpServer,
  RpcError,
  type ClientOptions,
  type ClientRequestContext,
  type ElicitParams,
  type ElicitResult,
  type RequestContext,
} from "../../../runtime/index.ts";
import { JsonRpcEngine } from "../../../runtime/advanced.ts";
import { getProfile } from "../builtin-lookup.ts";

const HANDSHAKE = "2025-11-25";
const STATELESS = "2026-07-28";
const URL = "https://auth.example.com/connect?session=opaque";

/** A server whose tool sends the user to a URL; the handler is written once for both eras. */
function urlServer() {
  const runs: string[] = [];
  /** What each `completeElicitation` call resolved to (true: the notification went out). */
  const completions: boolean[] = [];
  /** Contexts of requests that ended with -32042, kept to signal completion once the user is back. */
  const awaitingUser = new Map<string, RequestContext>();
  const server = new McpServer({ revisions: builtinRevisions, info: { name: "url-server", version: "1" } });
  server.tool({ name: "connect", inputSchema: { type: "object" } }, async (_args, ctx) => {
    runs.push(ctx.era);
    // elicitationId (and the completion notification it names) exists only in 2025-11-25.
    const params: ElicitParams =
      ctx.era === "handshake"
        ? { mode: "url", message: "Connect your account", url: URL, elicitationId: "el-1" }
        : { mode: "url", message: "Connect your account", url: URL };
    const answer = await ctx.elicit(params, { key: "connect" });
    // The user finished the out-of-band flow (here: at once); tell the client where the revision has a way to.
    if (answer.action === "accept") completions.push(await ctx.completeElicitation("el-1"));
    return { content: [{ type: "text", text: `connect: ${answer.action}` }] };
  });
  server.tool({ name: "complete", inputSchema: { type: "object" } }, async (args, ctx) => {
    const sent = await ctx.completeElicitation(args["id"] as string);
    return { content: [{ type: "text", text: `sent: ${sent}` }] };
  });
  server.tool({ name: "form", inputSchema: { type: "object" } }, async (_args, ctx) => {
    const answer = await ctx.elicit({
      message: "Name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } } },
    });
    return { content: [{ type: "text", text: `form: ${answer.action}` }] };
  });
  server.tool({ name: "needs-url", inputSchema: { type: "object" } }, (_args, ctx) => {
    awaitingUser.set("el-2", ctx);
    throw new RpcError(-32042, "This request requires more information.", {
      elicitations: [{ mode: "url", elicitationId: "el-2", url: URL, message: "Authorize access first" }],
    });
  });
  return { server, runs, completions, awaitingUser };
}

async function connect(revision: string, options: Partial<ClientOptions>) {
  const { server, ...recorded } = urlServer();
  const [a, b] = createMemoryTransportPair();
  await server.connect(b);
  const client = new McpClient({
    info: { name: "url-client", version: "1" },
    revisions: builtinRevisions.filter((r) => r.version === revision),
    ...options,
  });
  await client.connect(a);
  const completed: unknown[] = [];
  client.on("notifications/elicitation/complete", (params) => completed.push(params));
  return { client, completed, ...recorded };
}

/** Lets in-flight notifications arrive (the memory transport delivers on a later tick). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 5));

/** A typed handler that records what it was asked. */
function recorder(answer: ElicitResult) {
  const seen: Array<{ params: ElicitParams; context: ClientRequestContext }> = [];
  const elicitation = (params: ElicitParams, context: ClientRequestContext): ElicitResult => {
    seen.push({ params, context });
    return answer;
  };
  return { seen, elicitation };
}

describe.each([HANDSHAKE, STATELESS])("URL-mode elicitation at %s", (revision) => {
  const era = getProfile(revision)!.era;

  it("reaches the typed client handler and returns its answer", async () => {
    const { seen, elicitation } = recorder({ action: "accept" });
    const { client, completed, completions, runs } = await connect(revision, {
      handlers: { elicitation },
      capabilities: { elicitation: { url: {} } },
    });
    expect(client.capabilities).toEqual({ elicitation: { form: {}, url: {} } });

    const result = await client.callTool("connect", {});
    expect(result.content).toEqual([{ type: "text", text: "connect: accept" }]);
    expect(seen).toHaveLength(1);
    const { params, context } = seen[0]!;
    expect(context).toMatchObject({ revision, era });
    if (era === "handshake") {
      expect(params).toEqual({ mode: "url", message: "Connect your account", url: URL, elicitationId: "el-1" });
      // One run: the elicitation was a JSON-RPC request while the tool waited.
      expect(runs).toEqual(["handshake"]);
      // The handler told the client the out-of-band interaction finished.
      expect(completions).toEqual([true]);
      await settle();
      expect(completed).toEqual([{ elicitationId: "el-1" }]);
    } else {
      expect(params).toEqual({ mode: "url", message: "Connect your account", url: URL });
      // Two runs: the first ended in an InputRequiredResult, the retry carried the answer.
      expect(runs).toEqual(["stateless", "stateless"]);
      // 2026-07-28 has no completion notification (the retry is the signal): nothing is sent.
      expect(completions).toEqual([false]);
      await settle();
      expect(completed).toEqual([]);
    }
    await client.close();
  });

  it("passes decline and cancel through", async () => {
    for (const action of ["decline", "cancel"] as const) {
      const { elicitation } = recorder({ action });
      const { client } = await connect(revision, {
        handlers: { elicitation },
        capabilities: { elicitation: { url: {} } },
      });
      expect((await client.callTool("connect", {})).content).toEqual([{ type: "text", text: `connect: ${action}` }]);
      await client.close();
    }
  });

  it("is never sent to a client that declared only form mode", async () => {
    const { seen, elicitation } = recorder({ action: "accept" });
    const { client, runs, completed } = await connect(revision, { handlers: { elicitation } });
    expect(client.capabilities).toEqual({ elicitation: { form: {} } });
    if (era === "handshake") {
      // The server refuses to send it; the tool reports the error as its result.
      const result = await client.callTool("connect", {});
      expect(result).toMatchObject({
        isError: true,
        content: [{ type: "text", text: expect.stringContaining("elicitation mode") }],
      });
    } else {
      await expect(client.callTool("connect", {})).rejects.toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { elicitation: { url: {} } } },
      });
    }
    expect(runs).toHaveLength(1);
    expect(seen).toEqual([]);
    // Nor is a completion notification.
    expect((await client.callTool("complete", { id: "el-1" })).content).toEqual([
      { type: "text", text: "sent: false" },
    ]);
    await settle();
    expect(completed).toEqual([]);
    // Form mode still works for this client.
    expect((await client.callTool("form", {})).content).toEqual([{ type: "text", text: "form: accept" }]);
    await client.close();
  });

  it("rejects a completion whose elicitationId is not a string", async () => {
    const { client, completed } = await connect(revision, {
      handlers: recorder({ action: "accept" }),
      capabilities: { elicitation: { url: {} } },
    });
    const result = await client.callTool("complete", { id: 7 });
    expect(result).toMatchObject({
      isError: true,
      content: [{ type: "text", text: expect.stringContaining("elicitationId must be a string") }],
    });
    await settle();
    expect(completed).toEqual([]);
    await client.close();
  });

  it("lets a client declare URL mode only (form switched off)", async () => {
    const { seen, elicitation } = recorder({ action: "accept" });
    const { client } = await connect(revision, {
      handlers: { elicitation },
      capabilities: { elicitation: { form: undefined, url: {} } },
    });
    expect(client.capabilities).toStrictEqual({ elicitation: { url: {} } });
    expect((await client.callTool("connect", {})).content).toEqual([{ type: "text", text: "connect: accept" }]);
    if (era === "handshake") {
      expect(await client.callTool("form", {})).toMatchObject({ isError: true });
    } else {
      await expect(client.callTool("form", {})).rejects.toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { elicitation: { form: {} } } },
      });
    }
    expect(seen).toHaveLength(1);
    await client.close();
  });
});

describe("URL elicitation required (-32042, 2025-11-25)", () => {
  it("reaches the caller as an RpcError with the elicitations to complete", async () => {
    const { client } = await connect(HANDSHAKE, {
      handlers: recorder({ action: "accept" }),
      capabilities: { elicitation: { url: {} } },
    });
    const error = await client.callTool("needs-url", {}).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({
      code: -32042,
      data: { elicitations: [{ mode: "url", elicitationId: "el-2", url: URL }] },
    });
    await client.close();
  });

  it("is completed from the failed request's context once the user is back", async () => {
    const { client, completed, awaitingUser } = await connect(HANDSHAKE, {
      handlers: recorder({ action: "accept" }),
      capabilities: { elicitation: { url: {} } },
    });
    await expect(client.callTool("needs-url", {})).rejects.toMatchObject({ code: -32042 });
    await settle();
    expect(completed).toEqual([]);
    // Later (e.g. the third-party OAuth callback arrived), long after the request ended.
    expect(await awaitingUser.get("el-2")!.completeElicitation("el-2")).toBe(true);
    await settle();
    expect(completed).toEqual([{ elicitationId: "el-2" }]);
    await client.close();
    // The connection is gone: nothing can be sent.
    expect(await awaitingUser.get("el-2")!.completeElicitation("el-2")).toBe(false);
  });
});

describe("completeElicitation on a session serving both eras", () => {
  it("notifies for the handshake-era request only, not for a stateless-era request on the same connection", async () => {
    const { server } = urlServer();
    const [a, b] = createMemoryTransportPair();
    await server.connect(b);
    const notified: Array<{ method: string; params: unknown }> = [];
    const raw = new JsonRpcEngine(a, {
      onRequest: () => {
        throw new RpcError(-32601, "Method not found");
      },
      onNotification: (method, params) => notified.push({ method, params }),
    });
    await raw.start();
    const capabilities = { elicitation: { url: {} } };
    const clientInfo = { name: "raw", version: "1" };
    await raw.request("initialize", { protocolVersion: HANDSHAKE, capabilities, clientInfo });
    await raw.notify("notifications/initialized");
    const stateless = await raw.request("tools/call", {
      name: "complete",
      arguments: { id: "el-s" },
      _meta: {
        [MetaKey.protocolVersion]: STATELESS,
        [MetaKey.clientCapabilities]: capabilities,
        [MetaKey.clientInfo]: clientInfo,
      },
    });
    expect(stateless).toMatchObject({ content: [{ type: "text", text: "sent: false" }] });
    const handshake = await raw.request("tools/call", { name: "complete", arguments: { id: "el-h" } });
    expect(handshake).toMatchObject({ content: [{ type: "text", text: "sent: true" }] });
    await settle();
    expect(notified).toEqual([{ method: "notifications/elicitation/complete", params: { elicitationId: "el-h" } }]);
    await raw.close();
  });
});

describe("completeElicitation in a handshake revision without URL mode (2025-06-18)", () => {
  it("sends nothing: the revision has no completion notification", async () => {
    const { client, completed } = await connect("2025-06-18", {
      handlers: recorder({ action: "accept" }),
      capabilities: { elicitation: { url: {} } },
    });
    expect(client.revision).toBe("2025-06-18");
    expect((await client.callTool("complete", { id: "el-1" })).content).toEqual([
      { type: "text", text: "sent: false" },
    ]);
    await settle();
    expect(completed).toEqual([]);
    await client.close();
  });
});
