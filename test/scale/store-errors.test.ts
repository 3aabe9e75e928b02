/**
 * Redis refusing the store (issue 38): a full Redis (`maxmemory` under used memory, `noeviction`), an ACL user denied a
 * command the store needs and a Redis Cluster node, each on a real redis-server and a real
 * instance (test/scale/instance.ts, which prints what its `onError` callbacks are told on stderr). Each time the
 * request gets 503 (never 404), the endpoint's `onError` hears the cause Redis gave, `/ready` answers 503 while it
 * lasts and 200 again once it is over.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "redis";
import { InstanceProcess, RedisProcess } from "./cluster.ts";
import { waitFor } from "../runtime/http/helpers.ts";

const V = "2025-11-25";
const ACCEPT = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function startRedis(args: readonly string[] = []) {
  const redis = new RedisProcess(undefined, args);
  await redis.start();
  cleanups.push(() => redis.stop());
  const admin = createClient({ url: redis.url });
  admin.on("error", () => undefined);
  await admin.connect();
  cleanups.push(async () => admin.destroy()); // not close(): it waits for a Redis the test may have killed
  return { redis, admin };
}

async function startInstance(redisUrl: string): Promise<InstanceProcess> {
  const instance = new InstanceProcess("e0", { REDIS_URL: redisUrl });
  await instance.start();
  cleanups.push(() => instance.kill());
  return instance;
}

function initialize(instance: InstanceProcess): Promise<Response> {
  const params = { protocolVersion: V, capabilities: {}, clientInfo: { name: "raw", version: "1" } };
  return fetch(instance.url, {
    method: "POST",
    headers: { ...ACCEPT, "mcp-protocol-version": V },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params }),
  });
}

function callEcho(instance: InstanceProcess, session: string): Promise<Response> {
  return fetch(instance.url, {
    method: "POST",
    headers: { ...ACCEPT, "mcp-protocol-version": V, "mcp-session-id": session },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "echo", arguments: { text: "hi" } },
    }),
  });
}

async function openSession(instance: InstanceProcess): Promise<string> {
  const init = await initialize(instance);
  expect(init.status).toBe(200);
  await init.text();
  return init.headers.get("mcp-session-id")!;
}

async function readiness(instance: InstanceProcess): Promise<number> {
  const answer = await fetch(new URL("/ready", instance.url));
  await answer.text();
  return answer.status;
}

/** The lines the instance's endpoint `onError` printed since `from` (an offset into its stderr). */
const reported = (instance: InstanceProcess, from: number) =>
  instance.stderr
    .slice(from)
    .split("\n")
    .filter((line) => line.startsWith("scale-onerror "));

/** Waits for a readiness answer `status`, asking again until it comes. */
async function readinessBecomes(instance: InstanceProcess, status: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (let last = await readiness(instance); last !== status; last = await readiness(instance)) {
    if (Date.now() > deadline) throw new Error(`readiness stayed ${last}, expected ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("Redis refuses the store", () => {
  it("full (used memory over maxmemory, noeviction): 503, onError names OOM, unready until memory is freed", async () => {
    const { redis, admin } = await startRedis(["--maxmemory-policy", "noeviction"]);
    const instance = await startInstance(redis.url);
    const session = await openSession(instance);
    expect(await readiness(instance)).toBe(200);

    const used = Number(/used_memory:(\d+)/.exec(await admin.info("memory"))![1]);
    await admin.configSet("maxmemory", String(Math.floor(used / 2)));
    const from = instance.stderr.length;
    const call = await callEcho(instance, session);
    expect(call.status).toBe(503);
    expect(call.headers.get("retry-after")).toBe("1");
    await waitFor(() => reported(instance, from).some((line) => line.includes("OOM command not allowed")), 10_000);
    expect(reported(instance, from)[0]).toContain("StoreUnavailableError");
    expect(await readiness(instance)).toBe(503);
    await waitFor(() => reported(instance, from).some((line) => line.includes("RedisRefusedError")), 10_000);

    await admin.configSet("maxmemory", "0");
    await readinessBecomes(instance, 200);
    expect((await callEcho(instance, session)).status).toBe(200);
  }, 60_000);

  it("an ACL user denied ZADD: 503, onError names NOPERM, unready until the ACL allows it", async () => {
    const { redis, admin } = await startRedis();
    await admin.sendCommand(["ACL", "SETUSER", "store", "on", ">secret", "~*", "&*", "+@all", "-zadd"]);
    const instance = await startInstance(`redis://store:secret@127.0.0.1:${redis.port}`);

    const from = instance.stderr.length;
    expect(await readiness(instance)).toBe(503);
    const init = await initialize(instance);
    expect(init.status).toBe(503);
    const lines = () => reported(instance, from);
    await waitFor(() => lines().some((line) => /RedisRefusedError: Redis refuses ZADD.*NOPERM/.test(line)), 10_000);
    await waitFor(() => lines().some((l) => l.includes("StoreUnavailableError") && l.includes("NOPERM")), 10_000);
    // The store's own onError heard it when the connection was made, before any request.
    expect(instance.stderr).toMatch(/scale-store-error RedisRefusedError: Redis refuses ZADD/);

    await admin.sendCommand(["ACL", "SETUSER", "store", "+zadd"]);
    await readinessBecomes(instance, 200);
    expect((await initialize(instance)).status).toBe(200);
  }, 60_000);

  it("a Redis Cluster node: the store refuses it (CROSSSLOT), 503, onError says why, never ready", async () => {
    const { redis, admin } = await startRedis(["--cluster-enabled", "yes"]);
    await admin.sendCommand(["CLUSTER", "ADDSLOTSRANGE", "0", "16383"]);
    for (let i = 0; !(await admin.sendCommand<string>(["CLUSTER", "INFO"])).includes("cluster_state:ok"); i++) {
      if (i > 200) throw new Error("the cluster node never reached cluster_state:ok");
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const instance = await startInstance(redis.url);
    const from = instance.stderr.length;
    expect(await readiness(instance)).toBe(503);
    expect((await initialize(instance)).status).toBe(503);
    await waitFor(() => reported(instance, from).length >= 2, 10_000);
    for (const line of reported(instance, from))
      expect(line).toMatch(/RedisTopologyError: redisStore: the server is a Redis Cluster node \(CROSSSLOT/);
    expect(await readiness(instance)).toBe(503);
  }, 60_000);
});
