/**
 * `mergeCapabilities` and switching a default capability off with `undefined` (what generated servers do for
 * `logging: false`): the key must disappear, also over the in-memory transport, which hands objects over as they are.
 */
import { describe, expect, it } from "vitest";
import {
  builtinRevisions,
  createMemoryTransportPair,
  McpClient,
  McpServer,
  ProtocolUsageError,
  SUPPORTED_REVISIONS,
} from "../../../runtime/index.ts";
import { mergeCapabilities } from "../../../runtime/protocol/capabilities.ts";
import { getProfile } from "../builtin-lookup.ts";
import { ScriptedTransport } from "../helpers.ts";

const NEWEST_HANDSHAKE = SUPPORTED_REVISIONS.find((r) => getProfile(r)!.era === "handshake")!;
const NEWEST_STATELESS = SUPPORTED_REVISIONS.find((r) => getProfile(r)!.era === "stateless")!;

/** Every key path whose value is `undefined` (toEqual would not notice them). */
function undefinedPaths(value: unknown, path = ""): string[] {
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    inner === undefined ? [`${path}${key}`] : undefinedPaths(inner, `${path}${key}.`),
  );
}

describe("mergeCapabilities", () => {
  it("removes keys set to undefined, at any depth, and never returns undefined values", () => {
    const merged = mergeCapabilities({ logging: {}, tools: { listChanged: true } }, { logging: undefined });
    expect(Object.keys(merged)).toEqual(["tools"]);
    const nested = mergeCapabilities(
      { resources: { subscribe: true, listChanged: true } },
      { resources: { subscribe: undefined } },
    );
    expect(nested).toStrictEqual({ resources: { listChanged: true } });
    // An undefined inside an object that has nothing to merge with is dropped as well.
    const fresh = mergeCapabilities({}, { experimental: { a: undefined, b: {} } });
    expect(fresh).toStrictEqual({ experimental: { b: {} } });
    expect(
      undefinedPaths(mergeCapabilities({ x: { y: {} } }, { x: { y: undefined, z: undefined } }, { w: undefined })),
    ).toEqual([]);
  });

  it("still merges objects deeply and lets later non-objects win", () => {
    expect(mergeCapabilities({ tools: { a: 1 } }, { tools: { b: 2 }, x: {} })).toStrictEqual({
      tools: { a: 1, b: 2 },
      x: {},
    });
    expect(mergeCapabilities({ tools: { listChanged: true } }, { tools: { listChanged: false } })).toStrictEqual({
      tools: { listChanged: false },
    });
    expect(mergeCapabilities({ a: true }, { a: { deep: 1 } })).toStrictEqual({ a: { deep: 1 } });
  });

  it("does not share (or mutate) the inputs", () => {
    const base = { tools: { listChanged: true } };
    const merged = mergeCapabilities(base, { tools: { extra: 1 } });
    expect(base).toStrictEqual({ tools: { listChanged: true } });
    expect(merged["tools"]).not.toBe(base.tools);
  });
});

