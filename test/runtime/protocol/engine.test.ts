import { describe, expect, it } from "vitest";
import { JsonRpcEngine, type IncomingRequest } from "../../../runtime/protocol/engine.ts";
import {
  ConnectionClosedError,
  RequestCancelledError,
  RequestTimeoutError,
  RpcError,
} from "../../../runtime/jsonrpc/errors.ts";
import { LineDecoder } from "../../../runtime/jsonrpc/framing.ts";
import { classify } from "../../../runtime/jsonrpc/messages.ts";
import { createMemoryTransportPair } from "../../../runtime/transport/memory.ts";
import { delay, ScriptedTransport } from "../helpers.ts";

function echoEngine(transport: ScriptedTransport, extra: { batch?: boolean } = {}) {
  const notifications: Array<[string, unknown]> = [];
  const engine = new JsonRpcEngine(transport, {
    onRequest: async (req: IncomingRequest) => {
      if (req.method === "fail") throw new RpcError(-32001, "custom failure", { why: "test" });
      if (req.method === "throw") throw new Error("boom");
      if (req.method === "slow") {
        await new Promise((resolve, reject) => {
          const t = setTimeout(resolve, 1000);
          req.signal.addEventListener("abort", () => (clearTimeout(t), reject(req.signal.reason)));
        });
      }
      return { echo: req.params ?? null };
    },
    onNotification: (method, params) => notifications.push([method, params]),
    acceptsBatch: () => extra.batch ?? false,
  });
  return { engine, notifications };
}

describe("classify", () => {
  it("sorts messages structurally", () => {
    expect(classify({ jsonrpc: "2.0", id: 1, method: "a" }).kind).toBe("request");
    expect(classify({ jsonrpc: "2.0", method: "a" }).kind).toBe("notification");
    expect(classify({ jsonrpc: "2.0", id: 1, result: {} }).kind).toBe("response");
    expect(classify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "x" } }).kind).toBe("response");
    expect(classify({ jsonrpc: "2.0", id: null, method: "a" })).toMatchObject({ kind: "invalid", id: null });
    expect(classify({ jsonrpc: "1.0", id: 3, method: "a" })).toMatchObject({ kind: "invalid", id: 3 });
    expect(classify({ jsonrpc: "2.0", id: 1.5, method: "a" }).kind).toBe("invalid");
    expect(classify({ jsonrpc: "2.0", id: 1, result: {}, error: { code: 1, message: "" } }).kind).toBe("invalid");
    expect(classify([1]).kind).toBe("invalid");
  });
});

describe("LineDecoder", () => {
  it("splits across chunk boundaries and keeps utf-8 intact", () => {
    const d = new LineDecoder();
    const bytes = Buffer.from('{"a":"é"}\r\n{"b":2}\n{"c"');
    expect(d.push(bytes.subarray(0, 8))).toEqual([]);
    expect(d.push(bytes.subarray(8))).toEqual(['{"a":"é"}', '{"b":2}']);
    expect(d.buffered).toBe(4);
    expect(d.push(Buffer.from(":3}\n"))).toEqual(['{"c":3}']);
  });

  it("drops a line over its cap, reports it, and resynchronizes at the next newline", () => {
    const d = new LineDecoder(8);
    expect(d.push(Buffer.from('{"a":1}\n{"long":'))).toEqual(['{"a":1}']);
    expect(d.push(Buffer.from('"xxxxxxxx'))).toEqual([]);
    expect(d.push(Buffer.from('xx"}\n{"b":2}\n'))).toEqual([{ oversized: 21 }, '{"b":2}']);
    expect(d.buffered).toBe(0);
  });
});

describe("JsonRpcEngine: bad input never kills the session", () => {
  it("answers each kind of bad input and keeps serving", async () => {
    const t = new ScriptedTransport();
    const { engine } = echoEngine(t);
    await engine.start();
    t.inject("{not json");
    t.inject('{"jsonrpc":"2.0","id":7}');
    t.inject('{"jsonrpc":"2.0","id":8,"method":"throw"}');
    t.inject('{"jsonrpc":"2.0","id":9,"method":"fail"}');
    t.inject("[]");
    t.inject('[{"jsonrpc":"2.0","id":10,"method":"x"}]');
    t.inject('{"jsonrpc":"2.0","id":11,"method":"ok","params":{"n":1}}');
    t.sink?.malformed?.("message of 99 bytes exceeds the 8-byte limit");
    const sent = await t.waitForSent(8);
    const byId = (id: unknown) => sent.filter((m) => (m as { id: unknown }).id === id);
    const nullIds = byId(null).map((m) => (m as { error: { code: number } }).error.code);
    expect(nullIds.sort()).toEqual([-32700, -32700, -32600, -32600].sort());
    expect(byId(7)).toEqual([{ jsonrpc: "2.0", id: 7, error: expect.objectContaining({ code: -32600 }) }]);
    expect(byId(8)).toEqual([{ jsonrpc: "2.0", id: 8, error: { code: -32603, message: "Internal error: boom" } }]);
    expect(byId(9)).toEqual([
      { jsonrpc: "2.0", id: 9, error: { code: -32001, message: "custom failure", data: { why: "test" } } },
    ]);
    expect(byId(11)).toEqual([{ jsonrpc: "2.0", id: 11, result: { echo: { n: 1 } } }]);
  });

  it("answers a batch with a batch when batches are accepted", async () => {
    const t = new ScriptedTransport();
    const { engine, notifications } = echoEngine(t, { batch: true });
    await engine.start();
    t.inject(
      '[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"n"},{"jsonrpc":"2.0","id":2,"method":"fail"}]',
    );
    const [batch] = await t.waitForSent(1);
    expect(batch).toEqual([
      { jsonrpc: "2.0", id: 1, result: { echo: null } },
      { jsonrpc: "2.0", id: 2, error: { code: -32001, message: "custom failure", data: { why: "test" } } },
    ]);
    expect(notifications).toEqual([["n", undefined]]);
  });
});

