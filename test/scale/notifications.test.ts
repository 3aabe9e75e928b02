/**
 * Notifications, cancellation and progress across three instances on a real Redis (issue 24), and the official SDK
 * v2 client and our McpClient, unmodified, against the same deployment. The round-robin proxy sends each HTTP
 * request to the next instance, so consecutive requests of one client never land on the same one.
 */
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { builtinRevisions, McpClient } from "../../runtime/index.ts";
import { StreamableHttpClientTransport } from "../../runtime/http/index.ts";
import { textOf, useCluster } from "./use-cluster.ts";
import { waitFor } from "../runtime/http/helpers.ts";

const cluster = useCluster();

function ours(version: string): McpClient {
  return new McpClient({
    info: { name: "ours", version: "1.0.0" },
    revisions: builtinRevisions.filter((r) => r.version === version),
    handlers: { elicitation: async () => ({ action: "accept", content: { name: "Grace" } }) },
  });
}

describe("2026-07-28: subscriptions/listen on one instance, the change raised on another", () => {
  it("our client's listen stream receives tools/list_changed raised by add_tool elsewhere", async () => {
    const client = ours("2026-07-28");
    await client.connect(new StreamableHttpClientTransport(cluster.proxy.url));
    const changed: unknown[] = [];
    client.on("notifications/tools/list_changed", (p) => void changed.push(p));
    const before = cluster.proxy.landed.length;
    const subscription = await client.listen({ toolsListChanged: true });
    const listenedOn = cluster.proxy.landed[before]!.backend;
    const added = textOf(await client.callTool("add_tool", { name: "late_2026" }));
    expect(added).toMatch(/^added late_2026 on i\d$/);
    expect(added.endsWith(listenedOn)).toBe(false);
    await waitFor(() => changed.length === 1, 5_000);
    subscription.close();
    await client.close();
  });
});

describe("2025-11-25 with the SDK v1 client: GET stream, subscriptions, log level, progress, cancellation", () => {
  it("gets resources/updated and tools/list_changed raised on other instances, and logs at the level set elsewhere", async () => {
    const client = new Client({ name: "sdk-v1", version: "1.0.0" });
    const updated: string[] = [];
    const changed: unknown[] = [];
    const logs: unknown[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
    client.setNotificationHandler(ToolListChangedNotificationSchema, (n) => void changed.push(n));
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
    await client.connect(new StreamableHTTPClientTransport(new URL(cluster.proxy.url)));
    await waitFor(() => cluster.proxy.landed.some((l) => l.method === "GET"), 5_000);
    await client.subscribeResource({ uri: "test://doc" });
    expect(textOf(await client.callTool({ name: "touch", arguments: {} }))).toBe("touched");
    await waitFor(() => updated.length === 1, 5_000);
    expect(updated).toEqual(["test://doc"]);
    await client.callTool({ name: "add_tool", arguments: { name: "late_v1" } });
    await waitFor(() => changed.length >= 1, 5_000);
    // The level set on one instance holds on every instance: nothing below "error", then everything from "info".
    await client.setLoggingLevel("error");
    for (let i = 0; i < 3; i++) await client.callTool({ name: "log", arguments: {} });
    expect(logs).toEqual([]);
    await client.setLoggingLevel("info");
    for (let i = 0; i < 3; i++) await client.callTool({ name: "log", arguments: {} });
    expect(new Set(logs)).toEqual(new Set(["hello from i0", "hello from i1", "hello from i2"]));
    await client.unsubscribeResource({ uri: "test://doc" });
    await client.callTool({ name: "touch", arguments: {} });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(updated).toEqual(["test://doc"]);
    await client.close();
  });

  it("reports progress, and a cancellation POSTed to another instance stops the tool where it runs", async () => {
    const client = new Client({ name: "sdk-v1", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(cluster.proxy.url)));
    const controller = new AbortController();
    const progress: number[] = [];
    const before = cluster.proxy.landed.length;
    const call = client.callTool({ name: "slow", arguments: {} }, undefined, {
      signal: controller.signal,
      onprogress: (p) => {
        progress.push(p.progress);
        if (progress.length === 3) controller.abort("enough");
      },
    });
    await expect(call).rejects.toThrow();
    await waitFor(() => cluster.proxy.landed.slice(before).filter((l) => l.method === "POST").length >= 2);
    const posts = cluster.proxy.landed.slice(before).filter((l) => l.method === "POST");
    const ranOn = cluster.instances.find((i) => i.id === posts[0]!.backend)!;
    expect(posts[1]!.backend).not.toBe(ranOn.id); // the cancellation went elsewhere
    await waitFor(() => ranOn.stderr.includes(`scale-cancelled ${ranOn.id}`), 5_000);
    expect(progress.slice(0, 3)).toEqual([1, 2, 3]);
    await client.close();
  });
});

describe("the SDK v2 client and our McpClient against three instances", () => {
  it("SDK v2 on the 2025 wire: lists, calls on every instance", async () => {
    const client = new ClientV2({ name: "v2", version: "1.0.0" }, { versionNegotiation: { mode: "legacy" } });
    await client.connect(new TransportV2(new URL(cluster.proxy.url)));
    expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) seen.add(textOf(await client.callTool({ name: "whoami", arguments: {} })));
    expect(seen).toEqual(new Set(["i0", "i1", "i2"]));
    await client.close();
  });

  it("SDK v2 on the 2026-07-28 wire: calls on every instance", async () => {
    const client = new ClientV2({ name: "v2", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } });
    await client.connect(new TransportV2(new URL(cluster.proxy.url)));
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) seen.add(textOf(await client.callTool({ name: "whoami", arguments: {} })));
    expect(seen).toEqual(new Set(["i0", "i1", "i2"]));
    await client.close();
  });

  it("our McpClient, 2025-11-25: calls everywhere and answers an elicitation on another instance", async () => {
    const client = ours("2025-11-25");
    await client.connect(new StreamableHttpClientTransport(cluster.proxy.url));
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) seen.add(textOf(await client.callTool("whoami", {})));
    expect(seen).toEqual(new Set(["i0", "i1", "i2"]));
    expect(textOf(await client.callTool("ask", {}))).toMatch(/^i\d heard \{"name":"Grace"\}$/);
    await client.close();
  });

  it("our McpClient, 2026-07-28: an elicitation is a multi round-trip request whose retry lands elsewhere", async () => {
    const client = ours("2026-07-28");
    await client.connect(new StreamableHttpClientTransport(cluster.proxy.url));
    expect(textOf(await client.callTool("ask", {}))).toMatch(/^i\d heard \{"name":"Grace"\}$/);
    await client.close();
  });
});
