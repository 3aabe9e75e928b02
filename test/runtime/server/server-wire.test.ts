/** The server as seen on the wire: raw frames in, exact JSON-RPC out. */
import { describe, expect, it } from "vitest";
import { addKeyedInputTools, createDemoServer } from "../fixtures/demo-server.ts";
import { ScriptedTransport } from "../helpers.ts";

const STATELESS = "2026-07-28";
const meta = (caps: Record<string, unknown> = {}) => ({
  "io.modelcontextprotocol/protocolVersion": STATELESS,
  "io.modelcontextprotocol/clientCapabilities": caps,
});

async function open() {
  const server = createDemoServer({ requestStateKey: "k" });
  const t = new ScriptedTransport();
  await server.connect(t);
  let n = 0;
  const ask = async (frame: string | object) => {
    const before = t.sent.length;
    t.inject(frame);
    await t.waitForSent(before + 1);
    n++;
    return t.sent[before] as {
      id?: unknown;
      result?: Record<string, unknown>;
      error?: { code: number; message: string; data?: unknown };
    };
  };
  return { t, ask, server, next: () => n };
}

describe("handshake era on the wire", () => {
  async function initialized(version = "2025-06-18") {
    const w = await open();
    const init = await w.ask({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    w.t.inject({ jsonrpc: "2.0", method: "notifications/initialized" });
    return { ...w, init };
  }

  it("negotiates: echoes a supported version, offers its newest otherwise", async () => {
    expect((await initialized("2025-03-26")).init.result?.["protocolVersion"]).toBe("2025-03-26");
    expect((await initialized("1999-01-01")).init.result?.["protocolVersion"]).toBe("2025-11-25");
  });

  it("answers malformed input mid-session with the right codes and keeps serving", async () => {
    const { ask } = await initialized();
    expect(await ask("{oops")).toEqual({ jsonrpc: "2.0", id: null, error: expect.objectContaining({ code: -32700 }) });
    expect(await ask({ jsonrpc: "2.0", id: 5, method: 12 })).toMatchObject({ id: 5, error: { code: -32600 } });
    expect(await ask({ jsonrpc: "2.0", id: 6, method: "tools/unknown" })).toMatchObject({
      id: 6,
      error: { code: -32601 },
    });
    const invalid = await ask({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: 42 } });
    expect(invalid).toMatchObject({ id: 7, error: { code: -32602 } });
    expect(invalid.error?.message).toContain("params.name");
    expect(await ask({ jsonrpc: "2.0", id: 8, method: "initialize", params: {} })).toMatchObject({
      id: 8,
      error: { code: -32600 },
    });
    expect(
      await ask({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 2 } } }),
    ).toMatchObject({
      id: 9,
      result: { structuredContent: { sum: 3 } },
    });
  });

  it("hides handler crashes behind -32603", async () => {
    const server = createDemoServer();
    server.resource({ uri: "demo://crash", name: "crash" }, () => {
      throw new Error("secret detail");
    });
    const t = new ScriptedTransport();
    await server.connect(t);
    t.inject({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "r", version: "1" } },
    });
    t.inject({ jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: "demo://crash" } });
    const sent = await t.waitForSent(2);
    expect(sent[1]).toEqual({ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error" } });
  });

  it("accepts batches only in a revision that has them", async () => {
    const batch = [
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "add", arguments: { a: 1, b: 1 } } },
    ];
    const old = await initialized("2025-03-26");
    expect(await old.ask(JSON.stringify(batch))).toEqual([
      { jsonrpc: "2.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: 2, result: expect.objectContaining({ structuredContent: { sum: 2 } }) },
    ]);
    const newer = await initialized("2025-06-18");
    expect(await newer.ask(JSON.stringify(batch))).toMatchObject({ id: null, error: { code: -32600 } });
  });

  it("refuses requests before initialize without _meta", async () => {
    const { ask } = await open();
    expect(await ask({ jsonrpc: "2.0", id: 1, method: "ping" })).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(await ask({ jsonrpc: "2.0", id: 2, method: "tools/list" })).toMatchObject({
      id: 2,
      error: { code: -32602 },
    });
  });
});

