/**
 * A handler that answers synchronously is answered synchronously: its reply reaches the transport before `receive`
 * returns, with no promise or microtask in between (the per-request cost the HTTP server path counts). A pending
 * handler is still answered when it settles, and a transport whose `send` throws instead of rejecting is diagnosed.
 */
import { describe, expect, it } from "vitest";
import { JsonRpcEngine } from "../../../runtime/protocol/engine.ts";
import { ScriptedTransport } from "../helpers.ts";
import { engineWith } from "./engine-harness.ts";

const request = (id: number, method = "m") => ({ jsonrpc: "2.0", id, method });

describe("synchronous answers", () => {
  it("sends a synchronous result before receive returns, on both the frame and the classified path", async () => {
    const { t } = await engineWith({ onRequest: (r) => ({ echo: r.method }) });
    t.inject(JSON.stringify(request(1, "a")));
    expect(t.sent).toEqual([{ jsonrpc: "2.0", id: 1, result: { echo: "a" } }]);
    t.sink?.receiveClassified?.({ kind: "request", message: { jsonrpc: "2.0", id: 2, method: "b" } });
    expect(t.sent).toHaveLength(2);
    expect(t.sent[1]).toEqual({ jsonrpc: "2.0", id: 2, result: { echo: "b" } });
  });

  it("sends a synchronous throw's error, and an undefined result as {}, before receive returns", async () => {
    const { t } = await engineWith({
      onRequest: (r) => {
        if (r.method === "boom") throw new Error("no");
        return undefined;
      },
    });
    t.inject(request(1, "boom"));
    t.inject(request(2, "nothing"));
    expect(t.sent).toEqual([
      { jsonrpc: "2.0", id: 1, error: { code: -32603, message: "Internal error: no" } },
      { jsonrpc: "2.0", id: 2, result: {} },
    ]);
  });

  it("answers a pending handler once it settles, not before", async () => {
    let finish!: (value: object) => void;
    const { t } = await engineWith({ onRequest: () => new Promise((resolve) => (finish = resolve)) });
    t.inject(request(1));
    await Promise.resolve();
    expect(t.sent).toEqual([]);
    finish({ done: true });
    expect(await t.waitForSent(1)).toEqual([{ jsonrpc: "2.0", id: 1, result: { done: true } }]);
  });

  it("diagnoses a transport whose send throws synchronously, and goes on serving", async () => {
    const t = new ScriptedTransport();
    let throwing = true;
    const send = t.send.bind(t);
    t.send = (message: object) => {
      if (throwing) throw new Error("socket gone");
      return send(message);
    };
    const diagnostics: string[] = [];
    const engine = new JsonRpcEngine(t, {
      onRequest: () => ({ ok: true }),
      onNotification: () => undefined,
      onDiagnostic: (m) => diagnostics.push(m),
    });
    await engine.start();
    expect(() => t.inject(request(1))).not.toThrow();
    expect(diagnostics).toEqual(["socket gone"]);
    throwing = false;
    t.inject(request(2));
    expect(t.sent).toEqual([{ jsonrpc: "2.0", id: 2, result: { ok: true } }]);
  });
});
