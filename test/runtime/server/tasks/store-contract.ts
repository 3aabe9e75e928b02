/**
 * What every `TaskStore` must do (runtime/server/tasks/store.ts), as a suite any implementation runs:
 * `describeTaskStore("redis", () => new RedisTaskStore(…))`. The in-memory store runs it in store.test.ts.
 */
import { describe, expect, it } from "vitest";
import type { TaskState, TaskStore } from "../../../../runtime/server/tasks/store.ts";

/** A fresh working task with a unique id, expiring in an hour. */
export function sampleTask(overrides: Partial<TaskState> = {}): TaskState {
  const now = Date.now();
  return {
    taskId: `contract-${Math.random().toString(36).slice(2)}`,
    status: "working",
    createdAt: new Date(now).toISOString(),
    lastUpdatedAt: new Date(now).toISOString(),
    ttlMs: 3_600_000,
    pollIntervalMs: 1000,
    expiresAt: now + 3_600_000,
    owner: "",
    method: "tools/call",
    revision: "2026-07-28",
    ...overrides,
  };
}

export function describeTaskStore(name: string, make: () => Promise<TaskStore> | TaskStore): void {
  describe(`TaskStore contract: ${name}`, () => {
    it("resolves a created task at once (durable create), and nothing for an unknown id", async () => {
      const store = await make();
      const task = sampleTask();
      await store.create(task);
      expect(await store.get(task.taskId)).toEqual(task);
      expect(await store.get("contract-unknown")).toBeUndefined();
      await store.close?.();
    });

    it("applies changes atomically in order, reports each, and never changes a terminal task", async () => {
      const store = await make();
      const task = sampleTask();
      const seen: TaskState[] = [];
      const stop = store.subscribe((t) => t.taskId === task.taskId && seen.push(t));
      await store.create(task);
      const ask = { method: "elicitation/create", params: { message: "?" } };
      await Promise.all([
        store.update(task.taskId, { type: "ask", requests: { a: ask } }),
        store.update(task.taskId, { type: "ask", requests: { b: ask } }),
      ]);
      expect(Object.keys((await store.get(task.taskId))!.inputRequests ?? {}).sort()).toEqual(["a", "b"]);
      const answered = await store.update(task.taskId, { type: "answer", responses: { a: { action: "cancel" } } });
      expect(answered).toMatchObject({ status: "input_required", inputResponses: { a: { action: "cancel" } } });
      await store.update(task.taskId, { type: "cancel" });
      const late = await store.update(task.taskId, { type: "complete", result: { content: [] } });
      expect(late?.status).toBe("cancelled");
      expect(await store.update("contract-unknown", { type: "cancel" })).toBeUndefined();
      // A shared store may report asynchronously: wait for the four reports (a fixed 50 ms could end before a loaded
      // machine read them), then 50 ms more for any report that should not come.
      await expect.poll(() => seen.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(4);
      await new Promise((resolve) => setTimeout(resolve, 50));
      stop();
      expect(seen.map((t) => t.status)).toEqual(["input_required", "input_required", "input_required", "cancelled"]);
      await store.close?.();
    });

    it("keeps a task until its expiresAt", async () => {
      const store = await make();
      // Asked halfway through its TTL; 2 s, so the create, the pause and the get fit before expiresAt on a loaded machine.
      const task = sampleTask({ expiresAt: Date.now() + 2_000, ttlMs: 2_000 });
      await store.create(task);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(await store.get(task.taskId)).toBeDefined();
      await store.close?.();
    });
  });
}
