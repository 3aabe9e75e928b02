/**
 * A user's diagnostics callback or error mapper that throws must not leave a request unanswered, its id stuck "in
 * flight", or a rejection unhandled (found by the issue 9 mutation run).
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { JsonRpcEngine } from "../../../runtime/protocol/engine.ts";
import { ScriptedTransport } from "../helpers.ts";

describe("engine with throwing user callbacks", () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on("unhandledRejection", onUnhandled);
  afterEach(() => {
    unhandled.length = 0;
  });

  it("answers -32603 when toRpcError and onDiagnostic both throw, and frees the id for reuse", async () => {
    const transport = new ScriptedTransport();
    const onDiagnostic = vi.fn(() => {
      throw new Error("diagnostics sink broken");
    });
    const engine = new JsonRpcEngine(transport, {
      onRequest: () => {
        throw new Error("handler failed");
      },
      onNotification: () => undefined,
      toRpcError: () => {
        throw new Error("mapper broken");
      },
      onDiagnostic,
    });
    await engine.start();
    transport.inject(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "work" }));
    const [first] = await transport.waitForSent(1);
    expect(first).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32603, message: "Internal error: handler failed" },
    });
    expect(onDiagnostic).toHaveBeenCalledWith("toRpcError threw: mapper broken");
    // The same id again is a new request, not "already in flight".
    transport.inject(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "work" }));
    const sent = await transport.waitForSent(2);
    expect(sent[1]).toMatchObject({ id: 7, error: { code: -32603 } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(unhandled).toEqual([]);
  });

  it("keeps serving when onDiagnostic throws on a late response and a throwing notification handler", async () => {
    const transport = new ScriptedTransport();
    const engine = new JsonRpcEngine(transport, {
      onRequest: () => ({ ok: true }),
      onNotification: () => {
        throw new Error("listener broken");
      },
      onDiagnostic: () => {
        throw new Error("diagnostics sink broken");
      },
    });
    await engine.start();
    transport.inject(JSON.stringify({ jsonrpc: "2.0", id: 99, result: {} })); // a response nobody asked for
    transport.inject(JSON.stringify({ jsonrpc: "2.0", method: "notifications/x" }));
    transport.inject(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }));
    const [reply] = await transport.waitForSent(1);
    expect(reply).toEqual({ jsonrpc: "2.0", id: 1, result: { ok: true } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(unhandled).toEqual([]);
  });
});
