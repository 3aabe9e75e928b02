/**
 * Failures of a shared deployment (issue 24), on a real Redis and three real instances: an instance frozen and then
 * killed while holding a session's GET stream (the client resumes on another instance with Last-Event-ID and gets
 * every event once, in order), and Redis killed and restarted under traffic (503, never 404, nobody crashes; 2026-07-28
 * calls need no Redis; recovery once it is back).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createParser } from "eventsource-parser";
import { startCluster, type Cluster, type InstanceProcess } from "./cluster.ts";
import { waitFor } from "../runtime/http/helpers.ts";

let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster(3);
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
});

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
    for await (const chunk of response.body!) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
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
