/**
 * The engine's framing (runtime/protocol/engine.ts): batches accepted or refused and their replies (only the answers
 * due, nothing once cancelled or closed, a failed send reported), parse errors, request numbering, and close. The
 * rest of the incoming traffic: engine-incoming.test.ts.
 */
import { describe, expect, it } from "vitest";
import { ConnectionClosedError } from "../../../runtime/jsonrpc/errors.ts";
import { engineWith, type Sent } from "./engine-harness.ts";
import { delay } from "../helpers.ts";

describe("batches and close", () => {
  it("answers a batch of only notifications with nothing, and one with an invalid element with that error inside", async () => {
    const notes: string[] = [];
    const { t } = await engineWith({
      acceptsBatch: () => true,
      onNotification: (m) => notes.push(m),
      onRequest: () => ({ ok: 1 }),
    });
    t.inject('[{"jsonrpc":"2.0","method":"a"},{"jsonrpc":"2.0","method":"b"}]');
    await delay(5);
    expect(t.sent).toEqual([]);
    expect(notes).toEqual(["a", "b"]);
    t.inject('[{"jsonrpc":"2.0","id":1,"method":"x"},5]');
    await t.waitForSent(1);
    expect(t.sent[0]).toEqual([
      { jsonrpc: "2.0", id: 1, result: { ok: 1 } },
      {
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: "Invalid request: a JSON-RPC message must be a JSON object" },
      },
    ]);
  });

  it("answers parse errors and dropped oversized input with -32700 naming the reason", async () => {
    const { t } = await engineWith({ acceptsBatch: () => true });
    t.inject("{oops");
    t.sink!.malformed!("message of 9 bytes exceeds the 4-byte limit");
    t.inject("[]");
    await t.waitForSent(3);
    const [parse, oversized, empty] = t.sent as Sent[];
    expect(parse!.error!.code).toBe(-32700);
    expect(parse!.error!.message).toMatch(/^Parse error: \S/);
    expect(oversized).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32700, message: "Parse error: message of 9 bytes exceeds the 4-byte limit" },
    });
    expect(empty).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32600, message: "Invalid request: an empty batch is invalid" },
    });
  });

  it("numbers outgoing requests 1, 2, 3, …", async () => {
    const { engine, sent } = await engineWith();
    for (const m of ["a", "b", "c"]) engine.request(m, {}, { timeoutMs: 0 }).catch(() => undefined);
    expect(sent().map((m) => m.id)).toEqual([1, 2, 3]);
    await engine.close();
  });

  it("rejects batches with the right reason: empty, or not accepted", async () => {
    const { t } = await engineWith();
    t.inject("[]");
    t.inject('[{"jsonrpc":"2.0","id":1,"method":"x"}]');
    await t.waitForSent(2);
    expect(t.sent).toEqual([
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid request: an empty batch is invalid" } },
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid request: batches are not accepted here" } },
    ]);
  });

  it("sends nothing once closed, not even parse errors, and finishes handlers silently", async () => {
    let release: () => void = () => undefined;
    const { engine, t } = await engineWith({
      onRequest: () => new Promise((resolve) => (release = () => resolve({ late: 1 }))),
    });
    t.inject({ jsonrpc: "2.0", id: 1, method: "m" });
    await engine.close();
    t.inject("not json");
    t.inject('{"jsonrpc":"2.0","id":2}');
    release();
    await delay(5);
    expect(t.sent).toEqual([]);
  });

  it("close() closes the transport once and reports onClose once", async () => {
    let closes = 0;
    const { engine, t } = await engineWith({ onClose: () => closes++ });
    let transportCloses = 0;
    const close = t.close.bind(t);
    t.close = () => (transportCloses++, close());
    await engine.close();
    await engine.close();
    expect([closes, transportCloses]).toEqual([1, 1]);
    await expect(engine.request("x", {})).rejects.toBeInstanceOf(ConnectionClosedError);
  });
});

describe("batch replies", () => {
  it("sends no empty array when every request of a batch was cancelled by the peer", async () => {
    const { engine, t } = await engineWith({ acceptsBatch: () => true, onRequest: () => delay(20).then(() => ({})) });
    t.inject('[{"jsonrpc":"2.0","id":1,"method":"x"},{"jsonrpc":"2.0","method":"n"}]');
    engine.cancelIncoming(1);
    await delay(40);
    expect(t.sent).toEqual([]);
  });

  it("sends no batch reply (not even its invalid elements' errors) once the connection closed while the batch ran", async () => {
    const { t } = await engineWith({ acceptsBatch: () => true, onRequest: () => delay(20).then(() => ({})) });
    t.inject('[{"jsonrpc":"2.0","id":1,"method":"x"},5]');
    // The scripted transport records whatever it is given even after closing: the engine alone must hold the reply back.
    t.sink!.closed();
    await delay(40);
    expect(t.sent).toEqual([]);
  });

  it("reports a batch reply the transport could not send", async () => {
    const { t, diagnostics } = await engineWith({ acceptsBatch: () => true });
    t.send = () => Promise.reject(new Error("socket gone"));
    t.inject('[{"jsonrpc":"2.0","id":1,"method":"x"}]');
    await delay(10);
    expect(diagnostics).toEqual(["socket gone"]);
  });
});
