/**
 * The Tasks extension on the server (extensions/tasks/tasks.md), end to end: a real server process
 * (fixtures/tasks-server.ts, the conformance tools) driven by hand-written JSON-RPC over stdio and over Streamable
 * HTTP. Each expectation is the spec's: the create answer, polling, input resumed by tasks/update, cancel, errors.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpPeer, pollUntil, stdioPeer, TASKS, type Peer, type Reply } from "./wire-peer.ts";

type Json = Record<string, unknown>;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

async function create(peer: Peer, name: string, args: Json = {}): Promise<Json> {
  const reply = await peer.request("tools/call", { name, arguments: args });
  expect(reply.error).toBeUndefined();
  expect(reply.result?.["resultType"]).toBe("task");
  return reply.result!;
}

async function get(peer: Peer, taskId: string): Promise<Json> {
  const reply = await peer.request("tasks/get", { taskId });
  expect(reply.error).toBeUndefined();
  return reply.result!;
}

const terminal = (task: Json) => ["completed", "failed", "cancelled"].includes(task["status"] as string);
const text = (result: unknown) => ((result as { content: { text: string }[] }).content[0] ?? { text: "" }).text;
const errorOf = (reply: Reply) => reply.error ?? { code: 0, message: `no error: ${JSON.stringify(reply.result)}` };

describe.each([
  ["stdio", stdioPeer],
  ["Streamable HTTP", httpPeer],
])("Tasks on the server over %s", (_transport, start) => {
  let peer: Peer;
  beforeAll(async () => {
    peer = await start();
  }, 60_000);
  afterAll(() => peer.close());

  it("runs a long tool call as a task: durable create, polled to its result", async () => {
    // 3 s: the immediate tasks/get below must come while it runs, even when a loaded machine stalls the child.
    const created = await create(peer, "slow_compute", { seconds: 3, label: "long" });
    expect(created).toMatchObject({ status: "working", ttlMs: 3_600_000, pollIntervalMs: 100 });
    expect(created["createdAt"]).toMatch(ISO);
    for (const absent of ["result", "error", "inputRequests", "requestState", "task", "ttl", "pollInterval"])
      expect(created).not.toHaveProperty(absent);
    // The create resolved, so an immediate tasks/get does too (tasks.md §Task Creation).
    const first = await get(peer, created["taskId"] as string);
    expect(first).toMatchObject({ resultType: "complete", taskId: created["taskId"], status: "working" });
    const done = await pollUntil(peer, created["taskId"] as string, terminal);
    expect(done["status"]).toBe("completed");
    expect(text(done["result"])).toBe("long: done after 3 s");
  }, 20_000);

  it("ends a tool error as a completed task with isError, and a JSON-RPC error as failed", async () => {
    const toolError = await create(peer, "failing_job");
    const completed = await pollUntil(peer, toolError["taskId"] as string, terminal);
    expect(completed).toMatchObject({ status: "completed", result: { isError: true } });
    const rpcError = await create(peer, "protocol_error_job");
    const failed = await pollUntil(peer, rpcError["taskId"] as string, terminal);
    expect(failed).toMatchObject({
      status: "failed",
      error: { code: -32603, message: "The job hit an internal error" },
    });
    expect(failed).not.toHaveProperty("result");
  }, 20_000);

  it("sends notifications/tasks on a subscriptions/listen stream for the caller's task only", async () => {
    const created = await create(peer, "slow_compute", { seconds: 1, label: "watched" });
    const stream = peer.listen({ taskIds: [created["taskId"], "no-such-task"] });
    const ack = await stream.next((m) => m["method"] === "notifications/subscriptions/acknowledged");
    expect((ack["params"] as Json)["notifications"]).toEqual({ taskIds: [created["taskId"]] });
    const note = await stream.next(
      (m) => m["method"] === "notifications/tasks" && (m["params"] as Json)["status"] === "completed",
    );
    expect(note["params"]).toMatchObject({ taskId: created["taskId"], result: { content: [{ type: "text" }] } });
    expect(text((note["params"] as Json)["result"])).toBe("watched: done after 1 s");
    stream.close();
  }, 20_000);

  it("resumes an input_required task with tasks/update, key by key (partial fulfilment)", async () => {
    const created = await create(peer, "multi_input");
    const id = created["taskId"] as string;
    const asking = await pollUntil(peer, id, (t) => Object.keys((t["inputRequests"] as Json) ?? {}).length === 2);
    expect(asking["status"]).toBe("input_required");
    expect(asking["inputRequests"]).toMatchObject({
      step_one: { method: "elicitation/create" },
      step_two: { method: "elicitation/create" },
    });
    // An invalid answer to an outstanding key is refused, naming it; the key stays outstanding.
    const invalid = await peer.request("tasks/update", { taskId: id, inputResponses: { step_one: { action: 7 } } });
    expect(errorOf(invalid)).toMatchObject({ code: -32602, message: expect.stringContaining("step_one") as string });
    const accept = { action: "accept", content: { confirm: true } };
    const ack = await peer.request("tasks/update", {
      taskId: id,
      inputResponses: { step_one: accept, "never-issued": { ignored: true } },
    });
    expect(ack.result).toEqual({ resultType: "complete", _meta: expect.any(Object) as object });
    const partial = await get(peer, id); // read-your-write: the answered key is gone at once
    expect(partial["status"]).toBe("input_required");
    expect(Object.keys(partial["inputRequests"] as Json)).toEqual(["step_two"]);
    await peer.request("tasks/update", { taskId: id, inputResponses: { step_two: { action: "decline" } } });
    const done = await pollUntil(peer, id, terminal);
    expect(text(done["result"])).toBe("step one: accept, step two: decline");
  }, 20_000);

  it("cancels a running task, and acknowledges a second cancel of the terminal task the same way", async () => {
    const created = await create(peer, "slow_compute", { seconds: 60 });
    const id = created["taskId"] as string;
    const first = await peer.request("tasks/cancel", { taskId: id });
    expect(first.result?.["resultType"]).toBe("complete");
    for (const absent of ["taskId", "status", "result", "error", "inputRequests"])
      expect(first.result).not.toHaveProperty(absent);
    expect(await get(peer, id)).toMatchObject({ status: "cancelled" });
    const second = await peer.request("tasks/cancel", { taskId: id });
    expect(second.result).toEqual(first.result);
    expect(await get(peer, id)).toMatchObject({ status: "cancelled" });
  }, 20_000);

  it("answers -32602 for an unknown, empty or oversized taskId on get, update and cancel", async () => {
    for (const taskId of ["tasks-nonexistent-12345", "", "x".repeat(300)]) {
      for (const method of ["tasks/get", "tasks/cancel", "tasks/update"]) {
        const params = method === "tasks/update" ? { taskId, inputResponses: {} } : { taskId };
        const reply = await peer.request(method, params);
        expect(errorOf(reply).code, `${method} ${taskId.slice(0, 20)}`).toBe(-32602);
      }
    }
  }, 20_000);

  it("gives a client that did not declare Tasks the synchronous answer, or -32021 naming the extension", async () => {
    const inline = await peer.request(
      "tools/call",
      { name: "slow_compute", arguments: { seconds: 0 } },
      { declare: false },
    );
    expect(inline.result).toMatchObject({ resultType: "complete", content: [{ type: "text" }] });
    expect(inline.result).not.toHaveProperty("taskId");
    const required = await peer.request("tools/call", { name: "failing_job", arguments: {} }, { declare: false });
    expect(errorOf(required)).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
    for (const method of ["tasks/get", "tasks/cancel"]) {
      const reply = await peer.request(method, { taskId: "gate-test" }, { declare: false });
      expect(errorOf(reply).code, method).toBe(-32021);
    }
    const listen = peer.listen({ taskIds: ["gate-test"] }, { declare: false });
    const refused = await listen.next((m) => "error" in m);
    expect((refused["error"] as Json)["code"]).toBe(-32021);
  }, 20_000);
});