describe("stateless era on the wire", () => {
  it("rejects unsupported versions with -32022 and missing _meta fields with -32602", async () => {
    const { ask } = await open();
    const unsupported = await ask({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: { _meta: { ...meta(), "io.modelcontextprotocol/protocolVersion": "1900-01-01" } },
    });
    expect(unsupported.error).toMatchObject({
      code: -32022,
      data: { requested: "1900-01-01", supported: expect.arrayContaining([STATELESS, "2024-11-05"]) },
    });
    const noCaps = await ask({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/list",
      params: { _meta: { "io.modelcontextprotocol/protocolVersion": STATELESS } },
    });
    expect(noCaps.error?.code).toBe(-32602);
    expect(noCaps.error?.message).toContain("io.modelcontextprotocol/clientCapabilities");
    expect(await ask({ jsonrpc: "2.0", id: 3, method: "ping", params: { _meta: meta() } })).toMatchObject({
      error: { code: -32601 },
    });
  });

  it("answers a stateless-era initialize with -32601 and starts no handshake", async () => {
    const { ask } = await open();
    const init = await ask({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        _meta: meta(),
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "raw", version: "1" },
      },
    });
    expect(init).toMatchObject({ id: 1, error: { code: -32601 } });
    // Still no session: a request without _meta is refused as before initialize.
    expect(await ask({ jsonrpc: "2.0", id: 2, method: "tools/list" })).toMatchObject({
      id: 2,
      error: { code: -32602 },
    });
    const handshake = await ask({
      jsonrpc: "2.0",
      id: 3,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    expect(handshake.result?.["protocolVersion"]).toBe("2025-06-18");
  });

  it("serves discover with caching hints and serverInfo", async () => {
    const { ask } = await open();
    const { result } = await ask({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: meta() } });
    expect(result).toMatchObject({
      resultType: "complete",
      ttlMs: 0,
      cacheScope: "public",
      supportedVersions: expect.arrayContaining([STATELESS]),
      capabilities: { tools: { listChanged: true }, prompts: { listChanged: true } },
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "demo-server", version: "1.0.0" } },
    });
  });

  it("keys inputs by the handler's chosen key, numbering only the unkeyed ones", async () => {
    const { ask, server } = await open();
    addKeyedInputTools(server);
    const caps = { elicitation: {}, sampling: {}, roots: {} };
    const call = (id: number, name: string, extra: Record<string, unknown> = {}) =>
      ask({ jsonrpc: "2.0", id, method: "tools/call", params: { _meta: meta(caps), name, arguments: {}, ...extra } });
    const round1 = (await call(1, "ask-keyed")).result!;
    expect(round1).toMatchObject({
      resultType: "input_required",
      inputRequests: { user_name: { method: "elicitation/create", params: { message: "Your name?" } } },
    });
    expect(Object.keys(round1["inputRequests"] as object)).toEqual(["user_name"]);
    // A wrong key is not an answer: the same input is requested again; extra keys are ignored.
    const wrong = (
      await call(2, "ask-keyed", { inputResponses: { "input-0": { action: "accept", content: { name: "Eve" } } } })
    ).result!;
    expect(Object.keys(wrong["inputRequests"] as object)).toEqual(["user_name"]);
    const round2 = (
      await call(3, "ask-keyed", {
        inputResponses: {
          user_name: { action: "accept", content: { name: "Ada" } },
          extra: { action: "accept", content: { foo: "bar" } },
        },
        requestState: round1["requestState"],
      })
    ).result!;
    expect(round2["inputRequests"]).toEqual({
      capital: {
        method: "sampling/createMessage",
        params: { messages: [{ role: "user", content: { type: "text", text: "hi" } }], maxTokens: 10 },
      },
      "input-0": { method: "roots/list", params: {} },
    });
    const answers = {
      capital: { role: "assistant", content: { type: "text", text: "Paris" }, model: "m" },
      "input-0": { roots: [{ uri: "file:///r" }] },
    };
    const final = await call(4, "ask-keyed", { inputResponses: answers, requestState: round2["requestState"] });
    expect(final.result).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: "Ada|Paris|file:///r" }],
    });
    const badAnswer = await call(5, "ask-keyed", { inputResponses: { user_name: { action: "maybe" } } });
    expect(badAnswer.error).toMatchObject({
      code: -32602,
      message: expect.stringContaining("inputResponses.user_name"),
    });
  });

  it("refuses one key for two different questions, and an empty key", async () => {
    const { ask, server } = await open();
    addKeyedInputTools(server);
    const twice = await ask({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        _meta: meta({ elicitation: {} }),
        name: "ask-key-twice",
        arguments: {},
        inputResponses: { k: { action: "accept", content: {} } },
      },
    });
    expect(twice.result).toMatchObject({
      isError: true,
      content: [{ type: "text", text: expect.stringContaining("input key k is used for two different") }],
    });
    const empty = await ask({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { _meta: meta({ roots: {} }), name: "ask-empty-key", arguments: {} },
    });
    expect(empty.result).toMatchObject({
      isError: true,
      content: [{ type: "text", text: expect.stringContaining("non-empty string") }],
    });
  });

  it("runs a multi round-trip request and rejects tampered or misused requestState", async () => {
    const { ask } = await open();
    const caps = { elicitation: {} };
    const call = (id: number, extra: Record<string, unknown> = {}) =>
      ask({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { _meta: meta(caps), name: "ask", arguments: {}, ...extra },
      });
    const missing = await ask({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { _meta: meta(), name: "ask", arguments: {} },
    });
    expect(missing.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
    const urlOnly = await ask({
      jsonrpc: "2.0",
      id: 11,
      method: "tools/call",
      params: { _meta: meta({ elicitation: { url: {} } }), name: "ask", arguments: {} },
    });
    expect(urlOnly.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { form: {} } } },
    });
    const round1 = (await call(2)).result!;
    expect(round1).toMatchObject({
      resultType: "input_required",
      inputRequests: { "input-0": { method: "elicitation/create" } },
    });
    const state1 = round1["requestState"] as string;
    const round2 = (
      await call(3, {
        inputResponses: { "input-0": { action: "accept", content: { name: "Ada" } } },
        requestState: state1,
      })
    ).result!;
    expect(Object.keys(round2["inputRequests"] as object)).toEqual(["input-1"]);
    const state2 = round2["requestState"] as string;
    const final = await call(4, {
      inputResponses: { "input-1": { action: "accept", content: { city: "Paris" } } },
      requestState: state2,
    });
    expect(final.result).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "Ada from Paris" }] });
    const tampered = state2.slice(0, -2) + (state2.endsWith("AA") ? "BB" : "AA");
    expect((await call(5, { requestState: tampered })).error?.code).toBe(-32602);
    const otherTool = await ask({
      jsonrpc: "2.0",
      id: 6,
      method: "tools/call",
      params: { _meta: meta(caps), name: "ask", arguments: { x: 1 }, requestState: state2 },
    });
    expect(otherTool.error).toMatchObject({ code: -32602, message: expect.stringContaining("different request") });
    const badAnswer = await call(7, { inputResponses: { "input-0": { action: "maybe" } } });
    expect(badAnswer.error?.code).toBe(-32602);
  });

  it("does not offer multi round-trip on methods that cannot return it", async () => {
    const { ask } = await open();
    const r = await ask({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { _meta: meta(), name: "add", arguments: { a: 1, b: 2 } },
    });
    expect(r.result).toMatchObject({ resultType: "complete", structuredContent: { sum: 3 } });
    expect(r.result).not.toHaveProperty("ttlMs");
  });
});
