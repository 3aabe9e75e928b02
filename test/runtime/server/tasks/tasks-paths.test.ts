/**
 * The Tasks extension's other paths on the server (extensions/tasks/tasks.md), against a real server process: a task
 * created after multi round-trip input (`context.runAsTask`), progress as the task's `statusMessage`, the routing
 * headers of `tasks/*` over Streamable HTTP, and a handshake-era session (tasks are a stateless-era feature).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpPeer, meta, pollUntil, stdioPeer, TASKS, type Peer } from "./wire-peer.ts";

describe("Tasks over Streamable HTTP", () => {
  let peer: Peer;
  beforeAll(async () => {
    peer = await httpPeer();
  }, 60_000);
  afterAll(() => peer.close());

  it("creates the task after multi round-trip input: round 1 asks, round 2 answers with the task", async () => {
    const first = await peer.request("tools/call", { name: "test_tool_with_task", arguments: {} });
    expect(first.result).toMatchObject({ resultType: "input_required", inputRequests: { user_name: {} } });
    expect(first.result).not.toHaveProperty("taskId");
    const second = await peer.request("tools/call", {
      name: "test_tool_with_task",
      arguments: {},
      inputResponses: { user_name: { action: "accept", content: { name: "Alice" } } },
      requestState: first.result!["requestState"],
    });
    expect(second.result).toMatchObject({ resultType: "task", status: "working" });
    for (const absent of ["requestState", "inputRequests"]) expect(second.result).not.toHaveProperty(absent);
    const done = await pollUntil(peer, second.result!["taskId"] as string, (t) => t["status"] === "completed");
    expect(JSON.stringify(done["result"])).toContain("Hello, Alice!");
  }, 20_000);

  it("shows a task's progress as its statusMessage", async () => {
    const created = (await peer.request("tools/call", { name: "progress_job", arguments: {} })).result!;
    const taskId = created["taskId"] as string;
    const working = await pollUntil(peer, taskId, (t) => t["statusMessage"] === "half way");
    expect(working["status"]).toBe("working");
    await peer.request("tasks/cancel", { taskId });
    expect((await peer.request("tasks/get", { taskId })).result?.["status"]).toBe("cancelled");
  }, 20_000);

  it("refuses tasks/* whose Mcp-Name is not the taskId, or missing, with -32020 (HTTP 400)", async () => {
    const created = (await peer.request("tools/call", { name: "slow_compute", arguments: { seconds: 60 } })).result!;
    const taskId = created["taskId"] as string;
    const base = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const headers = { ...base, "mcp-protocol-version": "2026-07-28", "mcp-method": "tasks/get" };
    const wrong = await peer.request("tasks/get", { taskId }, { headers: { ...headers, "mcp-name": "other" } });
    expect(wrong.status).toBe(400);
    expect(wrong.error?.code).toBe(-32020);
    const missing = await peer.request("tasks/get", { taskId }, { headers });
    expect(missing.error?.code).toBe(-32020);
    const right = await peer.request("tasks/get", { taskId }, { headers: { ...headers, "mcp-name": taskId } });
    expect(right.result?.["taskId"]).toBe(taskId);
    await peer.request("tasks/cancel", { taskId });
  }, 20_000);
});

describe("a handshake-era session over stdio", () => {
  let peer: Peer;
  beforeAll(async () => {
    peer = await stdioPeer();
    const capabilities = { elicitation: {}, extensions: { [TASKS]: {} } };
    const init = { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "old", version: "1" } };
    expect((await peer.request("initialize", init, { bare: true })).result).toBeDefined();
  }, 60_000);
  afterAll(() => peer.close());

  it("answers task-capable tools inline, and a tool that requires a task with -32021", async () => {
    const inline = await peer.request(
      "tools/call",
      { name: "slow_compute", arguments: { seconds: 0 } },
      { bare: true },
    );
    expect(inline.result).toMatchObject({ content: [{ type: "text" }] });
    expect(inline.result).not.toHaveProperty("resultType");
    const required = await peer.request("tools/call", { name: "failing_job", arguments: {} }, { bare: true });
    expect(required.error?.code).toBe(-32021);
  }, 20_000);

  it("answers tasks/update with -32601: the extension is not defined under 2025-11-25, though the client declared it", async () => {
    // (tasks/get and tasks/cancel are core methods of 2025-11-25 itself, so not this case.) The generic rule for an
    // extension's method under a revision it does not extend; the engine's own -32021 for it was dropped.
    const reply = await peer.request("tasks/update", { taskId: "t", inputResponses: {} }, { bare: true });
    expect(reply.error?.code).toBe(-32601);
  }, 20_000);

  it("answers 2025-11-25's own tasks/get and tasks/cancel with -32601: the extension's implementations are not its", async () => {
    // 2025-11-25 defines tasks/get and tasks/cancel itself, with their own semantics and capability; this server serves
    // the Tasks extension of 2026-07-28, not those, so an existing task of the extension is not reachable through them.
    const created = await peer.request(
      "tools/call",
      { name: "slow_compute", arguments: { seconds: 60 }, _meta: meta() },
      { bare: true },
    );
    const taskId = created.result?.["taskId"];
    expect(typeof taskId).toBe("string");
    for (const method of ["tasks/get", "tasks/cancel"]) {
      const reply = await peer.request(method, { taskId }, { bare: true });
      expect(reply.error?.code, method).toBe(-32601);
    }
    await peer.request("tasks/cancel", { taskId, _meta: meta() }, { bare: true });
  }, 20_000);
});
