/**
 * The engine's outgoing requests (runtime/protocol/engine.ts): the shared timeout sweep with several deadlines,
 * progress-extended timeouts, progress routing, non-cancellable requests and cancellation notices. Incoming requests,
 * responses and batches: engine-incoming.test.ts. Equivalent mutants left alive by these tests: docs/mutation.md.
 */
import { describe, expect, it, vi } from "vitest";
import { ConnectionClosedError, RequestCancelledError, RequestTimeoutError } from "../../../runtime/jsonrpc/errors.ts";
import { CANCELLED_NOTIFICATION, JsonRpcEngine, PROGRESS_NOTIFICATION } from "../../../runtime/protocol/engine.ts";
import { engineWith, settleTime } from "./engine-harness.ts";
import { delay, ScriptedTransport } from "../helpers.ts";

describe("timeouts with several requests pending", () => {
  it("times out a short request on time although a longer one was sent after it", async () => {
    const { engine, t, idOf } = await engineWith({}, 60_000);
    const short = engine.request("short", {}, { timeoutMs: 30 });
    const shortSettled = settleTime(short);
    const long = engine.request("long", {}, { timeoutMs: 10_000 });
    await expect(short).rejects.toBeInstanceOf(RequestTimeoutError);
    expect(await shortSettled).toBeLessThan(1000);
    expect(engine.pendingCount).toBe(1);
    t.inject({ jsonrpc: "2.0", id: idOf("long"), result: { ok: true } });
    await expect(long).resolves.toEqual({ ok: true });
  });

  it("re-arms for an earlier deadline sent after a later one, and for the next one after a sweep", async () => {
    const { engine } = await engineWith({}, 60_000);
    const started = Date.now();
    const late = engine.request("late", {}, { timeoutMs: 1000 });
    const early = engine.request("early", {}, { timeoutMs: 20 });
    const earlyError = await early.catch((e: unknown) => e);
    const earlyAt = Date.now() - started;
    const lateError = await late.catch((e: unknown) => e);
    const lateAt = Date.now() - started;
    expect(earlyError).toBeInstanceOf(RequestTimeoutError);
    expect(lateError).toBeInstanceOf(RequestTimeoutError);
    // Wide margins: the machine running this may be loaded.
    expect(earlyAt).toBeLessThan(900);
    expect(lateAt).toBeGreaterThanOrEqual(990);
    expect((lateError as RequestTimeoutError).method).toBe("late");
    expect((lateError as RequestTimeoutError).message).toMatch(/^request late timed out after \d+ ms$/);
  });

  it("extends the deadline on progress only when asked, and honours maxTotalTimeoutMs", async () => {
    const { engine, idOf } = await engineWith({}, 60_000);
    // Progress every 480 ms against a 1,600 ms timeout: an event-loop stall of over 1.1 s on a loaded machine, not
    // the 280 ms that 120 ms against 400 ms allowed, is what it takes to time the extended request out early.
    const updates: number[] = [];
    const extended = engine.request(
      "extended",
      {},
      { timeoutMs: 1600, resetTimeoutOnProgress: true, onProgress: (u) => updates.push(u.progress) },
    );
    const plain = engine.request("plain", {}, { timeoutMs: 1600, onProgress: () => undefined });
    const plainOutcome = plain.catch((e: unknown) => e);
    const extendedOutcome = extended.catch((e: unknown) => e);
    for (let i = 1; i <= 5; i++) {
      await delay(480);
      engine.deliverProgress(idOf("extended"), { progress: i });
      engine.deliverProgress(idOf("plain"), { progress: i });
    }
    // 2,400 ms in: the plain one timed out at 1,600 ms; the extended one is still waiting.
    expect(await Promise.race([plainOutcome, "still pending"])).toBeInstanceOf(RequestTimeoutError);
    expect(engine.pendingCount).toBe(1);
    expect(updates).toEqual([1, 2, 3, 4, 5]);
    expect(await extendedOutcome).toBeInstanceOf(RequestTimeoutError);

    const capped = engine.request(
      "capped",
      {},
      { timeoutMs: 1600, maxTotalTimeoutMs: 2000, resetTimeoutOnProgress: true, onProgress: () => undefined },
    );
    const cappedOutcome = capped.catch((e: unknown) => e);
    const cappedSettled = settleTime(capped);
    for (let i = 0; i < 8; i++) {
      await delay(480);
      engine.deliverProgress(idOf("capped"), { progress: i });
    }
    expect(await Promise.race([cappedOutcome, "still pending"])).toBeInstanceOf(RequestTimeoutError);
    const cappedAfter = await cappedSettled;
    expect(cappedAfter).toBeGreaterThanOrEqual(1990);
    expect(cappedAfter).toBeLessThan(3800);
  });

  it("treats timeoutMs 0 as no timeout even when a cap is set far away", async () => {
    const { engine, t, idOf } = await engineWith({}, 20);
    const call = engine.request("none", {}, { timeoutMs: 0, maxTotalTimeoutMs: 10_000 });
    await delay(60);
    expect(engine.pendingCount).toBe(1);
    t.inject({ jsonrpc: "2.0", id: idOf("none"), result: 1 });
    await expect(call).resolves.toBe(1);
  });

  it("routes progress only to requests that asked for it; a throwing callback is reported, not fatal", async () => {
    const { engine, t, idOf, diagnostics, sent } = await engineWith();
    const quiet = engine.request("quiet", { a: 1 });
    expect(sent().find((m) => m.method === "quiet")!.params).toEqual({ a: 1 });
    expect(engine.deliverProgress(idOf("quiet"), { progress: 1 })).toBe(false);
    expect(engine.deliverProgress({ token: 1 }, { progress: 1 })).toBe(false);
    expect(engine.deliverProgress(999, { progress: 1 })).toBe(false);
    const loud = engine.request(
      "loud",
      { _meta: { x: 1 } },
      {
        onProgress: () => {
          throw new Error("callback broke");
        },
      },
    );
    const id = idOf("loud");
    expect(sent().find((m) => m.method === "loud")!.params).toEqual({ _meta: { x: 1, progressToken: id } });
    expect(engine.deliverProgress(id, { progress: 1 })).toBe(true);
    expect(diagnostics).toContain("progress callback threw: callback broke");
    t.inject({ jsonrpc: "2.0", id, result: {} });
    t.inject({ jsonrpc: "2.0", id: idOf("quiet"), result: {} });
    await Promise.all([loud, quiet]);
  });
});

