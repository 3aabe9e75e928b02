/**
 * TransportSink.receiveClassified: the engine takes a message the transport already classified (the HTTP path) as
 * is, without classifying it again; the frame path (`receive`) still classifies. The probe is a request without
 * `jsonrpc: "2.0"`, which classify rejects with -32600: answered by its handler only when nothing re-checks it.
 */
import { describe, expect, it } from "vitest";
import type { JsonRpcRequest } from "../../../runtime/jsonrpc/messages.ts";
import { JsonRpcEngine } from "../../../runtime/protocol/engine.ts";
import { ScriptedTransport } from "../helpers.ts";

async function started() {
  const t = new ScriptedTransport();
  const methods: string[] = [];
  const engine = new JsonRpcEngine(t, {
    onRequest: (request) => {
      methods.push(request.method);
      return { echoed: request.params };
    },
    onNotification: (method) => methods.push(method),
  });
  await engine.start();
  return { t, methods };
}

const unchecked = { id: 7, method: "echo", params: { a: 1 } } as unknown as JsonRpcRequest;

describe("receiveClassified", () => {
  it("runs an already-classified request without classifying it again", async () => {
    const { t, methods } = await started();
    t.sink?.receiveClassified?.({ kind: "request", message: unchecked });
    expect(await t.waitForSent(1)).toEqual([{ jsonrpc: "2.0", id: 7, result: { echoed: { a: 1 } } }]);
    expect(methods).toEqual(["echo"]);
  });

  it("delivers an already-classified notification to its handler", async () => {
    const { t, methods } = await started();
    t.sink?.receiveClassified?.({ kind: "notification", message: { jsonrpc: "2.0", method: "note" } });
    expect(methods).toEqual(["note"]);
    expect(t.sent).toEqual([]);
  });

  it("while the frame path still classifies the same object (-32600)", async () => {
    const { t, methods } = await started();
    t.inject(unchecked);
    const [answer] = (await t.waitForSent(1)) as [{ id: unknown; error: { code: number } }];
    expect(answer.error.code).toBe(-32600);
    expect(methods).toEqual([]);
  });
});
