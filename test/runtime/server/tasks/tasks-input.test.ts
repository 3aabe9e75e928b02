/**
 * Tasks against a real server process over stdio (hand-written JSON-RPC, fixtures/tasks-server.ts): a full task store
 * (a tool whose task support is `optional` answers inline, as a server may always answer synchronously, tasks.md
 * §Task Creation; one that `required`s a task gets a clear -32603), and sampling and roots requests issued from
 * inside a task, which become the task's `inputRequests` and resume with `tasks/update`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pollUntil, stdioPeer, type Peer } from "./wire-peer.ts";

type Json = Record<string, unknown>;

describe("a full task store (maxTasks 1)", () => {
  let peer: Peer;
  beforeAll(async () => {
    peer = await stdioPeer({ TASKS_MAX: "1" });
  }, 60_000);
  afterAll(() => peer.close());

  it("answers an optional-task tool inline, and refuses a required-task tool with -32603 saying why", async () => {
    const first = (await peer.request("tools/call", { name: "slow_compute", arguments: { seconds: 60 } })).result!;
    expect(first).toMatchObject({ resultType: "task", status: "working" });
    const inline = await peer.request("tools/call", { name: "slow_compute", arguments: { seconds: 0, label: "x" } });
    expect(inline.error).toBeUndefined();
    expect(inline.result).not.toHaveProperty("taskId");
    expect(inline.result).toMatchObject({ content: [{ type: "text", text: "x: done after 0 s" }] });
    const required = await peer.request("tools/call", { name: "failing_job", arguments: {} });
    expect(required.error?.code).toBe(-32603);
    expect(required.error?.message).toMatch(/Cannot create a task: the task store holds its maximum of 1 tasks/);
    await peer.request("tasks/cancel", { taskId: first["taskId"] });
  }, 20_000);

  it("answers inline when an optional-task tool's handler asks for a task (context.runAsTask) and none fits", async () => {
    // Fills the store if the test before has not: a task, finished or cancelled, stays until its TTL (an hour).
    const filling = await peer.request("tools/call", { name: "slow_compute", arguments: { seconds: 0 } });
    expect(filling.error).toBeUndefined();
    const decided = await peer.request("tools/call", { name: "deciding_job", arguments: {} });
    expect(decided.error).toBeUndefined();
    expect(decided.result).not.toHaveProperty("taskId");
    expect(decided.result).toMatchObject({ content: [{ type: "text", text: "decided" }] });
  }, 20_000);
});

describe("input requests from inside a task", () => {
  let peer: Peer;
  beforeAll(async () => {
    peer = await stdioPeer();
  }, 60_000);
  afterAll(() => peer.close());

  /** Creates the task, waits for its one input request, answers it, and returns the finished task. */
  async function answerOne(tool: string, method: string, answer: Json): Promise<Json> {
    const created = (await peer.request("tools/call", { name: tool, arguments: {} })).result!;
    const taskId = created["taskId"] as string;
    const asking = await pollUntil(peer, taskId, (t) => t["status"] === "input_required");
    const requests = Object.entries(asking["inputRequests"] as Record<string, Json>);
    expect(requests).toHaveLength(1);
    const [key, request] = requests[0]!;
    expect(request["method"]).toBe(method);
    const ack = await peer.request("tasks/update", { taskId, inputResponses: { [key]: answer } });
    expect(ack.error).toBeUndefined();
    return pollUntil(peer, taskId, (t) => t["status"] === "completed" || t["status"] === "failed");
  }

  it("sampling/createMessage: the task asks, tasks/update answers, the task completes with it", async () => {
    const done = await answerOne("sampling_job", "sampling/createMessage", {
      role: "assistant",
      content: { type: "text", text: "Paris" },
      model: "m-1",
    });
    expect(done["status"]).toBe("completed");
    expect(done["result"]).toMatchObject({ content: [{ type: "text", text: "model m-1 said Paris" }] });
  }, 20_000);

  it("roots/list: the task asks, tasks/update answers, the task completes with it", async () => {
    const done = await answerOne("roots_job", "roots/list", { roots: [{ uri: "file:///work", name: "work" }] });
    expect(done["status"]).toBe("completed");
    expect(done["result"]).toMatchObject({ content: [{ type: "text", text: "roots: file:///work" }] });
  }, 20_000);

  it("an answer that is not a valid result of the request is -32602 naming its key, which stays outstanding", async () => {
    const created = (await peer.request("tools/call", { name: "roots_job", arguments: {} })).result!;
    const taskId = created["taskId"] as string;
    const asking = await pollUntil(peer, taskId, (t) => t["status"] === "input_required");
    const [key] = Object.keys(asking["inputRequests"] as Json);
    const bad = await peer.request("tasks/update", { taskId, inputResponses: { [key!]: { roots: "none" } } });
    expect(bad.error?.code).toBe(-32602);
    expect(bad.error?.message).toContain(key);
    expect((await peer.request("tasks/get", { taskId })).result?.["status"]).toBe("input_required");
    await peer.request("tasks/cancel", { taskId });
  }, 20_000);
});

describe("subscriptions/listen with taskIds", () => {
  let peer: Peer;
  beforeAll(async () => {
    peer = await stdioPeer();
  }, 60_000);
  afterAll(() => peer.close());

  it("sends each agreed task's current state once after the acknowledgement, even one that already ended", async () => {
    const created = (await peer.request("tools/call", { name: "slow_compute", arguments: { seconds: 0 } })).result!;
    const taskId = created["taskId"] as string;
    await pollUntil(peer, taskId, (t) => t["status"] === "completed"); // it changes no more: only the current state can come
    const running = (await peer.request("tools/call", { name: "slow_compute", arguments: { seconds: 60 } })).result!;
    const stream = peer.listen({ taskIds: [taskId, running["taskId"]] });
    const ack = await stream.next((m) => m["method"] === "notifications/subscriptions/acknowledged");
    expect((ack["params"] as Json)["notifications"]).toEqual({ taskIds: [taskId, running["taskId"]] });
    const isTask = (id: unknown) => (m: Json) =>
      m["method"] === "notifications/tasks" && (m["params"] as Json)["taskId"] === id;
    const done = await stream.next(isTask(taskId), 3000);
    expect(done["params"]).toMatchObject({
      status: "completed",
      result: { content: [{ text: "computed: done after 0 s" }] },
    });
    expect((await stream.next(isTask(running["taskId"]), 3000))["params"]).toMatchObject({ status: "working" });
    expect(stream.messages.indexOf(ack)).toBeLessThan(stream.messages.indexOf(done));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(stream.messages.filter(isTask(taskId))).toHaveLength(1); // once, not repeated
    stream.close();
    await peer.request("tasks/cancel", { taskId: running["taskId"] });
  }, 20_000);
  it("sends a change once to each of two streams of one connection that follow the same task", async () => {
    const created = (await peer.request("tools/call", { name: "slow_compute", arguments: { seconds: 1 } })).result!;
    const taskId = created["taskId"] as string;
    const first = peer.listen({ taskIds: [taskId] });
    const second = peer.listen({ taskIds: [taskId] });
    const completed = (m: Json) =>
      m["method"] === "notifications/tasks" && (m["params"] as Json)["status"] === "completed";
    await first.next(completed, 8000);
    await second.next(completed, 8000);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(first.messages.filter(completed)).toHaveLength(1);
    expect(second.messages.filter(completed)).toHaveLength(1);
    first.close();
    second.close();
  }, 20_000);
});
