/**
 * A task's TTL (extensions/tasks/tasks.md §Task Polling): resolvable until `createdAt + ttlMs` (never earlier),
 * then gone (-32602), whether it finished or was still running. A real server process with a 2.5 s TTL, over stdio
 * and Streamable HTTP; asked 900 ms before and 500 ms after it (400/300 ms flaked on a loaded machine). Each test may
 * take 60 s: at load 21 the first one over stdio did not finish in 20 s.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpPeer, stdioPeer, type Peer } from "./wire-peer.ts";

const TTL = 2500;
const BEFORE = 900;
const AFTER = 500;
const until = (at: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

describe.each([
  ["stdio", stdioPeer],
  ["Streamable HTTP", httpPeer],
])("task TTL over %s", (_transport, start) => {
  let peer: Peer;
  beforeAll(async () => {
    peer = await start({ TASKS_TTL_MS: String(TTL) });
  }, 60_000);
  afterAll(() => peer.close());

  it("keeps a finished task until its TTL, then answers -32602", async () => {
    const created = (await peer.request("tools/call", { name: "slow_compute", arguments: { seconds: 0 } })).result!;
    expect(created).toMatchObject({ resultType: "task", ttlMs: TTL });
    const taskId = created["taskId"] as string;
    const born = Date.parse(created["createdAt"] as string);
    await until(born + TTL - BEFORE);
    const before = await peer.request("tasks/get", { taskId });
    expect(before.result).toMatchObject({ taskId, status: "completed" });
    await until(born + TTL + AFTER);
    const after = await peer.request("tasks/get", { taskId });
    expect(after.error?.code).toBe(-32602);
    expect(after.error?.message).toMatch(/not found|expired/i);
  }, 60_000);

  it("stops a task still running at its TTL: it is gone afterwards", async () => {
    const created = (await peer.request("tools/call", { name: "slow_compute", arguments: { seconds: 60 } })).result!;
    const taskId = created["taskId"] as string;
    const born = Date.parse(created["createdAt"] as string);
    await until(born + TTL - BEFORE);
    expect((await peer.request("tasks/get", { taskId })).result).toMatchObject({ status: "working" });
    await until(born + TTL + AFTER);
    expect((await peer.request("tasks/get", { taskId })).error?.code).toBe(-32602);
    expect((await peer.request("tasks/cancel", { taskId })).error?.code).toBe(-32602);
  }, 60_000);
});

describe("a TTL longer than a timer can wait (40 days)", () => {
  const LONG = 40 * 24 * 3_600_000;
  let peer: Peer;
  beforeAll(async () => {
    peer = await stdioPeer({ TASKS_TTL_MS: String(LONG) });
  }, 60_000);
  afterAll(() => peer.close());

  it("does not expire the task at once (setTimeout fires at once past 2^31 - 1 ms)", async () => {
    // A minute's work: "working" below can only mean not expired (a 1 s task could have completed by the time a
    // loaded machine got the tasks/get through).
    const created = (await peer.request("tools/call", { name: "slow_compute", arguments: { seconds: 60 } })).result!;
    expect(created).toMatchObject({ resultType: "task", ttlMs: LONG });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const task = (await peer.request("tasks/get", { taskId: created["taskId"] })).result;
    expect(task).toMatchObject({ status: "working" });
    await peer.request("tasks/cancel", { taskId: created["taskId"] });
  }, 60_000);
});
