/**
 * The task store's rules (runtime/tasks/server/store.ts, memory-store.ts): a terminal task never changes (the first
 * outcome wins), answers are taken for outstanding keys only and the task stays input_required while any remains,
 * the in-memory store is bounded and never drops a task before its `expiresAt`.
 */
import { describe, expect, it } from "vitest";
import { InMemoryTaskStore } from "../../../../runtime/tasks/server/memory-store.ts";
import { applyTaskChange, TaskStoreFullError, type TaskState } from "../../../../runtime/tasks/server/store.ts";
import { describeTaskStore } from "./store-contract.ts";

describeTaskStore("InMemoryTaskStore", (limits) => new InMemoryTaskStore({ sweepIntervalMs: 0, ...limits }));

const AT = new Date("2026-08-01T00:00:00Z");

function task(taskId: string, expiresAt: number | null = null): TaskState {
  const at = AT.toISOString();
  return {
    taskId,
    status: "working",
    createdAt: at,
    lastUpdatedAt: at,
    ttlMs: expiresAt === null ? null : expiresAt - AT.getTime(),
    expiresAt,
    owner: "",
    method: "tools/call",
    revision: "2026-07-28",
  };
}

const ask = { method: "elicitation/create", params: { message: "?" } };

describe("applyTaskChange", () => {
  it("keeps the first outcome: a completion after a cancel changes nothing", () => {
    const cancelled = applyTaskChange(task("a"), { type: "cancel" }, AT)!;
    expect(cancelled.status).toBe("cancelled");
    expect(applyTaskChange(cancelled, { type: "complete", result: { content: [] } }, AT)).toBeUndefined();
    expect(applyTaskChange(cancelled, { type: "message", statusMessage: "late" }, AT)).toBeUndefined();
  });

  it("takes answers for outstanding keys only; input_required until every key is answered", () => {
    const asking = applyTaskChange(task("a"), { type: "ask", requests: { one: ask, two: ask } }, AT)!;
    expect(asking.status).toBe("input_required");
    expect(applyTaskChange(asking, { type: "answer", responses: { other: {} } }, AT)).toBeUndefined();
    const half = applyTaskChange(asking, { type: "answer", responses: { one: { action: "cancel" } } }, AT)!;
    expect(half.status).toBe("input_required");
    expect(Object.keys(half.inputRequests!)).toEqual(["two"]);
    const done = applyTaskChange(half, { type: "answer", responses: { two: { action: "decline" } } }, AT)!;
    expect(done.status).toBe("working");
    expect(done.inputResponses).toEqual({ one: { action: "cancel" }, two: { action: "decline" } });
    expect(done.usedKeys).toEqual(["one", "two"]);
  });

  it("drops outstanding inputs when the task ends", () => {
    const asking = applyTaskChange(task("a"), { type: "ask", requests: { one: ask } }, AT)!;
    const failed = applyTaskChange(asking, { type: "fail", error: { code: -32603, message: "boom" } }, AT)!;
    expect(failed).toMatchObject({ status: "failed", statusMessage: "boom", error: { code: -32603 } });
    expect(failed).not.toHaveProperty("inputRequests");
  });
});

describe("InMemoryTaskStore", () => {
  it("refuses a task beyond maxTasks until an expired one can be swept", async () => {
    let now = AT.getTime();
    const store = new InMemoryTaskStore({ maxTasks: 2, sweepIntervalMs: 0, now: () => now });
    await store.create(task("a", now + 1000));
    await store.create(task("b", null));
    await expect(store.create(task("c", null))).rejects.toBeInstanceOf(TaskStoreFullError);
    now += 1000; // a's expiresAt: still kept (never early)
    expect(await store.get("a")).toBeDefined();
    await expect(store.create(task("c", null))).rejects.toBeInstanceOf(TaskStoreFullError);
    now += 1; // past it
    await store.create(task("c", null));
    expect(await store.get("a")).toBeUndefined();
    expect(store.size).toBe(2);
    await store.close();
  });

  it("tells subscribers each change, and not a change to a terminal task", async () => {
    const store = new InMemoryTaskStore({ sweepIntervalMs: 0 });
    const seen: string[] = [];
    const stop = store.subscribe((t) => seen.push(t.status));
    await store.create(task("a"));
    await store.update("a", { type: "complete", result: {} });
    expect((await store.update("a", { type: "cancel" }))?.status).toBe("completed");
    expect(await store.update("missing", { type: "cancel" })).toBeUndefined();
    stop();
    expect(seen).toEqual(["completed"]);
  });
});
