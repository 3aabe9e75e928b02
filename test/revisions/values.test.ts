/**
 * Revisions as values, on the server: a descriptor the package does not ship (a different wire version that is not a
 * date, a method the built-in tables lack) is served, negotiated and ranked by the documented rule; extension
 * methods are served only when both sides declare the extension; handlers are registered and typed by token.
 */
import { describe, expect, it } from "vitest";
import { revision as r2025_11_25 } from "../../runtime/generated/protocol/2025-11-25/index.ts";
import type { RevisionDescriptor } from "../../runtime/protocol/method-type.ts";
import { selectProfiles } from "../runtime/builtin-lookup.ts";
import { eraOf, getProfile } from "../runtime/builtin-lookup.ts";
import { McpServer } from "../../runtime/server/server.ts";
import type { ServerOptions } from "../../runtime/server/options.ts";
import { ScriptedTransport } from "../runtime/helpers.ts";
import { addNote, handshakeDraft, noteSeen, notesChanged, statelessDraft } from "./drafts.ts";
import { builtinRevisions } from "../../runtime/protocol/builtin-revisions.ts";

async function wire(options: Partial<ServerOptions>, setup?: (server: McpServer) => void) {
  const server = new McpServer({ revisions: builtinRevisions, info: { name: "notes", version: "1" }, ...options });
  setup?.(server);
  const t = new ScriptedTransport();
  await server.connect(t);
  let id = 0;
  const ask = async (method: string, params: object) => {
    const before = t.sent.length;
    t.inject({ jsonrpc: "2.0", id: ++id, method, params });
    await t.waitForSent(before + 1);
    return t.sent[before] as {
      result?: Record<string, unknown>;
      error?: { code: number; message: string; data?: unknown };
    };
  };
  return { server, t, ask };
}

const statelessMeta = (version: string, capabilities: object = {}) => ({
  "io.modelcontextprotocol/protocolVersion": version,
  "io.modelcontextprotocol/clientCapabilities": capabilities,
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
});

describe("a revision the package does not ship", () => {
  it("is served under its own wire version, with its new method typed by its token", async () => {
    let n = 0;
    const { ask, server } = await wire(
      { revisions: [...builtinRevisions.filter((r) => ["2025-11-25"].includes(r.version)), statelessDraft] },
      (server) => server.setRequestHandler(addNote, (params) => ({ id: (n += params.text.length) })),
    );
    const discover = await ask("server/discover", { _meta: statelessMeta("draft-b") });
    expect(discover.result?.["supportedVersions"]).toEqual(["draft-b", "2025-11-25"]);
    expect(discover.result?.["resultType"]).toBe("complete");
    expect(await ask("notes/add", { text: "abc", _meta: statelessMeta("draft-b") })).toMatchObject({
      result: { id: 3, resultType: "complete" },
    });
    expect((await ask("notes/add", { text: 7, _meta: statelessMeta("draft-b") })).error?.code).toBe(-32602);
    // Not served: the built-in stateless revision the list left out.
    expect((await ask("tools/list", { _meta: statelessMeta("2026-07-28") })).error).toMatchObject({
      code: -32022,
      data: { requested: "2026-07-28" },
    });
    // Known to the server it was given to, as a value; nothing registered it process-wide.
    expect(server.revisions.find((r) => r.version === "draft-b")?.era).toBe("stateless");
    expect(server.revisions.find((r) => r.version === "draft-b")?.name).toBe("draft");
    expect(eraOf("draft-b")).toBeUndefined();
    expect(getProfile("draft-b")).toBeUndefined();
  });

  it("is negotiated by initialize in the handshake era, and preferred over every built-in revision", async () => {
    const { ask } = await wire(
      {
        revisions: [
          ...builtinRevisions.filter((r) => ["2025-06-18", "2025-11-25"].includes(r.version)),
          handshakeDraft,
        ],
      },
      (server) => server.setRequestHandler(addNote, () => ({ id: 1 })),
    );
    const init = await ask("initialize", {
      protocolVersion: "1999-01-01",
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    });
    expect(init.result?.["protocolVersion"]).toBe("handshake-next");
    expect(await ask("notes/add", { text: "x" })).toMatchObject({ result: { id: 1 } });
  });

  it("a method without a handler is unknown, even when its revision has it", async () => {
    const { ask } = await wire({ revisions: [statelessDraft] });
    expect((await ask("notes/add", { text: "x", _meta: statelessMeta("draft-b") })).error?.code).toBe(-32601);
  });
});

describe("preference order", () => {
  const versions = (list: Parameters<typeof selectProfiles>[0]) => selectProfiles(list).map((p) => p.version);

  it("ranks built-in revisions by release, whatever the list order, and added ones above them in list order", () => {
    expect(versions(["2025-11-25", "2025-03-26", "2025-06-18"])).toEqual(["2025-11-25", "2025-06-18", "2025-03-26"]);
    expect(versions([statelessDraft, "2026-07-28", handshakeDraft])).toEqual([
      "handshake-next",
      "draft-b",
      "2026-07-28",
    ]);
    // A regenerated copy of a built-in revision (same wire version) keeps its rank.
    const copy: RevisionDescriptor = { ...r2025_11_25, name: "my-copy" };
    expect(versions([copy, "2025-06-18"])).toEqual(["2025-11-25", "2025-06-18"]);
    expect(selectProfiles([copy])[0]?.name).toBe("my-copy");
  });

  it("accepts any name and rejects a version listed twice or a descriptor without a version", () => {
    expect(versions([{ ...statelessDraft, name: "not a date at all" }])).toEqual(["draft-b"]);
    expect(() => selectProfiles([statelessDraft, { ...statelessDraft, name: "again" }])).toThrow(/listed twice/);
    expect(() => selectProfiles([{ ...statelessDraft, version: "" }])).toThrow(/no version/);
  });
});

