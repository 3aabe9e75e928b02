/**
 * What every `TaskStore` must do (runtime/tasks/server/store.ts), as a suite any implementation runs:
 * `describeTaskStore("redis", (limits) => new RedisTaskStore(…))`. The in-memory store runs it in store.test.ts.
 * `make` gets the limits a case needs (`maxTasks`, `maxTasksPerOwner`) or none (the defaults).
 */
import { describe, expect, it } from "vitest";
import {
  TaskQuotaError,
  TaskStoreFullError,
  type TaskState,
  type TaskStore,
} from "../../../../runtime/tasks/server/store.ts";

export interface StoreLimits {
  readonly maxTasks: number;
  readonly maxTasksPerOwner: number;
}

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

export function describeTaskStore(name: string, make: (limits?: StoreLimits) => Promise<TaskStore> | TaskStore): void {
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
      await expect.poll(() => seen.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(4);
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

    it("refuses an owner its quota of unfinished tasks, and only that owner, until one of them ends", async () => {
      const store = await make({ maxTasks: 100, maxTasksPerOwner: 2 });
      const [a1, a2] = [sampleTask({ owner: "a" }), sampleTask({ owner: "a" })];
      await store.create(a1);
      await store.create(a2);
      const refused = store.create(sampleTask({ owner: "a" }));
      await expect(refused).rejects.toBeInstanceOf(TaskQuotaError);
      await expect(refused).rejects.toMatchObject({ limit: 2 });
      await store.create(sampleTask({ owner: "b" }));
      await store.update(a1.taskId, { type: "complete", result: { content: [] } });
      await store.create(sampleTask({ owner: "a" })); // a1 ended: a has one unfinished task
      await expect(store.create(sampleTask({ owner: "a" }))).rejects.toBeInstanceOf(TaskQuotaError);
      expect(await store.get(a1.taskId)).toMatchObject({ status: "completed" }); // finished tasks stay
      await store.close?.();
    });

    it("when full, drops the finished task expiring first of the owner over quota, and no task of others", async () => {
      const store = await make({ maxTasks: 4, maxTasksPerOwner: 1 });
      const base = Date.now() + 3_600_000;
      // "flood" holds three finished tasks (over its quota of 1); "calm" one unfinished.
      const flood = [2, 0, 1].map((i) => sampleTask({ owner: "flood", expiresAt: base + i }));
      for (const task of flood) {
        await store.create(task);
        await store.update(task.taskId, { type: "complete", result: { content: [] } });
      }
      const calm = sampleTask({ owner: "calm", expiresAt: base - 1 });
      await store.create(calm);
      const other = sampleTask({ owner: "other" });
      await store.create(other); // full: flood's task expiring first (base + 0) makes room
      expect(await store.get(flood[1]!.taskId)).toBeUndefined();
      for (const kept of [flood[0]!, flood[2]!, calm, other]) expect(await store.get(kept.taskId)).toBeDefined();
      await store.create(sampleTask({ owner: "more" })); // flood's next (base + 1)
      expect(await store.get(flood[2]!.taskId)).toBeUndefined();
      // flood now holds one task, its quota: nobody is over quota, so the store is full.
      await expect(store.create(sampleTask({ owner: "last" }))).rejects.toBeInstanceOf(TaskStoreFullError);
      for (const kept of [flood[0]!, calm, other]) expect(await store.get(kept.taskId)).toBeDefined();
      await store.close?.();
    });

    it("never drops an unfinished task to make room, however many its owner holds", async () => {
      const store = await make({ maxTasks: 3, maxTasksPerOwner: 1 });
      const finished = sampleTask({ owner: "x" });
      await store.create(finished);
      await store.update(finished.taskId, { type: "fail", error: { code: -32603, message: "no" } });
      const working = sampleTask({ owner: "x" });
      await store.create(working); // x holds 2 (over quota), 1 unfinished
      await store.create(sampleTask({ owner: "y" }));
      await store.create(sampleTask({ owner: "z" })); // drops x's finished one
      expect(await store.get(finished.taskId)).toBeUndefined();
      await expect(store.create(sampleTask({ owner: "w" }))).rejects.toBeInstanceOf(TaskStoreFullError);
      expect(await store.get(working.taskId)).toMatchObject({ status: "working" });
      await store.close?.();
    });
  });
}
