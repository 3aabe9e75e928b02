/**
 * The Tasks extension's store on a real Redis (`redisStore({ url }).tasks`, runtime/http/server/redis-tasks.ts):
 * the TaskStore contract every store runs, plus what only a shared store can get wrong — two instances racing on one
 * task lose no change, a change made on one instance reaches the other's subscribers, a task key expires at the
 * task's expiresAt (and one without TTL never), the deployment-wide maxTasks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "redis";
import { redisStore, type RedisStateStore } from "../../runtime/redis.ts";
import { TaskStoreFullError, type TaskState } from "../../runtime/tasks/server/store.ts";
import { describeTaskStore, sampleTask } from "../runtime/server/tasks/store-contract.ts";
import { RedisProcess } from "./cluster.ts";

const redis = new RedisProcess();
const opened: RedisStateStore[] = [];

function open(
  options: { keyPrefix?: string; maxTasks?: number; maxTasksPerOwner?: number; url?: string } = {},
): RedisStateStore {
  const store = redisStore({ url: redis.url, ...options });
  opened.push(store);
  return store;
}

beforeAll(() => redis.start(), 20_000);
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  await redis.stop();
});

let prefixes = 0;
describeTaskStore("RedisTaskStore", async (limits) => {
  // A store with limits gets its own keys (the limits bound what is under its prefix).
  const store = open(limits ? { keyPrefix: `limits${++prefixes}:`, ...limits } : {});
  await store.ready();
  return store.tasks;
});

describe("RedisTaskStore shared by instances", () => {
  it("loses no change when two instances race on one task, and each instance hears every change", async () => {
    const [one, two] = [open(), open()];
    await Promise.all([one.ready(), two.ready()]);
    const heard: Array<Set<string>> = [new Set(), new Set()];
    [one, two].forEach((store, i) =>
      store.tasks.subscribe((task) => Object.keys(task.inputRequests ?? {}).forEach((key) => heard[i]!.add(key))),
    );
    const task = sampleTask();
    await one.tasks.create(task);
    const ask = { method: "elicitation/create", params: { message: "?" } };
    const keys = Array.from({ length: 40 }, (_, i) => `k${i}`);
    await Promise.all(
      keys.map((key, i) => (i % 2 ? one : two).tasks.update(task.taskId, { type: "ask", requests: { [key]: ask } })),
    );
    const final = (await two.tasks.get(task.taskId))!;
    expect(Object.keys(final.inputRequests ?? {}).sort()).toEqual([...keys].sort());
    expect(final.usedKeys).toHaveLength(40);
    // Pub/sub delivers on its own connection, after the writes' answers: wait for it (100 ms was not always enough
    // on a loaded machine, where the timer could fire before the subscriber's socket was read).
    await expect.poll(() => [...heard[0]!].sort(), { timeout: 30_000 }).toEqual([...keys].sort());
    await expect.poll(() => [...heard[1]!].sort(), { timeout: 30_000 }).toEqual([...keys].sort());
  });

  it("a cancel on one instance and a completion on another: exactly one outcome, seen the same everywhere", async () => {
    const [one, two] = [open(), open()];
    await Promise.all([one.ready(), two.ready()]);
    for (let round = 0; round < 10; round++) {
      const task = sampleTask();
      await one.tasks.create(task);
      const [cancelled, completed] = await Promise.all([
        one.tasks.update(task.taskId, { type: "cancel" }),
        two.tasks.update(task.taskId, { type: "complete", result: { content: [] } }),
      ]);
      const winner = (await one.tasks.get(task.taskId))!.status;
      expect(["cancelled", "completed"]).toContain(winner);
      expect(cancelled!.status).toBe(winner);
      expect(completed!.status).toBe(winner);
    }
  });

  it("expires a task key at the task's expiresAt, keeps one without TTL, and bounds the live tasks", async () => {
    const store = open({ keyPrefix: "bounded:", maxTasks: 2 });
    await store.ready();
    const admin = createClient({ url: redis.url });
    await admin.connect();
    // 1 s: the five round trips below must come before it expires, also on a loaded machine.
    const short: TaskState = sampleTask({ expiresAt: Date.now() + 1_000, ttlMs: 1_000 });
    await store.tasks.create(short);
    const forever = sampleTask({ expiresAt: null, ttlMs: null });
    await store.tasks.create(forever);
    const ttl = await admin.pTTL(`bounded:task:${short.taskId}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(1_000);
    expect(await admin.pTTL(`bounded:task:${forever.taskId}`)).toBe(-1); // no expiry
    await expect(store.tasks.create(sampleTask())).rejects.toBeInstanceOf(TaskStoreFullError);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, short.expiresAt! - Date.now()) + 100));
    expect(await store.tasks.get(short.taskId)).toBeUndefined();
    await store.tasks.create(sampleTask()); // the expired one no longer counts
    expect(await store.tasks.get(forever.taskId)).toMatchObject({ status: "working" });
    await admin.close();
  });

  it("keeps an owner's task sets no longer than its tasks (the quota's bookkeeping leaks nothing)", async () => {
    const store = open({ keyPrefix: "owners:", maxTasks: 10, maxTasksPerOwner: 1 });
    await store.ready();
    const admin = createClient({ url: redis.url });
    await admin.connect();
    const finished = sampleTask({ owner: "o", expiresAt: Date.now() + 60_000, ttlMs: 60_000 });
    await store.tasks.create(finished);
    await store.tasks.update(finished.taskId, { type: "complete", result: { content: [] } });
    await store.tasks.create(sampleTask({ owner: "o", expiresAt: Date.now() + 30_000, ttlMs: 30_000 })); // over quota
    const keys = (await admin.keys("owners:owner*")).sort();
    expect(keys).toHaveLength(3); // o's unfinished and finished sets, the list of owners over quota
    for (const key of keys) {
      const ttl = await admin.pTTL(key);
      expect(ttl, key).toBeGreaterThan(0);
      expect(ttl, key).toBeLessThanOrEqual(60_000);
    }
    await admin.close();
  });

  it("an instance whose subscriber reconnects gets, on resubscribing, a change it missed on a task it created", async () => {
    const admin = createClient({ url: redis.url });
    await admin.connect();
    // Instance one logs in as its own ACL user, so the test can keep it from reconnecting while a change goes out.
    await admin.sendCommand(["ACL", "SETUSER", "instance-one", "on", ">secret", "~*", "&*", "+@all"]);
    const one = open({ url: `redis://instance-one:secret@127.0.0.1:${redis.port}` });
    const two = open();
    await Promise.all([one.ready(), two.ready()]);
    const heard: TaskState[] = [];
    one.tasks.subscribe((task) => heard.push(task));
    const task = sampleTask();
    await one.tasks.create(task);
    const ask = { method: "elicitation/create", params: { message: "?" } };
    await one.tasks.update(task.taskId, { type: "ask", requests: { k: ask } });
    await expect.poll(() => heard.length, { timeout: 30_000 }).toBe(1);
    // A subscriber that becomes ready catches up at once and again 500 ms later (redis-store.ts). Its first ready was
    // before the change above was heard, so a 600 ms pause ends after that second catch-up: otherwise, on a loaded
    // machine, it could run after the answer below and read it back, before the resubscription this test is about.
    await new Promise((resolve) => setTimeout(resolve, 600));
    await admin.sendCommand(["ACL", "SETUSER", "instance-one", "off"]);
    await admin.sendCommand(["CLIENT", "KILL", "TYPE", "pubsub"]);
    await two.tasks.update(task.taskId, { type: "answer", responses: { k: { action: "accept" } } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(heard).toHaveLength(1); // published while one had no subscription: pub/sub kept nothing for it
    await admin.sendCommand(["ACL", "SETUSER", "instance-one", "on"]);
    await expect.poll(() => heard[1]?.inputResponses, { timeout: 30_000 }).toEqual({ k: { action: "accept" } });
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(heard).toHaveLength(2); // once, not again at the second catch-up
    await admin.close();
  }, 90_000);
});
