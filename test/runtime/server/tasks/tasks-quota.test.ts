/**
 * Per-owner task quotas (issue 34) against a real server process over Streamable HTTP with bearer auth, its tasks in
 * memory and on a real redis-server: one caller's flood — instant tasks that fill the store, or unfinished tasks up
 * to its quota — never keeps another caller's `task: required` tool from running. The fixture's store holds 20
 * tasks, 3 unfinished per caller (TASKS_MAX, TASKS_PER_OWNER).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedisProcess } from "../../../scale/cluster.ts";
import { httpPeer, pollUntil, type Peer } from "./wire-peer.ts";

const FLOODER = { bearer: "as.test~flooder" };
const VICTIM = { bearer: "as.test~victim" };

for (const where of ["memory", "redis"] as const) {
  describe(`task quotas, tasks in ${where}`, () => {
    let peer: Peer;
    let redis: RedisProcess | undefined;
    beforeAll(async () => {
      const env: Record<string, string> = { TASKS_AUTH: "1", TASKS_MAX: "20", TASKS_PER_OWNER: "3" };
      if (where === "redis") {
        redis = new RedisProcess();
        await redis.start();
        env["TASKS_REDIS_URL"] = redis.url;
      }
      peer = await httpPeer(env);
    }, 60_000);
    afterAll(async () => {
      await peer?.close();
      await redis?.stop();
    });

    it("after one caller's flood of instant tasks fills the store, another's required tool still runs", async () => {
      const flood: string[] = [];
      for (let i = 0; i < 30; i++) {
        const reply = await peer.request("tools/call", { name: "slow_compute", arguments: { seconds: 0 } }, FLOODER);
        expect(reply.error).toBeUndefined();
        if (reply.result?.["resultType"] === "task") flood.push(reply.result["taskId"] as string);
      }
      expect(flood.length).toBeGreaterThanOrEqual(20); // the flood filled the store (20 tasks) by itself
      const created = await peer.request("tools/call", { name: "failing_job", arguments: {} }, VICTIM);
      expect(created.error).toBeUndefined();
      expect(created.result).toMatchObject({ resultType: "task" });
      const done = await pollUntil(
        peer,
        created.result!["taskId"] as string,
        (t) => t["status"] !== "working",
        15_000,
        VICTIM,
      );
      expect(done).toMatchObject({ status: "completed", result: { isError: true } });
      // The room came from the flooder's finished task that expires first: its oldest.
      const oldest = await peer.request("tasks/get", { taskId: flood[0] }, FLOODER);
      expect(oldest.error?.code).toBe(-32602);
      const newest = await peer.request("tasks/get", { taskId: flood.at(-1) }, FLOODER);
      expect(newest.result).toMatchObject({ status: "completed" });
    }, 120_000);

    it("refuses a caller its fourth unfinished task with -31430, and only that caller", async () => {
      const held: string[] = [];
      for (let i = 0; i < 3; i++) {
        const reply = await peer.request("tools/call", { name: "held_job", arguments: {} }, FLOODER);
        expect(reply.result).toMatchObject({ resultType: "task", status: "working" });
        held.push(reply.result!["taskId"] as string);
      }
      const refused = await peer.request("tools/call", { name: "held_job", arguments: {} }, FLOODER);
      expect(refused.error).toMatchObject({ code: -31430, data: { limit: 3 } });
      expect(refused.error?.message).toMatch(/already has 3 unfinished tasks.*retry when one of them ends/);
      const other = await peer.request("tools/call", { name: "held_job", arguments: {} }, VICTIM);
      expect(other.result).toMatchObject({ resultType: "task", status: "working" });
      // One of the flooder's tasks ends: it may start another.
      await peer.request("tasks/cancel", { taskId: held[0] }, FLOODER);
      await pollUntil(peer, held[0]!, (t) => t["status"] === "cancelled", 15_000, FLOODER);
      const again = await peer.request("tools/call", { name: "held_job", arguments: {} }, FLOODER);
      expect(again.result).toMatchObject({ resultType: "task", status: "working" });
      for (const taskId of [...held.slice(1), again.result!["taskId"]])
        await peer.request("tasks/cancel", { taskId }, FLOODER);
      await peer.request("tasks/cancel", { taskId: other.result!["taskId"] }, VICTIM);
    }, 120_000);
  });
}