describe("JsonRpcEngine: the carrier of a request", () => {
  it("aborts the handler and sends nothing when the carrier (e.g. an HTTP stream) closes", async () => {
    const t = new ScriptedTransport();
    let aborted = false;
    const engine = new JsonRpcEngine(t, {
      onRequest: (req) =>
        new Promise((_, reject) =>
          req.signal.addEventListener("abort", () => ((aborted = true), reject(new Error("gone")))),
        ),
      onNotification: () => undefined,
    });
    await engine.start();
    const carrier = new AbortController();
    t.inject({ jsonrpc: "2.0", id: 1, method: "long" }, { signal: carrier.signal, headers: { "x-a": "1" } });
    carrier.abort();
    await delay(10);
    expect(aborted).toBe(true);
    expect(t.sent).toEqual([]);
  });
});

describe("JsonRpcEngine: requests both ways", () => {
  async function pair() {
    const [a, b] = createMemoryTransportPair();
    const seen: string[] = [];
    const client = new JsonRpcEngine(a, {
      onRequest: () => ({}),
      onNotification: (method, params) => {
        seen.push(method);
        if (method === "notifications/progress") {
          const p = params as { progressToken: number; progress: number };
          client.deliverProgress(p.progressToken, { progress: p.progress });
        }
      },
    });
    const serverEngine = new JsonRpcEngine(b, {
      onRequest: async (req) => {
        if (req.method === "progress") {
          const token = (req.params as { _meta: { progressToken: number } })._meta.progressToken;
          for (let i = 1; i <= 3; i++)
            await serverEngine.notify("notifications/progress", { progressToken: token, progress: i });
          return { done: true };
        }
        if (req.method === "hang") {
          return new Promise((_, reject) => req.signal.addEventListener("abort", () => reject(new Error("aborted"))));
        }
        return { method: req.method };
      },
      onNotification: (method, params) => {
        seen.push(method);
        if (method === "notifications/cancelled")
          serverEngine.cancelIncoming((params as { requestId: number }).requestId);
      },
    });
    await Promise.all([client.start(), serverEngine.start()]);
    return { client, serverEngine, seen };
  }

  it("correlates many concurrent requests", async () => {
    const { client } = await pair();
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => client.request(`m${i}`, {})));
    expect(results).toEqual(Array.from({ length: 50 }, (_, i) => ({ method: `m${i}` })));
  });

  it("delivers progress to the caller", async () => {
    const { client } = await pair();
    const updates: number[] = [];
    const result = await client.request("progress", {}, { onProgress: (u) => updates.push(u.progress) });
    expect(result).toEqual({ done: true });
    expect(updates).toEqual([1, 2, 3]);
  });

  it("cancels via AbortSignal, tells the peer, and drops the late response", async () => {
    const { client, seen } = await pair();
    const controller = new AbortController();
    const call = client.request("hang", {}, { signal: controller.signal });
    setTimeout(() => controller.abort("user gave up"), 10);
    await expect(call).rejects.toBeInstanceOf(RequestCancelledError);
    await delay(20);
    expect(seen).toContain("notifications/cancelled");
    expect(client.pendingCount).toBe(0);
  });

  it("times out and cancels at the peer", async () => {
    const { client, seen } = await pair();
    await expect(client.request("hang", {}, { timeoutMs: 30 })).rejects.toBeInstanceOf(RequestTimeoutError);
    await delay(20);
    expect(seen).toContain("notifications/cancelled");
  });

  it("caps a progress-extended timeout with maxTotalTimeoutMs", async () => {
    const { client } = await pair();
    // Without the cap this would wait for the 10-minute timeout (and the test would time out).
    const call = client.request(
      "hang",
      {},
      { timeoutMs: 600_000, maxTotalTimeoutMs: 40, resetTimeoutOnProgress: true, onProgress: () => undefined },
    );
    await expect(call).rejects.toBeInstanceOf(RequestTimeoutError);
  });

  it("fails every pending request when the peer goes away", async () => {
    const { client, serverEngine } = await pair();
    const calls = [client.request("hang", {}), client.request("hang", {})];
    await delay(5);
    await serverEngine.close();
    for (const call of calls) await expect(call).rejects.toBeInstanceOf(ConnectionClosedError);
    await expect(client.request("x", {})).rejects.toBeInstanceOf(ConnectionClosedError);
  });
});