describe("cancellation of outgoing requests", () => {
  it("never sends notifications/cancelled for a non-cancellable request (initialize), on abort or timeout", async () => {
    const { engine, cancels } = await engineWith({}, 60_000);
    const controller = new AbortController();
    const init = engine.request("initialize", {}, { signal: controller.signal, cancellable: false });
    controller.abort("stop");
    await expect(init).rejects.toBeInstanceOf(RequestCancelledError);
    await expect(engine.request("initialize", {}, { timeoutMs: 10, cancellable: false })).rejects.toBeInstanceOf(
      RequestTimeoutError,
    );
    await delay(5);
    expect(cancels()).toEqual([]);
  });

  it("sends notifications/cancelled naming the request and the reason otherwise", async () => {
    const { engine, cancels, idOf } = await engineWith();
    const controller = new AbortController();
    const call = engine.request("work", {}, { signal: controller.signal, relatedRequestId: 9 });
    controller.abort("user gave up");
    await expect(call).rejects.toThrow("request work was cancelled: user gave up");
    expect(cancels()).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: idOf("work"), reason: "user gave up" },
      },
    ]);
    const other = new AbortController();
    const second = engine.request("more", {}, { signal: other.signal });
    other.abort(new Error("why"));
    await expect(second).rejects.toThrow(/^request more was cancelled$/);
    expect(cancels()[1]!.params).toEqual({ requestId: idOf("more"), reason: "Error: why" });
  });

  it("rejects at once for an already aborted signal, sending nothing", async () => {
    const { engine, sent } = await engineWith();
    await expect(engine.request("x", {}, { signal: AbortSignal.abort("no") })).rejects.toBeInstanceOf(
      RequestCancelledError,
    );
    expect(sent()).toEqual([]);
    expect(engine.pendingCount).toBe(0);
  });

  it("cancelOutgoing settles a pending request without telling the peer", async () => {
    const { engine, cancels, idOf } = await engineWith();
    const call = engine.request("listen", {});
    expect(engine.cancelOutgoing(idOf("listen"), "stream ended")).toBe(true);
    await expect(call).rejects.toThrow("request listen was cancelled: stream ended");
    expect(engine.cancelOutgoing(idOf("listen"))).toBe(false);
    const next = engine.request("listen2", {});
    engine.cancelOutgoing(idOf("listen2"));
    await expect(next).rejects.toThrow("cancelled by the peer");
    expect(cancels()).toEqual([]);
  });

  it("fails a request whose send fails, with that error", async () => {
    const { engine, t } = await engineWith();
    t.send = () => Promise.reject(new Error("pipe broke"));
    await expect(engine.request("x", {})).rejects.toThrow("pipe broke");
    expect(engine.pendingCount).toBe(0);
  });
});

