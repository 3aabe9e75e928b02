/**
 * Failures of a shared deployment (issue 24), on a real Redis and three real instances: an instance frozen and then
 * killed while holding a session's GET stream (the client resumes on another instance with Last-Event-ID and gets
 * every event once, in order), and Redis killed and restarted under traffic (503, never 404, nobody crashes; 2026-07-28
 * calls need no Redis; recovery once it is back).
 */
import { describe, expect, it } from "vitest";
import { createParser } from "eventsource-parser";
import type { InstanceProcess } from "./cluster.ts";
import { useCluster } from "./use-cluster.ts";
import { waitFor } from "../runtime/http/helpers.ts";
import { builtinRevisions, McpClient } from "../../runtime/index.ts";
import { StreamableHttpClientTransport } from "../../runtime/http/index.ts";

const cluster = useCluster();

const V = "2025-11-25";
const JSON_ACCEPT = { "content-type": "application/json", accept: "application/json, text/event-stream" };

async function rpc(url: string, body: object, session?: string): Promise<Response> {
  const headers: Record<string, string> = { ...JSON_ACCEPT, "mcp-protocol-version": V };
  if (session) headers["mcp-session-id"] = session;
  return fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
}

async function openSession(url: string): Promise<string> {
  const params = { protocolVersion: V, capabilities: {}, clientInfo: { name: "raw", version: "1" } };
  const init = await rpc(url, { jsonrpc: "2.0", id: 1, method: "initialize", params });
  expect(init.status).toBe(200);
  const session = init.headers.get("mcp-session-id")!;
  await init.text();
  expect((await rpc(url, { jsonrpc: "2.0", method: "notifications/initialized" }, session)).status).toBe(202);
  return session;
}

let nextId = 100;
async function addTool(instance: InstanceProcess, session: string, name: string): Promise<void> {
  const call = {
    jsonrpc: "2.0",
    id: nextId++,
    method: "tools/call",
    params: { name: "add_tool", arguments: { name } },
  };
  const answer = await rpc(instance.url, call, session);
  expect(answer.status).toBe(200);
  expect(await answer.text()).toContain(`added ${name}`);
}

interface Received {
  readonly id: string;
  readonly data: string;
}

/** A GET stream read as SSE events (priming events, with empty data, are left out). */
function openGet(url: string, session: string, lastEventId?: string) {
  const events: Received[] = [];
  const controller = new AbortController();
  const headers: Record<string, string> = {
    accept: "text/event-stream",
    "mcp-session-id": session,
    "mcp-protocol-version": V,
  };
  if (lastEventId) headers["last-event-id"] = lastEventId;
  let opened!: () => void;
  const open = new Promise<void>((resolve) => (opened = resolve));
  const done = fetch(url, { headers, signal: controller.signal }).then(async (response) => {
    expect(response.status).toBe(200);
    opened();
    const parser = createParser({ onEvent: (e) => void (e.data && events.push({ id: e.id ?? "", data: e.data })) });
    const decoder = new TextDecoder();
    const reader = response.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read())
      parser.feed(decoder.decode(read.value, { stream: true }));
  });
  return { events, open, done: done.catch(() => undefined), close: () => controller.abort() };
}

