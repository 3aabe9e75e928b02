/**
 * A 2025-11-25 session on three instances behind a round-robin proxy, state on a real Redis (issue 24): every
 * request lands on the next instance, and the official SDK v1 client, unmodified, sees one server.
 */
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { textOf, useCluster } from "./use-cluster.ts";

const cluster = useCluster();

function sdkV1Client(): Client {
  const client = new Client({ name: "sdk-v1", version: "1.0.0" }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Ada" } }));
  return client;
}

describe("SDK v1 client, one session, three instances", () => {
  it("lists and calls on every instance in turn, never 404", async () => {
    const client = sdkV1Client();
    await client.connect(new StreamableHTTPClientTransport(new URL(cluster.proxy.url)));
    const start = cluster.proxy.landed.length;
    const seen = new Set<string>();
    for (let i = 0; i < 9; i++) {
      const tools = await client.listTools();
      expect(tools.tools.map((t) => t.name)).toContain("whoami");
      seen.add(textOf(await client.callTool({ name: "whoami", arguments: {} })));
    }
    expect(seen).toEqual(new Set(["i0", "i1", "i2"]));
    const backends = new Set(cluster.proxy.landed.slice(start).map((l) => l.backend));
    expect(backends.size).toBe(3);
    await client.close();
  });

  it("answers an elicitation whose answer POST lands on another instance", async () => {
    const client = sdkV1Client();
    await client.connect(new StreamableHTTPClientTransport(new URL(cluster.proxy.url)));
    for (let i = 0; i < 3; i++) {
      const before = cluster.proxy.landed.length;
      const answer = textOf(await client.callTool({ name: "ask", arguments: {} }));
      expect(answer).toMatch(/^i\d heard \{"name":"Ada"\}$/);
      const landed = cluster.proxy.landed.slice(before).filter((l) => l.method === "POST");
      // the call and the answer went to two different instances
      expect(landed.length).toBeGreaterThanOrEqual(2);
      expect(landed[0]!.backend).not.toBe(landed[1]!.backend);
    }
    await client.close();
  });
});
