/**
 * The shared store under abuse and trouble (issue 34), on a real Redis and three real instances: answers to no
 * outstanding request cannot fill Redis (each is refused with 400 and nothing is stored), a change the store did not
 * record is never acknowledged, and a paused (SIGSTOPped) Redis gives 503 within the documented second instead of
 * hanging requests.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "redis";
import { createParser } from "eventsource-parser";
import type { InstanceProcess } from "./cluster.ts";
import { useCluster } from "./use-cluster.ts";

const cluster = useCluster();
let admin: ReturnType<typeof createClient>;

beforeAll(async () => {
  admin = createClient({ url: cluster.redis.url });
  await admin.connect();
});
afterAll(async () => {
  cluster.redis.resume();
  await admin?.close();
});

const V = "2025-11-25";
const ACCEPT = { "content-type": "application/json", accept: "application/json, text/event-stream" };

function rpc(url: string, body: unknown, session?: string, signal?: AbortSignal): Promise<Response> {
  const headers: Record<string, string> = { ...ACCEPT, "mcp-protocol-version": V };
  if (session) headers["mcp-session-id"] = session;
  return fetch(url, { method: "POST", headers, body: JSON.stringify(body), ...(signal ? { signal } : {}) });
}

async function openSession(url: string): Promise<string> {
  const params = { protocolVersion: V, capabilities: { elicitation: {} }, clientInfo: { name: "raw", version: "1" } };
  const init = await rpc(url, { jsonrpc: "2.0", id: 1, method: "initialize", params });
  expect(init.status).toBe(200);
  const session = init.headers.get("mcp-session-id")!;
  await init.text();
  expect((await rpc(url, { jsonrpc: "2.0", method: "notifications/initialized" }, session)).status).toBe(202);
  return session;
}

/** The JSON-RPC message of a plain JSON or single-event SSE answer. */
async function answerOf(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  if (!(response.headers.get("content-type") ?? "").includes("text/event-stream"))
    return JSON.parse(text) as Record<string, unknown>;
  const data = text
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => line.slice(6));
  return JSON.parse(data.at(-1)!) as Record<string, unknown>;
}

/** A POST answered on an SSE stream, read message by message. */
function streamed(response: Response) {
  const messages: Array<Record<string, unknown>> = [];
  let wake = () => {};
  const parser = createParser({
    onEvent: (e) => {
      if (e.data) messages.push(JSON.parse(e.data) as Record<string, unknown>);
      wake();
    },
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const pump = (async () => {
    for (let read = await reader.read(); !read.done; read = await reader.read())
      parser.feed(decoder.decode(read.value, { stream: true }));
  })().catch(() => undefined);
  return {
    async next(test: (message: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
      for (;;) {
        const found = messages.find(test);
        if (found) return found;
        const more = new Promise<void>((resolve) => (wake = resolve));
        await Promise.race([more, pump.then(() => Promise.reject(new Error("the stream ended")))]);
      }
    },
  };
}

async function usedMemory(): Promise<number> {
  const info = await admin.info("memory");
  return Number(/used_memory:(\d+)/.exec(info)![1]);
}

async function inboxKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const batch of admin.scanIterator({ MATCH: "mcp:inbox:*" })) keys.push(...batch);
  return keys;
}

describe("answers no instance waits for", () => {
  it("a flood of them is refused (400) and leaves Redis flat: no inbox, no key, no memory", async () => {
    const [a, b, c] = cluster.instances as [InstanceProcess, InstanceProcess, InstanceProcess];
    const session = await openSession(a.url);
    const padding = "x".repeat(256 * 1024);
    // Made-up instances, the live ones with ids they never sent, hostile names, a non-string id.
    const ids = ["ghost:1", "i1:7", "i0:99999", "i2:1", "__proto__:1", "a:b:c", "mcp:inbox", "i1:", 5];
    const memoryBefore = await usedMemory();
    const keysBefore = await admin.dbSize();
    const targets = [a, b, c];
    let sent = 0;
    const refusals: Array<{ status: number; body: string }> = [];
    const flood = async () => {
      while (sent < 200) {
        const n = sent++;
        const answer = {
          jsonrpc: "2.0",
          id: ids[n % ids.length],
          result: { action: "accept", content: { padding } },
        };
        const response = await rpc(targets[n % 3]!.url, answer, session);
        refusals.push({ status: response.status, body: await response.text() });
      }
    };
    await Promise.all(Array.from({ length: 8 }, flood));
    expect(await inboxKeys()).toEqual([]);
    expect(await admin.dbSize()).toBeLessThanOrEqual(keysBefore);
    // 200 × 256 KiB stored would be 51 MB; allow 4 MB of Redis's own churn.
    expect((await usedMemory()) - memoryBefore).toBeLessThan(4 * 1024 * 1024);
    for (const refusal of refusals) {
      expect(refusal.status).toBe(400);
      const body = JSON.parse(refusal.body) as { id: unknown; error: { code: number; message: string } };
      expect(body.id).toBeNull();
      expect(body.error.code).toBe(-32600);
    }
  }, 120_000);

  it("a real answer POSTed to another instance reaches the tool, once: repeating it is refused", async () => {
    const [a, b, c] = cluster.instances as [InstanceProcess, InstanceProcess, InstanceProcess];
    const session = await openSession(a.url);
    const call = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "ask", arguments: {} } };
    const stream = streamed(await rpc(a.url, call, session));
    const elicit = await stream.next((m) => m["method"] === "elicitation/create");
    const answer = { jsonrpc: "2.0", id: elicit["id"], result: { action: "accept", content: { name: "Ada" } } };
    const routed = await rpc(b.url, answer, session);
    expect(routed.status).toBe(202);
    await routed.body?.cancel();
    const result = await stream.next((m) => m["id"] === 7);
    expect((result["result"] as { content: Array<{ text: string }> }).content[0]!.text).toBe('i0 heard {"name":"Ada"}');
    const again = await rpc(c.url, answer, session);
    expect(again.status).toBe(400);
    await again.body?.cancel();
    expect(await inboxKeys()).toEqual([]);
  }, 60_000);

  it("an answer too large to route is refused (413) and the waiting tool fails at once", async () => {
    const [a, b] = cluster.instances as [InstanceProcess, InstanceProcess];
    const session = await openSession(a.url);
    const call = { jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "ask", arguments: {} } };
    const stream = streamed(await rpc(a.url, call, session));
    const elicit = await stream.next((m) => m["method"] === "elicitation/create");
    const name = "y".repeat(2 * 1024 * 1024); // beyond the default maxInboxEntryBytes (1 MiB)
    const answer = { jsonrpc: "2.0", id: elicit["id"], result: { action: "accept", content: { name } } };
    const refused = await rpc(b.url, answer, session);
    expect(refused.status).toBe(413);
    expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(-32600);
    const result = await stream.next((m) => m["id"] === 8);
    expect(JSON.stringify(result)).toContain("exceeds maxInboxEntryBytes");
    expect(await inboxKeys()).toEqual([]);
  }, 60_000);
});

