/**
 * A `resources/subscribe` flood against a shared deployment (issue 34 item 5), on a real Redis and two real
 * instances whose `maxSubscriptionsPerSession` is 50: URIs that name no resource store nothing (-32002); one session's
 * subscriptions spread over both instances are capped deployment-wide (-31431 with `data.limit` beyond the cap), so
 * Redis holds one per-URI set per acknowledged subscription and no more; an instance's copy of the session keeps only
 * what was acknowledged; and deleting the session removes every per-URI set it was in.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "redis";
import type { InstanceProcess } from "./cluster.ts";
import { useCluster } from "./use-cluster.ts";

const LIMIT = 50;
const cluster = useCluster(2, { MAX_SUBSCRIPTIONS: String(LIMIT) });
let admin: ReturnType<typeof createClient>;

beforeAll(async () => {
  admin = createClient({ url: cluster.redis.url });
  await admin.connect();
});
afterAll(() => admin?.close());

const V = "2025-11-25";
const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };

async function rpc(url: string, body: object, session?: string): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = { ...HEADERS, "mcp-protocol-version": V };
  if (session) headers["mcp-session-id"] = session;
  const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
  const text = await response.text();
  if (!(response.headers.get("content-type") ?? "").includes("text/event-stream"))
    return JSON.parse(text) as Record<string, unknown>;
  const data = text.split("\n").filter((line) => line.startsWith("data: "));
  return JSON.parse(data.at(-1)!.slice(6)) as Record<string, unknown>;
}

async function openSession(url: string): Promise<string> {
  const headers = { ...HEADERS, "mcp-protocol-version": V };
  const params = { protocolVersion: V, capabilities: {}, clientInfo: { name: "flood", version: "1" } };
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params });
  const init = await fetch(url, { method: "POST", headers, body });
  const session = init.headers.get("mcp-session-id")!;
  await init.text();
  await rpc(url, { jsonrpc: "2.0", method: "notifications/initialized" }, session).catch(() => undefined);
  return session;
}

/** Keys matching `pattern` (SCAN, not KEYS, as a deployment would). */
async function keys(pattern: string): Promise<string[]> {
  const found: string[] = [];
  for await (const batch of admin.scanIterator({ MATCH: pattern, COUNT: 1_000 })) found.push(...batch);
  return found;
}

describe("resources/subscribe flood on a shared Redis", () => {
  it("stores nothing for ghost URIs and at most maxSubscriptionsPerSession per session, deployment-wide", async () => {
    const [a, b] = cluster.instances as [InstanceProcess, InstanceProcess];
    const session = await openSession(a.url);
    const pad = "x".repeat(2_048);
    let id = 10;
    const subscribe = (at: InstanceProcess, uri: string) =>
      rpc(at.url, { jsonrpc: "2.0", id: id++, method: "resources/subscribe", params: { uri } }, session);
    const ghosts = await Promise.all(
      Array.from({ length: 40 }, (_, i) => subscribe(i % 2 ? b : a, `test://ghost/${i}-${pad}`)),
    );
    for (const [i, answer] of ghosts.entries())
      expect(answer["error"]).toMatchObject({ code: -32002, data: { uri: `test://ghost/${i}-${pad}` } });

    // Three times the cap, alternating between the instances, ten at a time.
    const answers: Array<Record<string, unknown>> = [];
    for (let start = 0; start < 3 * LIMIT; start += 10)
      answers.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, (_, k) => subscribe((start + k) % 2 ? b : a, `test://items/${start + k}-${pad}`)),
        )),
      );
    const accepted = answers.filter((answer) => "result" in answer);
    const refused = answers.filter((answer) => "error" in answer);
    expect(accepted).toHaveLength(LIMIT);
    expect(refused).toHaveLength(2 * LIMIT);
    for (const answer of refused) expect(answer["error"]).toMatchObject({ code: -31431, data: { limit: LIMIT } });
    expect(await admin.sCard(`mcp:{${session}}:subs`)).toBe(LIMIT);
    expect(await keys("mcp:sub:*")).toHaveLength(LIMIT);
    expect(await keys("*ghost*")).toEqual([]);

    // An instance's copy holds only what was acknowledged: after one unsubscribe (on b), a takes one more (it held
    // its refused URIs too, it would refuse it itself), and then the session is full again.
    const held = (await admin.sMembers(`mcp:{${session}}:subs`))[0]!;
    const left = await rpc(
      b.url,
      { jsonrpc: "2.0", id: id++, method: "resources/unsubscribe", params: { uri: held } },
      session,
    );
    expect(left["result"]).toEqual({});
    expect((await subscribe(a, `test://items/late-a-${pad}`))["result"]).toEqual({});
    expect((await subscribe(a, `test://items/later-a-${pad}`))["error"]).toMatchObject({ code: -31431 });
    expect((await subscribe(b, `test://items/later-b-${pad}`))["error"]).toMatchObject({ code: -31431 });
    expect(await keys("mcp:sub:*")).toHaveLength(LIMIT);

    // Deleting the session leaves no per-URI set behind (they would otherwise stay for the session TTL).
    const deleted = await fetch(b.url, { method: "DELETE", headers: { ...HEADERS, "mcp-session-id": session } });
    expect(deleted.status).toBe(200);
    expect(await keys(`mcp:{${session}}*`)).toEqual([]);
    expect(await keys("mcp:sub:*")).toEqual([]);
  }, 120_000);
});
