/** The engine's request timeouts (default, override, none), late responses, and requests in flight both ways. */
import { describe, expect, it } from "vitest";
import { createMemoryTransportPair, RequestTimeoutError } from "../../../runtime/index.ts";
import { JsonRpcEngine } from "../../../runtime/advanced.ts";
import { delay, ScriptedTransport } from "../helpers.ts";

async function scripted(defaultTimeoutMs: number) {
  const t = new ScriptedTransport();
  const diagnostics: string[] = [];
  const engine = new JsonRpcEngine(
    t,
    { onRequest: () => ({}), onNotification: () => undefined, onDiagnostic: (m) => diagnostics.push(m) },
    { defaultTimeoutMs },
  );
  await engine.start();
  const sentRequest = (method: string) =>
    t.sent.find((m) => (m as { method?: string }).method === method) as { id: number };
  return { t, engine, diagnostics, sentRequest };
}

describe("request timeouts", () => {
  it("applies the engine's default and tells the peer", async () => {
    const { t, engine, sentRequest } = await scripted(30);
    await expect(engine.request("silent", {})).rejects.toBeInstanceOf(RequestTimeoutError);
    const { id } = sentRequest("silent");
    expect(t.sent).toContainEqual({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: expect.objectContaining({ requestId: id }),
    });
    expect(engine.pendingCount).toBe(0);
  });

  it("lets a request override the default, longer or off", async () => {
    const { t, engine, sentRequest } = await scripted(30);
    const longer = engine.request("longer", {}, { timeoutMs: 10_000 });
    const none = engine.request("none", {}, { timeoutMs: 0 });
    await delay(120); // well past the 30 ms default
    expect(engine.pendingCount).toBe(2);
    t.inject({ jsonrpc: "2.0", id: sentRequest("longer").id, result: { which: "longer" } });
    t.inject({ jsonrpc: "2.0", id: sentRequest("none").id, result: { which: "none" } });
    await expect(longer).resolves.toEqual({ which: "longer" });
    await expect(none).resolves.toEqual({ which: "none" });
    expect(t.sent.some((m) => (m as { method?: string }).method === "notifications/cancelled")).toBe(false);
  });

  it("drops a late response after a timeout, reports it, and keeps working", async () => {
    const { t, engine, diagnostics, sentRequest } = await scripted(60_000);
    await expect(engine.request("slow", {}, { timeoutMs: 20 })).rejects.toBeInstanceOf(RequestTimeoutError);
    t.inject({ jsonrpc: "2.0", id: sentRequest("slow").id, result: { late: true } });
    expect(diagnostics.join("\n")).toMatch(/dropped a response .* request id/);
    const next = engine.request("next", {});
    t.inject({ jsonrpc: "2.0", id: sentRequest("next").id, result: { ok: 1 } });
    await expect(next).resolves.toEqual({ ok: 1 });
  });
});

describe("requests in flight both ways", () => {
  it("correlates concurrent requests from each side to the other", async () => {
    const [a, b] = createMemoryTransportPair();
    const handler = (side: string) => async (request: { method: string; params: unknown }) => {
      await delay((request.params as { wait: number }).wait);
      return { side, method: request.method };
    };
    const left = new JsonRpcEngine(a, { onRequest: handler("left"), onNotification: () => undefined });
    const right = new JsonRpcEngine(b, { onRequest: handler("right"), onNotification: () => undefined });
    await Promise.all([left.start(), right.start()]);
    const count = 20;
    // Later requests answer sooner, so responses arrive out of order in both directions at once.
    const wait = (i: number) => ({ wait: (count - i) % 7 });
    const fromLeft = Array.from({ length: count }, (_, i) => left.request(`l${i}`, wait(i)));
    const fromRight = Array.from({ length: count }, (_, i) => right.request(`r${i}`, wait(i)));
    expect(await Promise.all(fromLeft)).toEqual(
      Array.from({ length: count }, (_, i) => ({ side: "right", method: `l${i}` })),
    );
    expect(await Promise.all(fromRight)).toEqual(
      Array.from({ length: count }, (_, i) => ({ side: "left", method: `r${i}` })),
    );
    await left.close();
  });
});