describe("a server with logging switched off (in memory)", () => {
  function server() {
    const s = new McpServer({
      revisions: builtinRevisions,
      info: { name: "quiet", version: "1" },
      capabilities: { logging: undefined },
    });
    s.tool({ name: "t", inputSchema: { type: "object" } }, () => ({ content: [] }));
    return s;
  }

  it.each([NEWEST_STATELESS, NEWEST_HANDSHAKE])(
    "declares no logging key at %s and refuses logging",
    async (revision) => {
      const s = server();
      expect(s.capabilities()).toStrictEqual({ tools: { listChanged: true } });
      const [a, b] = createMemoryTransportPair();
      await s.connect(b);
      const client = new McpClient({
        info: { name: "c", version: "1" },
        revisions: builtinRevisions.filter((r) => r.version === revision),
      });
      await client.connect(a);
      expect(client.revision).toBe(revision);
      expect(Object.keys(client.serverCapabilities)).toEqual(["tools"]);
      if (client.era === "stateless") {
        const discovered = await client.discover();
        expect(discovered["capabilities"]).toStrictEqual({ tools: { listChanged: true } });
        expect(undefinedPaths(discovered)).toEqual([]);
      } else {
        await expect(client.setLogLevel("info")).rejects.toBeInstanceOf(ProtocolUsageError);
      }
      await client.close();
    },
  );

  it("answers logging/setLevel with -32601 on the wire", async () => {
    const t = new ScriptedTransport();
    await server().connect(t);
    t.inject({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: NEWEST_HANDSHAKE, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    const [init] = await t.waitForSent(1);
    expect(undefinedPaths(init)).toEqual([]);
    expect((init as { result: { capabilities: object } }).result.capabilities).toStrictEqual({
      tools: { listChanged: true },
    });
    t.inject({ jsonrpc: "2.0", method: "notifications/initialized" });
    t.inject({ jsonrpc: "2.0", id: 1, method: "logging/setLevel", params: { level: "info" } });
    const sent = await t.waitForSent(2);
    expect(sent[1]).toMatchObject({ id: 1, error: { code: -32601 } });
  });
});

describe("capability gates for every server→client and client→server feature", () => {
  /** A server offering tools only (no resources, prompts, completions; logging switched off). */
  function toolsOnly() {
    const s = new McpServer({
      revisions: builtinRevisions,
      info: { name: "tools-only", version: "1" },
      capabilities: { logging: undefined },
    });
    s.tool({ name: "sample", inputSchema: { type: "object" } }, async (_a, ctx) => {
      await ctx.createMessage({ messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 5 });
      return { content: [{ type: "text", text: "sampled" }] };
    });
    s.tool({ name: "roots", inputSchema: { type: "object" } }, async (_a, ctx) => {
      await ctx.listRoots();
      return { content: [{ type: "text", text: "rooted" }] };
    });
    return s;
  }

  it.each([NEWEST_HANDSHAKE, NEWEST_STATELESS])(
    "the client sends nothing the server did not declare at %s",
    async (revision) => {
      const [a, b] = createMemoryTransportPair();
      await toolsOnly().connect(b);
      const client = new McpClient({
        info: { name: "c", version: "1" },
        revisions: builtinRevisions.filter((r) => r.version === revision),
      });
      await client.connect(a);
      const refused: Array<() => Promise<unknown>> = [
        () => client.listPrompts(),
        () => client.getPrompt("p"),
        () => client.listResources(),
        () => client.readResource("x://y"),
        () => client.listResourceTemplates(),
        () => client.complete({ ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: "" } }),
      ];
      if (client.era === "handshake")
        refused.push(
          () => client.setLogLevel("info"),
          () => client.subscribeResource("x://y"),
        );
      for (const call of refused) await expect(call()).rejects.toBeInstanceOf(ProtocolUsageError);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["sample", "roots"]);
      await client.close();
    },
  );

  it.each([NEWEST_HANDSHAKE, NEWEST_STATELESS])(
    "the server asks nothing the client did not declare at %s",
    async (revision) => {
      const [a, b] = createMemoryTransportPair();
      await toolsOnly().connect(b);
      const client = new McpClient({
        info: { name: "bare", version: "1" },
        revisions: builtinRevisions.filter((r) => r.version === revision),
      });
      await client.connect(a);
      for (const tool of ["sample", "roots"]) {
        if (client.era === "handshake") {
          expect(await client.callTool(tool, {})).toMatchObject({
            isError: true,
            content: [{ text: expect.stringContaining("did not declare") }],
          });
        } else {
          const gate = tool === "sample" ? { sampling: {} } : { roots: {} };
          await expect(client.callTool(tool, {})).rejects.toMatchObject({
            code: -32021,
            data: { requiredCapabilities: gate },
          });
        }
      }
      // Declared, the same tools work.
      const equipped = new McpClient({
        info: { name: "equipped", version: "1" },
        revisions: builtinRevisions.filter((r) => r.version === revision),
        handlers: {
          sampling: () => ({ role: "assistant", content: { type: "text", text: "s" }, model: "m" }),
          roots: () => ({ roots: [] }),
        },
      });
      const [c, d] = createMemoryTransportPair();
      await toolsOnly().connect(d);
      await equipped.connect(c);
      expect((await equipped.callTool("sample", {})).content).toEqual([{ type: "text", text: "sampled" }]);
      expect((await equipped.callTool("roots", {})).content).toEqual([{ type: "text", text: "rooted" }]);
      await client.close();
      await equipped.close();
    },
  );
});