describe("an instance dies holding a GET stream", () => {
  it("the client resumes on another instance with Last-Event-ID: every event once, in order", async () => {
    const [a, b, c] = cluster.instances as [InstanceProcess, InstanceProcess, InstanceProcess];
    const session = await openSession(cluster.proxy.url);
    const first = openGet(a.url, session);
    await first.open;
    for (let i = 0; i < 5; i++) await addTool(b, session, `before_${i}`);
    await waitFor(() => first.events.length === 5, 5_000);
    // A freezes: what B raises now is stored but A never writes it to the socket. Then A dies.
    process.kill(a.pid!, "SIGSTOP");
    for (let i = 0; i < 5; i++) await addTool(b, session, `frozen_${i}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(first.events.length).toBe(5);
    await a.kill("SIGKILL");
    await first.done;
    const resumed = openGet(c.url, session, first.events.at(-1)!.id);
    await resumed.open;
    await waitFor(() => resumed.events.length === 5, 5_000);
    for (let i = 0; i < 2; i++) await addTool(b, session, `after_${i}`);
    await waitFor(() => resumed.events.length === 7, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // a poll round: nothing more may come
    resumed.close();
    const all = [...first.events, ...resumed.events];
    expect(all).toHaveLength(12);
    expect(all.every((e) => JSON.parse(e.data).method === "notifications/tools/list_changed")).toBe(true);
    const ids = all.map((e) => e.id);
    expect(new Set(ids).size).toBe(12);
    const order = ids.map(
      (id) =>
        id
          .slice(id.indexOf(".") + 1)
          .split("-")
          .map(Number) as [number, number],
    );
    for (let i = 1; i < order.length; i++) {
      const [ms, seq] = order[i]!;
      const [pms, pseq] = order[i - 1]!;
      expect(ms > pms || (ms === pms && seq > pseq)).toBe(true);
    }
    // A resume naming another session's stream replays nothing.
    const other = await openSession(cluster.proxy.url);
    const foreign = await fetch(c.url, {
      headers: {
        accept: "text/event-stream",
        "mcp-session-id": other,
        "mcp-protocol-version": V,
        "last-event-id": ids[0]!,
      },
    });
    expect(foreign.status).toBe(400);
    await foreign.body?.cancel();
  }, 60_000);
});

async function initializeWorks(url: string): Promise<string | undefined> {
  try {
    return await openSession(url);
  } catch {
    return undefined;
  }
}

describe("Redis killed and restarted under traffic", () => {
  it("session requests get 503 (never 404) at once, 2026-07-28 calls go on, and everything recovers", async () => {
    const live = cluster.instances.filter((i) => i.alive);
    expect(live.length).toBeGreaterThanOrEqual(2);
    const session = await openSession(cluster.proxy.url);
    await cluster.redis.kill();
    for (const instance of live) {
      const started = Date.now();
      const answer = await rpc(instance.url, { jsonrpc: "2.0", id: nextId++, method: "tools/list" }, session);
      expect(Date.now() - started).toBeLessThan(1_500);
      expect(answer.status).toBe(503);
      expect(answer.headers.get("retry-after")).toBe("1");
      const body = (await answer.json()) as { error: { code: number; message: string } };
      expect(body.error.code).toBe(-32603);
      expect(body.error.message).toContain("state store unavailable");
      const init = await rpc(instance.url, {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: V, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      });
      expect(init.status).toBe(503);
      expect(init.headers.get("mcp-session-id")).toBeNull();
      await init.text();
    }
    // The stateless era needs no Redis for a call.
    const client = new McpClient({
      info: { name: "ours", version: "1.0.0" },
      revisions: builtinRevisions.filter((r) => r.version === "2026-07-28"),
    });
    await client.connect(new StreamableHttpClientTransport(cluster.proxy.url));
    const seen = new Set<string>();
    for (let i = 0; i < live.length; i++) {
      const result = (await client.callTool("whoami", {})) as { content: Array<{ text: string }> };
      seen.add(result.content[0]!.text);
    }
    expect(seen.size).toBe(live.length);
    await client.close();

    await cluster.redis.start(); // no persistence: it comes back empty
    const recovered = Date.now();
    const sessions: string[] = [];
    for (const instance of live) {
      let opened: string | undefined;
      while (!(opened = await initializeWorks(instance.url)) && Date.now() - recovered < 10_000)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(opened).toBeDefined();
      sessions.push(opened!);
    }
    expect(Date.now() - recovered).toBeLessThan(10_000);
    // The old session is gone with Redis's data: now (and only now) 404, so the client re-initializes.
    const gone = await rpc(live[0]!.url, { jsonrpc: "2.0", id: nextId++, method: "tools/list" }, session);
    expect(gone.status).toBe(404);
    await gone.text();
    // The bus works again: a list change raised on one instance reaches a GET stream held by another.
    const [holder, raiser] = live as [InstanceProcess, InstanceProcess];
    const stream = openGet(holder.url, sessions[0]!);
    await stream.open;
    await addTool(raiser, sessions[0]!, "after_restart");
    await waitFor(() => stream.events.length === 1, 5_000);
    stream.close();
    expect(live.every((i) => i.alive)).toBe(true);
  }, 60_000);
});
