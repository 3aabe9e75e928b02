/**
 * Routing between instances when the bus is not there (issue 24's known weaknesses), on a real Redis and three
 * instances: an answer to a server→client request POSTed to another instance while the waiting instance's pub/sub
 * connection is down still reaches the waiting tool (an inbox the waiting instance drains when it resubscribes).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "redis";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { startCluster, type Cluster } from "./cluster.ts";

let cluster: Cluster;
let admin: ReturnType<typeof createClient>;

beforeAll(async () => {
  cluster = await startCluster(3);
  admin = createClient({ url: cluster.redis.url });
  await admin.connect();
}, 120_000);
afterAll(async () => {
  await admin?.close();
  await cluster?.stop();
});

const textOf = (result: unknown) => (result as { content: Array<{ text: string }> }).content[0]!.text;

/** Closes every pub/sub connection to Redis every 5 ms for `ms`: no instance hears the bus meanwhile. */
async function bus_down(ms: number): Promise<number> {
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
      outage = bus_down(600);
      await new Promise((resolve) => setTimeout(resolve, 150)); // the answer goes out in the middle of the outage
      return { action: "accept", content: { name: "Ada" } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(cluster.proxy.url)));
    const before = cluster.proxy.landed.length;
    const answer = await client.callTool({ name: "ask", arguments: {} }, undefined, { timeout: 10_000 });
    expect(textOf(answer)).toMatch(/^i\d heard \{"name":"Ada"\}$/);
    expect(await outage).toBeGreaterThan(0);
    const posts = cluster.proxy.landed.slice(before).filter((l) => l.method === "POST");
    expect(posts[1]!.backend).not.toBe(posts[0]!.backend); // the answer landed elsewhere than the call
    await client.close();
  }, 30_000);
});
