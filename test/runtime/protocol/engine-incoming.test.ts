/**
 * The engine's incoming traffic (runtime/protocol/engine.ts, incoming-call.ts): closing with handlers in flight, a
 * handler reading `signal` late, duplicate and string ids, error responses, and the routing hints given to the
 * transport. Batches, parse errors and close: engine-framing.test.ts; outgoing requests: engine-outgoing.test.ts.
 */
import { describe, expect, it } from "vitest";
import { JsonRpcEngine, type IncomingRequest } from "../../../runtime/protocol/engine.ts";
import { ConnectionClosedError, RequestCancelledError, RpcError } from "../../../runtime/jsonrpc/errors.ts";
import { engineWith, type Sent } from "./engine-harness.ts";
import { delay, ScriptedTransport } from "../helpers.ts";

describe("incoming requests", () => {
  it("aborts in-flight handlers with ConnectionClosedError when the connection closes, and answers nothing", async () => {
    const reasons: unknown[] = [];
    const { engine, t } = await engineWith({
      onRequest: (req) =>
        new Promise((_, reject) =>
          req.signal.addEventListener("abort", () => (reasons.push(req.signal.reason), reject(new Error("x")))),
        ),
    });
    t.inject({ jsonrpc: "2.0", id: 1, method: "a" });
    t.inject({ jsonrpc: "2.0", id: 2, method: "b" });
    const pending = engine.request("mine", {});
    t.sink!.closed(new Error("eof"));
    await expect(pending).rejects.toThrow("connection closed: eof");
    await delay(5);
    expect(reasons).toHaveLength(2);
    for (const r of reasons) expect(r).toBeInstanceOf(ConnectionClosedError);
    expect(t.sent.filter((m) => "result" in m || "error" in m)).toEqual([]);
    expect(engine.closed).toBe(true);
    await expect(engine.notify("n")).rejects.toBeInstanceOf(ConnectionClosedError);
  });

  it("gives a handler that reads `signal` only after the cancellation an aborted signal, and sends no answer", async () => {
    let release: () => void = () => undefined;
    let seen: { aborted: boolean; reason: unknown } | undefined;
    const { engine, t } = await engineWith({
      onRequest: async (req) => {
        await new Promise<void>((resolve) => (release = resolve));
        seen = { aborted: req.signal.aborted, reason: req.signal.reason };
        return { late: true };
      },
    });
    t.inject({ jsonrpc: "2.0", id: "s-1", method: "slow" });
    engine.cancelIncoming("s-1", "no longer needed");
    engine.cancelIncoming("unknown");
    release();
    await delay(5);
    expect(seen?.aborted).toBe(true);
    expect(seen?.reason).toBeInstanceOf(RequestCancelledError);
    expect((seen?.reason as Error).message).toBe("request s-1 was cancelled: no longer needed");
    expect(t.sent).toEqual([]);
  });

  it("rejects a second request with an id still in flight, and accepts the id again once answered", async () => {
    let release: () => void = () => undefined;
    const { t } = await engineWith({
      onRequest: (req) =>
        req.method === "wait" ? new Promise((resolve) => (release = () => resolve({ first: true }))) : { again: true },
    });
    t.inject({ jsonrpc: "2.0", id: 5, method: "wait" });
    t.inject({ jsonrpc: "2.0", id: 5, method: "other" });
    const [dup] = await t.waitForSent(1);
    expect(dup).toEqual({
      jsonrpc: "2.0",
      id: 5,
      error: { code: -32600, message: "Invalid request: id 5 is already in flight" },
    });
    release();
    await t.waitForSent(2);
    expect(t.sent[1]).toEqual({ jsonrpc: "2.0", id: 5, result: { first: true } });
    t.inject({ jsonrpc: "2.0", id: 5, method: "other" });
    await t.waitForSent(3);
    expect(t.sent[2]).toEqual({ jsonrpc: "2.0", id: 5, result: { again: true } });
  });

  it("answers string ids with the same string, and numeric-looking strings stay strings", async () => {
    const { t } = await engineWith({ onRequest: (req: IncomingRequest) => ({ id: req.id }) });
    t.inject('{"jsonrpc":"2.0","id":"abc","method":"x"}');
    t.inject('{"jsonrpc":"2.0","id":"7","method":"x"}');
    t.inject('{"jsonrpc":"2.0","id":-3,"method":"x"}');
    await t.waitForSent(3);
    expect(t.sent).toEqual([
      { jsonrpc: "2.0", id: "abc", result: { id: "abc" } },
      { jsonrpc: "2.0", id: "7", result: { id: "7" } },
      { jsonrpc: "2.0", id: -3, result: { id: -3 } },
    ]);
  });

  it("answers a handler's undefined with {}, a thrown non-Error with -32603, and uses toRpcError when given", async () => {
    const { t } = await engineWith({
      onRequest: (req) => {
        if (req.method === "void") return undefined;
        if (req.method === "sync-throw") throw "plain string";
        return Promise.reject(new TypeError("mapped"));
      },
      toRpcError: (error, req) => new RpcError(-32099, `${req.method}: ${(error as Error).message}`),
    });
    t.inject({ jsonrpc: "2.0", id: 1, method: "void" });
    t.inject({ jsonrpc: "2.0", id: 2, method: "sync-throw" });
    t.inject({ jsonrpc: "2.0", id: 3, method: "async-throw" });
    await t.waitForSent(3);
    expect(t.sent).toContainEqual({ jsonrpc: "2.0", id: 1, result: {} });
    expect(t.sent).toContainEqual({ jsonrpc: "2.0", id: 2, error: { code: -32099, message: "sync-throw: undefined" } });
    expect(t.sent).toContainEqual({ jsonrpc: "2.0", id: 3, error: { code: -32099, message: "async-throw: mapped" } });
  });

  it("sends errors without a handler mapping as -32603 with the message, and reports throwing notification handlers", async () => {
    const { t, diagnostics } = await engineWith({
      onRequest: () => {
        throw 42;
      },
      onNotification: () => {
        throw new Error("bad listener");
      },
    });
    t.inject({ jsonrpc: "2.0", method: "notifications/x" });
    t.inject({ jsonrpc: "2.0", id: 1, method: "m" });
    await t.waitForSent(1);
    expect(t.sent).toEqual([{ jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error: 42" } }]);
    expect(diagnostics).toEqual(["notification notifications/x handler threw: bad listener"]);
  });

  it("does not run a request whose carrier is already gone", async () => {
    let ran = false;
    const { t } = await engineWith({ onRequest: () => ((ran = true), {}) });
    t.inject({ jsonrpc: "2.0", id: 1, method: "m" }, { signal: AbortSignal.abort() });
    await delay(5);
    expect(ran).toBe(false);
    expect(t.sent).toEqual([]);
  });
});

describe("responses", () => {
  it("rejects with the peer's error (code, message, data) and reports unknown ids", async () => {
    const { engine, t, idOf, diagnostics } = await engineWith();
    const call = engine.request("m", {});
    t.inject({ jsonrpc: "2.0", id: idOf("m"), error: { code: -32001, message: "nope", data: { k: 1 } } });
    const error = (await call.catch((e: unknown) => e)) as RpcError;
    expect(error).toBeInstanceOf(RpcError);
    expect([error.code, error.message, error.data]).toEqual([-32001, "nope", { k: 1 }]);
    t.inject({ jsonrpc: "2.0", id: 4242, error: { code: 1, message: "late" } });
    t.inject({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
    t.inject({ jsonrpc: "2.0", id: "x", result: 1 });
    expect(diagnostics).toEqual([
      'dropped a response (error 1 "late") for unknown or finished request id 4242',
      'dropped a response (error -32700 "Parse error") for unknown or finished request id null',
      'dropped a response (result) for unknown or finished request id "x"',
    ]);
    expect(t.sent.filter((m) => !("method" in m))).toEqual([]);
  });

  it("answers a malformed response with -32600 and keeps the request pending", async () => {
    const { engine, t, idOf } = await engineWith();
    const call = engine.request("m", {});
    const id = idOf("m");
    t.inject({ jsonrpc: "2.0", id, error: { code: "1", message: "m" } });
    t.inject({ jsonrpc: "2.0", id, error: "broken" });
    await t.waitForSent(3);
    expect(t.sent.slice(1).map((m) => (m as Sent).error?.code)).toEqual([-32600, -32600]);
    expect(engine.pendingCount).toBe(1);
    t.inject({ jsonrpc: "2.0", id, result: null });
    await expect(call).resolves.toBeNull();
  });
});

describe("routing hints to the transport", () => {
  it("passes relatedRequestId for replies, related requests and notifications, and none otherwise", async () => {
    const t = new ScriptedTransport();
    const options: unknown[] = [];
    const send = t.send.bind(t);
    t.send = (message: object, opts?: unknown) => (options.push(opts), send(message));
    const engine = new JsonRpcEngine(t, { onRequest: () => ({}), onNotification: () => undefined });
    await engine.start();
    t.inject({ jsonrpc: "2.0", id: "r1", method: "m" });
    await t.waitForSent(1);
    t.inject("not json");
    await t.waitForSent(2);
    engine.request("nested", {}, { relatedRequestId: "r1", timeoutMs: 0 }).catch(() => undefined);
    engine.request("plain", {}, { timeoutMs: 0 }).catch(() => undefined);
    await engine.notify("n1", { a: 1 }, 7);
    await engine.notify("n2");
    expect(options).toEqual([
      { relatedRequestId: "r1" },
      undefined,
      { relatedRequestId: "r1" },
      undefined,
      { relatedRequestId: 7 },
      undefined,
    ]);
    expect(t.sent.slice(4)).toEqual([
      { jsonrpc: "2.0", method: "n1", params: { a: 1 } },
      { jsonrpc: "2.0", method: "n2" },
    ]);
    expect(t.sent[3]).toEqual({ jsonrpc: "2.0", id: expect.any(Number), method: "plain", params: {} });
    const noParams = engine.request("bare", undefined, { timeoutMs: 0 });
    expect(t.sent.at(-1)).toEqual({ jsonrpc: "2.0", id: expect.any(Number), method: "bare" });
    await engine.close();
    await expect(noParams).rejects.toBeInstanceOf(ConnectionClosedError);
  });
});

describe("incoming requests across close, cancellation and carriers", () => {
  it("aborts in-flight handlers on close even when this side has no request of its own pending", async () => {
    const reasons: unknown[] = [];
    const { t } = await engineWith({
      onRequest: (req) =>
        new Promise(() => req.signal.addEventListener("abort", () => reasons.push(req.signal.reason))),
    });
    t.inject({ jsonrpc: "2.0", id: 1, method: "a" });
    t.sink!.closed();
    await delay(5);
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toBeInstanceOf(ConnectionClosedError);
  });

  it("keeps the peer's cancellation as the reason a late reader sees, even after the connection closed", async () => {
    let release: () => void = () => undefined;
    let reason: unknown;
    const { engine, t } = await engineWith({
      onRequest: async (req) => {
        await new Promise<void>((resolve) => (release = resolve));
        reason = req.signal.reason;
      },
    });
    t.inject({ jsonrpc: "2.0", id: 3, method: "slow" });
    engine.cancelIncoming(3, "user stop");
    await engine.close();
    release();
    await delay(5);
    expect(reason).toBeInstanceOf(RequestCancelledError);
    expect((reason as Error).message).toBe("request 3 was cancelled: user stop");
  });

  it("passes the transport's error to onClose", async () => {
    const errors: unknown[] = [];
    const { t } = await engineWith({ onClose: (error) => errors.push(error) });
    const eof = new Error("stdin ended");
    t.sink!.closed(eof);
    expect(errors).toEqual([eof]);
  });

  it("forgets a finished request's carrier: aborting it later does not cancel a new request that reuses the id", async () => {
    let release: () => void = () => undefined;
    const { t } = await engineWith({
      onRequest: (req) =>
        req.method === "second"
          ? new Promise((resolve) => (release = () => resolve({ second: true })))
          : { first: true },
    });
    const firstCarrier = new AbortController();
    t.inject({ jsonrpc: "2.0", id: 1, method: "first" }, { signal: firstCarrier.signal });
    await t.waitForSent(1);
    t.inject({ jsonrpc: "2.0", id: 1, method: "second" }, { signal: new AbortController().signal });
    firstCarrier.abort();
    release();
    await t.waitForSent(2);
    expect(t.sent).toEqual([
      { jsonrpc: "2.0", id: 1, result: { first: true } },
      { jsonrpc: "2.0", id: 1, result: { second: true } },
    ]);
  });

  it("cancels a request when its carrier goes away mid-flight, and answers nothing", async () => {
    let seen: unknown;
    const { t } = await engineWith({
      onRequest: (req) =>
        new Promise((_, reject) =>
          req.signal.addEventListener("abort", () => ((seen = req.signal.reason), reject(new Error("stopped")))),
        ),
    });
    const carrier = new AbortController();
    t.inject({ jsonrpc: "2.0", id: "c", method: "m" }, { signal: carrier.signal });
    carrier.abort();
    await delay(5);
    expect((seen as Error).message).toBe("request c was cancelled: the request's carrier closed");
    expect(t.sent).toEqual([]);
  });
});