describe("a change the store did not record is not acknowledged", () => {
  /** Redis refuses `command` to the instances (an ACL) while `run` runs. */
  async function refusing<T>(command: string, run: () => Promise<T>): Promise<T> {
    await admin.sendCommand(["ACL", "SETUSER", "default", `-${command}`]);
    try {
      return await run();
    } finally {
      await admin.sendCommand(["ACL", "SETUSER", "default", "+@all"]);
    }
  }

  it("resources/subscribe, resources/unsubscribe and logging/setLevel answer the store-unavailable error", async () => {
    const [a, b] = cluster.instances as [InstanceProcess, InstanceProcess];
    const session = await openSession(a.url);
    const subscribers = () => admin.sMembers("mcp:sub:test://doc");
    const subscribe = { jsonrpc: "2.0", id: 2, method: "resources/subscribe", params: { uri: "test://doc" } };
    const failed = await refusing("sadd", async () => answerOf(await rpc(b.url, subscribe, session)));
    expect(failed["error"]).toMatchObject({
      code: -32603,
      message: expect.stringContaining("state store unavailable"),
    });
    expect(await subscribers()).not.toContain(session);
    // With the store writable again the same request succeeds and is recorded.
    expect((await answerOf(await rpc(a.url, { ...subscribe, id: 3 }, session)))["result"]).toEqual({});
    expect(await subscribers()).toContain(session);

    const unsubscribe = { jsonrpc: "2.0", id: 4, method: "resources/unsubscribe", params: { uri: "test://doc" } };
    const kept = await refusing("srem", async () => answerOf(await rpc(b.url, unsubscribe, session)));
    expect(kept["error"]).toMatchObject({ code: -32603 });
    expect(await subscribers()).toContain(session);

    const setLevel = { jsonrpc: "2.0", id: 5, method: "logging/setLevel", params: { level: "error" } };
    const unset = await refusing("eval", async () => answerOf(await rpc(b.url, setLevel, session)));
    expect(unset["error"]).toMatchObject({ code: -32603 });
    expect(await admin.hGet(`mcp:{${session}}:s`, "level")).toBeNull();
    expect((await answerOf(await rpc(a.url, { ...setLevel, id: 6 }, session)))["result"]).toEqual({});
    expect(await admin.hGet(`mcp:{${session}}:s`, "level")).toBe("error");
  }, 60_000);
});

describe("Redis paused (SIGSTOP): connections open, nothing answered", () => {
  it("session requests get 503 within the deadline (1 s) on every instance, and all recover on SIGCONT", async () => {
    const session = await openSession(cluster.proxy.url);
    const list = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/list" });
    cluster.redis.pause();
    try {
      // Three rounds: the first meets connections still open, later ones those the keep-alive tore down.
      for (let round = 0; round < 3; round++) {
        const answers = await Promise.all(
          Array.from({ length: 20 }, async (_, i) => {
            const started = Date.now();
            const target = cluster.instances[i % 3]!;
            const response = await rpc(target.url, list(100 + i), session, AbortSignal.timeout(8_000));
            const body = (await response.json()) as { error?: { code: number; message: string } };
            return {
              ms: Date.now() - started,
              status: response.status,
              retry: response.headers.get("retry-after"),
              body,
            };
          }),
        );
        for (const answer of answers) {
          expect(answer.status).toBe(503);
          expect(answer.retry).toBe("1");
          expect(answer.body.error?.message).toContain("state store unavailable");
          expect(answer.ms).toBeLessThan(2_000);
        }
      }
    } finally {
      cluster.redis.resume();
    }
    const resumed = Date.now();
    for (const instance of cluster.instances) {
      let status = 0;
      while (status !== 200 && Date.now() - resumed < 30_000) {
        const response = await rpc(instance.url, list(200), session, AbortSignal.timeout(8_000));
        status = response.status;
        await response.text();
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status).toBe(200);
    }
    expect(cluster.instances.every((instance) => instance.alive)).toBe(true);
  }, 120_000);
});