describe("extension methods", () => {
  const extension = { id: "com.example/notes", settings: { max: 3 }, methods: [addNote, noteSeen, notesChanged] };
  const init = (capabilities: object) => ({
    protocolVersion: "2025-11-25",
    capabilities,
    clientInfo: { name: "raw", version: "1" },
  });

  it("are advertised, and served only to a client that declares the extension", async () => {
    const seen: number[] = [];
    const setup = (server: McpServer) =>
      server
        .setRequestHandler(addNote, (params) => ({ id: params.text.length }))
        .setNotificationHandler(noteSeen, (params) => void seen.push(params.id));
    const declaring = await wire(
      { revisions: builtinRevisions.filter((r) => ["2025-11-25"].includes(r.version)), extensions: [extension] },
      setup,
    );
    const opened = await declaring.ask("initialize", init({ extensions: { "com.example/notes": {} } }));
    expect(opened.result?.["capabilities"]).toMatchObject({ extensions: { "com.example/notes": { max: 3 } } });
    expect(await declaring.ask("notes/add", { text: "four" })).toMatchObject({ result: { id: 4 } });
    declaring.t.inject({ jsonrpc: "2.0", method: "notes/seen", params: { id: 9 } });
    declaring.t.inject({ jsonrpc: "2.0", method: "notes/seen", params: { id: "not a number" } });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(seen).toEqual([9]);

    const silent = await wire(
      { revisions: builtinRevisions.filter((r) => ["2025-11-25"].includes(r.version)), extensions: [extension] },
      setup,
    );
    await silent.ask("initialize", init({}));
    // An undeclared extension's method needs a capability the client lacks (SEP-2133: "an appropriate error").
    expect((await silent.ask("notes/add", { text: "four" })).error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { "com.example/notes": {} } } },
    });
  });

  it("in the stateless era, follow the capabilities each request declares", async () => {
    const { ask } = await wire(
      { revisions: builtinRevisions.filter((r) => ["2026-07-28"].includes(r.version)), extensions: [extension] },
      (server) => server.setRequestHandler(addNote, () => ({ id: 5 })),
    );
    const declared = statelessMeta("2026-07-28", { extensions: { "com.example/notes": {} } });
    expect(await ask("notes/add", { text: "x", _meta: declared })).toMatchObject({
      result: { id: 5, resultType: "complete" },
    });
    // basic/index.mdx: a request needing a capability the client did not declare gets -32021 naming it.
    expect((await ask("notes/add", { text: "x", _meta: statelessMeta("2026-07-28") })).error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { "com.example/notes": {} } } },
    });
  });

  it("are sent to a client by token only when it declared the extension", async () => {
    const declaring = await wire({
      revisions: builtinRevisions.filter((r) => ["2025-11-25"].includes(r.version)),
      extensions: [extension],
    });
    await declaring.ask("initialize", init({ extensions: { "com.example/notes": {} } }));
    const session = [...declaring.server.sessions][0]!;
    const before = declaring.t.sent.length;
    await session.notify(notesChanged, { count: 2 });
    expect(declaring.t.sent.slice(before)).toEqual([{ jsonrpc: "2.0", method: "notes/changed", params: { count: 2 } }]);

    const silent = await wire({
      revisions: builtinRevisions.filter((r) => ["2025-11-25"].includes(r.version)),
      extensions: [extension],
    });
    await silent.ask("initialize", init({}));
    await expect([...silent.server.sessions][0]!.notify(notesChanged, { count: 2 })).rejects.toThrow(
      /not a server notification/,
    );
  });

  it("cannot be declared twice", () => {
    expect(
      () =>
        new McpServer({
          revisions: builtinRevisions,
          info: { name: "x", version: "1" },
          extensions: [extension, { ...extension, id: "com.example/other" }],
        }),
    ).toThrow(/declared by both/);
  });
});

describe("handlers by token", () => {
  it("replace a built-in implementation and are typed by the token", async () => {
    const { ask } = await wire(
      { revisions: builtinRevisions.filter((r) => ["2025-11-25"].includes(r.version)), capabilities: { tools: {} } },
      (server) =>
        server.setRequestHandler(r2025_11_25.methods["tools/list"], (params) => ({
          tools: [],
          nextCursor: params?.cursor ?? "none",
        })),
    );
    await ask("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    });
    expect(await ask("tools/list", { cursor: "c1" })).toMatchObject({ result: { tools: [], nextCursor: "c1" } });
  });

  it("reject tokens the server cannot answer", () => {
    const server = new McpServer({ revisions: builtinRevisions, info: { name: "x", version: "1" } });
    expect(() =>
      server.setRequestHandler(r2025_11_25.methods["sampling/createMessage"], () => ({
        role: "assistant" as const,
        model: "m",
        content: { type: "text" as const, text: "" },
      })),
    ).toThrow(/not a client→server request/);
    // @ts-expect-error: the result must match the token's result type
    server.setRequestHandler(addNote, () => ({ id: "one" }));
    // @ts-expect-error: params are typed by the token
    server.setRequestHandler(addNote, (params) => ({ id: params.title.length }));
  });
});