describe("defaults and routing of cancellation notices", () => {
  it("times a request out after the documented 60-second default, not before", async () => {
    vi.useFakeTimers();
    try {
      const { engine, cancels } = await engineWith();
      const call = engine.request("slow", {});
      const outcome = call.catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(59_999);
      expect(engine.pendingCount).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(await outcome).toBeInstanceOf(RequestTimeoutError);
      expect(cancels()).toHaveLength(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("routes notifications/cancelled with the request's relatedRequestId (HTTP puts it on that stream)", async () => {
    const { engine, t } = await engineWith();
    const routed: { method: string | undefined; options: unknown }[] = [];
    const send = t.send.bind(t);
    t.send = (message: object, options?: unknown) => (
      routed.push({ method: (message as { method?: string }).method, options }),
      send(message)
    );
    const nested = new AbortController();
    const plain = new AbortController();
    const calls = [
      engine.request("nested", {}, { signal: nested.signal, relatedRequestId: "outer-7" }),
      engine.request("plain", {}, { signal: plain.signal }),
    ].map((c) => c.catch(() => undefined));
    nested.abort("stop");
    plain.abort("stop");
    await Promise.all(calls);
    expect(routed.filter((r) => r.method === "notifications/cancelled").map((r) => r.options)).toEqual([
      { relatedRequestId: "outer-7" },
      undefined,
    ]);
  });

  it("reports a cancellation notice that cannot be sent instead of failing the process", async () => {
    const { engine, t, diagnostics } = await engineWith();
    const send = t.send.bind(t);
    t.send = (message: object) =>
      (message as { method?: string }).method === "notifications/cancelled"
        ? Promise.reject(new Error("pipe closed"))
        : send(message);
    const controller = new AbortController();
    const call = engine.request("work", {}, { signal: controller.signal });
    controller.abort("stop");
    await expect(call).rejects.toBeInstanceOf(RequestCancelledError);
    await delay(5);
    expect(diagnostics).toEqual(["pipe closed"]);
  });
});

describe("what the peer and the handlers observe", () => {
  it("names the real elapsed time in a timeout, to the caller and in the cancellation notice", async () => {
    const { engine, cancels } = await engineWith({}, 60_000);
    const error = (await engine.request("slow", {}, { timeoutMs: 20 }).catch((e: unknown) => e)) as RequestTimeoutError;
    const elapsed = Number(/after (\d+) ms$/.exec(error.message)?.[1]);
    expect(elapsed).toBeGreaterThanOrEqual(20);
    expect(elapsed).toBeLessThan(5000);
    expect(cancels()[0]!.params!["reason"]).toBe(`timed out after ${elapsed} ms`);
  });

  it("sends no params member at all when a request or notification has none (in-memory peers see the object)", async () => {
    const { engine, sent } = await engineWith();
    engine.request("bare", undefined, { timeoutMs: 0 }).catch(() => undefined);
    await engine.notify("note");
    expect(sent().map((m) => "params" in m)).toEqual([false, false]);
    await engine.close();
  });

  it("gives a handler the same signal however often it reads it, and aborts that one", async () => {
    const signals: AbortSignal[] = [];
    const { engine, t } = await engineWith({
      onRequest: (req) => (signals.push(req.signal, req.signal), new Promise(() => undefined)),
    });
    t.inject({ jsonrpc: "2.0", id: 1, method: "m" });
    engine.cancelIncoming(1);
    expect(signals[0]).toBe(signals[1]);
    expect(signals[0]!.aborted).toBe(true);
  });

  it("closes itself even when the transport does not report its own close", async () => {
    const closes: unknown[] = [];
    const { engine, t } = await engineWith({ onClose: () => closes.push("closed") });
    t.close = () => Promise.resolve();
    const pending = engine.request("m", {});
    await engine.close();
    expect(engine.closed).toBe(true);
    await expect(pending).rejects.toBeInstanceOf(ConnectionClosedError);
    expect(closes).toEqual(["closed"]);
  });

  it("reports a reply the transport could not send", async () => {
    const { t, diagnostics } = await engineWith();
    t.send = () => Promise.reject(new Error("stdout closed"));
    t.inject({ jsonrpc: "2.0", id: 1, method: "m" });
    await delay(10);
    expect(diagnostics).toEqual(["stdout closed"]);
  });

  it("works without an onDiagnostic handler: throwing listeners, late responses and failed sends are dropped quietly", async () => {
    const t = new ScriptedTransport();
    const engine = new JsonRpcEngine(t, {
      onRequest: () => ({ ok: true }),
      onNotification: () => {
        throw new Error("listener");
      },
    });
    await engine.start();
    t.inject({ jsonrpc: "2.0", method: "n" });
    t.inject({ jsonrpc: "2.0", id: 99, result: {} });
    const call = engine.request(
      "m",
      {},
      {
        onProgress: () => {
          throw new Error("progress");
        },
      },
    );
    expect(engine.deliverProgress(1, { progress: 1 })).toBe(true);
    const send = t.send.bind(t);
    t.send = () => Promise.reject(new Error("gone"));
    t.inject({ jsonrpc: "2.0", id: 1, method: "m" });
    await delay(10);
    t.send = send;
    t.inject({ jsonrpc: "2.0", id: 1, result: "done" });
    await expect(call).resolves.toBe("done");
    t.inject({ jsonrpc: "2.0", id: 2, method: "m" });
    await t.waitForSent(2);
    expect(t.sent.at(-1)).toEqual({ jsonrpc: "2.0", id: 2, result: { ok: true } });
  });

  it("exports the spec's method names for cancellation and progress", () => {
    expect([CANCELLED_NOTIFICATION, PROGRESS_NOTIFICATION]).toEqual([
      "notifications/cancelled",
      "notifications/progress",
    ]);
  });
});
