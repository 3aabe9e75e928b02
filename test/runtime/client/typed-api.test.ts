/**
 * The client API typed by method tokens: `request(token, params)` checks params at compile time and resolves to the
 * token's complete result; `notify`, `on` and `handle` are typed the same way. The type assertions are checked by
 * tsc (this file is in the project); the `@ts-expect-error` lines fail tsc if a wrong call stops being an error.
 * At run time the same calls go to a real McpServer in both eras.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { methods as m25 } from "../../../runtime/generated/protocol/2025-11-25/methods.ts";
import { methods as m26 } from "../../../runtime/generated/protocol/2026-07-28/methods.ts";
import type * as T25 from "../../../runtime/generated/protocol/2025-11-25/types.ts";
import type * as T26 from "../../../runtime/generated/protocol/2026-07-28/types.ts";
import {
  builtinRevisions,
  createMemoryTransportPair,
  McpClient,
  McpServer,
  ProtocolUsageError,
} from "../../../runtime/index.ts";

async function connect(revision: string, client?: McpClient): Promise<{ client: McpClient; server: McpServer }> {
  const server = new McpServer({
    revisions: builtinRevisions,
    info: { name: "typed-server", version: "1" },
    capabilities: { tools: { listChanged: true } },
  });
  server.tool({ name: "echo", inputSchema: { type: "object" } }, (args) => ({
    content: [{ type: "text", text: String(args["text"]) }],
  }));
  server.tool({ name: "roots", inputSchema: { type: "object" } }, async (_args, ctx) => {
    const { roots } = await ctx.listRoots();
    return { content: [{ type: "text", text: roots.map((r) => r.uri).join(",") }] };
  });
  const [a, b] = createMemoryTransportPair();
  await server.connect(b);
  const c =
    client ??
    new McpClient({
      info: { name: "typed-client", version: "1" },
      revisions: builtinRevisions.filter((r) => r.version === revision),
    });
  await c.connect(a);
  return { client: c, server };
}

describe("requests typed by token", () => {
  it("resolves to the token's complete result (stateless era: never the InputRequiredResult member)", async () => {
    const { client } = await connect("2026-07-28");
    const result = await client.request(m26["tools/call"], { name: "echo", arguments: { text: "hi" } });
    expectTypeOf(result).toEqualTypeOf<T26.CallToolResult>();
    expectTypeOf(result.content).toEqualTypeOf<T26.ContentBlock[]>();
    expect(result.content).toEqual([{ type: "text", text: "hi" }]);
    expect(result.resultType).toBe("complete");
    await client.close();
  });

  it("leaves out params the token makes optional, and types the handshake era's results", async () => {
    const { client } = await connect("2025-11-25");
    const list = await client.request(m25["tools/list"]);
    expectTypeOf(list).toEqualTypeOf<T25.ListToolsResult>();
    expect(list.tools.map((t) => t.name)).toEqual(["echo", "roots"]);
    const pong = await client.request(m25["ping"], undefined, { timeoutMs: 30_000 });
    expect(pong).toEqual({});
    await client.close();
  });

  it("checks params at compile time (these calls are never run)", () => {
    const client = new McpClient({ revisions: builtinRevisions, info: { name: "c", version: "1" } });
    const typeOnly = () => {
      // @ts-expect-error `name` is required
      void client.request(m26["tools/call"], { arguments: {} });
      // @ts-expect-error `name` is a string
      void client.request(m26["tools/call"], { name: 42 });
      // @ts-expect-error tools/call has required params
      void client.request(m26["tools/call"]);
      // @ts-expect-error not a field of CallToolRequestParams
      void client.request(m25["tools/call"], { name: "echo", bogus: true });
      // @ts-expect-error requestState is the client's to fill in (a retry's state), not the caller's
      void client.request(m26["tools/call"], { name: "echo", requestState: "x" });
      // `_meta` is optional (merged with the client's own) although the 2026-07-28 params require it.
      void client.request(m26["tools/list"], { _meta: { "com.example/trace": "1" } });
      void client.notify(m25["notifications/roots/list_changed"]);
      // @ts-expect-error `requestId` must be a string or number
      void client.notify(m25["notifications/cancelled"], { requestId: true });
    };
    expect(typeof typeOnly).toBe("function");
  });

  it("refuses locally a token whose method the negotiated revision does not have", async () => {
    const { client } = await connect("2025-11-25");
    await expect(
      client.request(m26["subscriptions/listen"], { notifications: { toolsListChanged: true } }),
    ).rejects.toThrow(
      new ProtocolUsageError(
        "subscriptions/listen is not a client request in revision 2025-11-25 nor in a negotiated extension",
      ),
    );
    await client.close();
  });
});

describe("listeners and handlers typed by token", () => {
  it("types a notification listener's params", async () => {
    const { client, server } = await connect("2025-11-25");
    const seen: unknown[] = [];
    client.on(m25["notifications/tools/list_changed"], (params) => {
      expectTypeOf(params).toEqualTypeOf<T25.NotificationParams>();
      seen.push(params);
    });
    server.tool({ name: "late", inputSchema: { type: "object" } }, () => ({ content: [] }));
    await expect.poll(() => seen.length).toBe(1);
    await client.close();
  });

  it("answers server→client requests with a handler registered by token, in both eras", async () => {
    for (const revision of ["2025-11-25", "2026-07-28"]) {
      const client = new McpClient({
        info: { name: "typed-client", version: "1" },
        revisions: builtinRevisions.filter((r) => r.version === revision),
      });
      client.handle(m25["roots/list"], (params, context) => {
        expectTypeOf(params).toEqualTypeOf<T25.RequestParams>();
        return { roots: [{ uri: `file:///${context.era}` }] };
      });
      expect(client.capabilities).toEqual({ roots: {} });
      const { client: c } = await connect(revision, client);
      const result = await c.callTool("roots", {});
      expect(result.content).toEqual([{ type: "text", text: `file:///${c.era}` }]);
      expect(() => c.handle(m25["roots/list"], () => ({ roots: [] }))).toThrow(ProtocolUsageError);
      await c.close();
    }
  });

  it("types a handler's answer (never run)", () => {
    const client = new McpClient({ revisions: builtinRevisions, info: { name: "c", version: "1" } });
    const typeOnly = () => {
      // @ts-expect-error `roots` must be an array of roots
      client.handle(m25["roots/list"], () => ({ roots: "file:///" }));
      // @ts-expect-error an elicitation answer needs an action
      client.handle(m25["elicitation/create"], () => ({ content: {} }));
    };
    expect(typeof typeOnly).toBe("function");
  });
});
