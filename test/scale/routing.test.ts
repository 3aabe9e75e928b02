/**
 * Routing between instances when the bus is not there (issue 24's known weaknesses), on a real Redis and three
 * instances: an answer to a server→client request POSTed to another instance while the waiting instance's pub/sub
 * connection is down still reaches the waiting tool (an inbox the waiting instance drains when it resubscribes); a
 * 2025-03-26 batch POST's stream resumed on another instance carries every answer of the batch, not only the first.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "redis";
import { createParser } from "eventsource-parser";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { textOf, useCluster } from "./use-cluster.ts";

const cluster = useCluster();
let admin: ReturnType<typeof createClient>;

beforeAll(async () => {
  admin = createClient({ url: cluster.redis.url });
  await admin.connect();
});
afterAll(() => admin?.close());

/** Closes every pub/sub connection to Redis every 5 ms for `ms`: no instance hears the bus meanwhile. */
async function busDown(ms: number): Promise<number> {
  let killed = 0;
  const end = Date.now() + ms;
  while (Date.now() < end) {
    killed += Number(await admin.sendCommand(["CLIENT", "KILL", "TYPE", "pubsub"]));
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return killed;
}

describe("an answer POSTed while the waiting instance resubscribes", () => {
  it("reaches the tool waiting on another instance (SDK v1 client, 2025-11-25)", async () => {
    let outage: Promise<number> | undefined;
    const client = new Client({ name: "sdk-v1", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async () => {
      outage = busDown(600);
      await new Promise((resolve) => setTimeout(resolve, 150)); // the answer goes out in the middle of the outage
      return { action: "accept", content: { name: "Ada" } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(cluster.proxy.url)));
    const before = cluster.proxy.landed.length;
    const answer = await client.callTool({ name: "ask", arguments: {} }, undefined, { timeout: 60_000 });
    expect(textOf(answer)).toMatch(/^i\d heard \{"name":"Ada"\}$/);
    expect(await outage).toBeGreaterThan(0);
    const posts = cluster.proxy.landed.slice(before).filter((l) => l.method === "POST");
    expect(posts[1]!.backend).not.toBe(posts[0]!.backend); // the answer landed elsewhere than the call
    await client.close();
  }, 90_000);
});

/** A JSON-RPC message POSTed (or GET with `lastEventId`) to the proxy; SSE read to its end or until `stop` says. */
async function sse(
  init: RequestInit,
  stop: (events: Array<{ id: string; data: Record<string, unknown> }>) => boolean = () => false,
): Promise<Array<{ id: string; data: Record<string, unknown> }>> {
  const events: Array<{ id: string; data: Record<string, unknown> }> = [];
  const controller = new AbortController();
  const response = await fetch(cluster.proxy.url, { ...init, signal: controller.signal });
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const parser = createParser({
    onEvent: (e) =>
      void (e.data && events.push({ id: e.id ?? "", data: JSON.parse(e.data) as Record<string, unknown> })),
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    parser.feed(decoder.decode(read.value, { stream: true }));
    if (stop(events)) {
      controller.abort();
      break;
    }
  }
  return events;
}

describe("a batch POST's stream resumed on another instance", () => {
  it("carries every answer of the batch, once (2025-03-26)", async () => {
    const V = "2025-03-26";
    const base = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    const params = { protocolVersion: V, capabilities: {}, clientInfo: { name: "raw", version: "1" } };
    const init = await fetch(cluster.proxy.url, {
      method: "POST",
      headers: base,
      body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params }),
    });
    const session = init.headers.get("mcp-session-id")!;
    await init.text();
    const headers = { ...base, "mcp-session-id": session, "mcp-protocol-version": V };
    const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
    await (await fetch(cluster.proxy.url, { method: "POST", headers, body: JSON.stringify(initialized) })).text();
    const call = (id: number, ms: number) => ({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "pause", arguments: { ms }, _meta: { progressToken: `p${id}` } },
    });
    const before = cluster.proxy.landed.length;
    const first = await sse(
      { method: "POST", headers, body: JSON.stringify([call(1, 300), call(2, 900)]) },
      (events) => events.length > 0,
    );
    expect(first[0]!.data["method"]).toBe("notifications/progress"); // cut before any answer
    const resumed = await sse({ method: "GET", headers: { ...headers, "last-event-id": first[0]!.id } });
    const landed = cluster.proxy.landed.slice(before).map((l) => l.backend);
    expect(landed.at(-1)).not.toBe(landed.at(-2)); // resumed elsewhere than the POST went
    const answers = resumed.filter((e) => "result" in e.data).map((e) => e.data["id"]);
    expect(answers.sort()).toEqual([1, 2]);
    expect(resumed.every((e) => !("mcp-gen/end" in e.data))).toBe(true);
  }, 30_000);
});
