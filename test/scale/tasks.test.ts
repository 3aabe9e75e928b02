/**
 * Tasks (the Tasks extension, 2026-07-28) across three instances on a real Redis (issue 24): each request goes to the
 * next instance through the round-robin proxy, so a task is created on one, read on a second, cancelled on a third.
 * The server side is checked with hand-written JSON-RPC over real HTTP (wire-peer: the official SDKs do not speak
 * the Tasks extension), then our McpClient follows and resumes tasks through the same deployment.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { builtinRevisions, McpClient } from "../../runtime/index.ts";
import { StreamableHttpClientTransport } from "../../runtime/http/index.ts";
import { callToolAsTask, resumeTask, tasksClient } from "../../runtime/tasks/index.ts";
import { methods } from "../../runtime/generated/protocol/2026-07-28/index.ts";
import { httpPeerAt, type Peer } from "../runtime/server/tasks/wire-peer.ts";
import { textOf, useCluster } from "./use-cluster.ts";

const cluster = useCluster();
let peer: Peer;

beforeAll(() => {
  peer = httpPeerAt(cluster.proxy.url);
});

type Json = Record<string, unknown>;

/** Sends one request and returns its reply with the instance the proxy sent it to. */
async function landed(method: string, params: Json): Promise<{ result: Json; error?: unknown; backend: string }> {
  const before = cluster.proxy.landed.length;
  const reply = await peer.request(method, params);
  const backend = cluster.proxy.landed[before]!.backend;
  return { result: reply.result ?? {}, error: reply.error, backend };
}

const taskOf = (result: Json) => (result["task"] ?? result) as Json;

/** Resolves once `condition` holds (checked every 50 ms), or fails after `ms`. */
async function until(condition: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const start = Date.now();
  while (!(await condition())) {
    if (Date.now() - start > ms) throw new Error(`condition not reached in ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Pings until the proxy's next request goes to instance `id` (round robin over the three, all alive). */
async function nextGoesTo(id: string): Promise<void> {
  while (cluster.instances[cluster.proxy.landed.length % cluster.instances.length]!.id !== id)
    await peer.request("ping", {});
}

describe("one task, three instances (hand-written JSON-RPC)", () => {
  it("created on one, tasks/get right after on a second, cancelled on a third: the handler stops where it runs", async () => {
    const created = await landed("tools/call", { name: "task_wait", arguments: {} });
    const taskId = taskOf(created.result)["taskId"] as string;
    expect(taskId).toEqual(expect.any(String));
    const got = await landed("tasks/get", { taskId });
    expect(got.error).toBeUndefined();
    expect(got.backend).not.toBe(created.backend);
    expect(taskOf(got.result)).toMatchObject({ taskId, status: "working" });
    // the handler runs on the creating instance; its progress becomes the status message any instance reports
    await until(async () => {
      const now = await peer.request("tasks/get", { taskId });
      return taskOf(now.result!)["statusMessage"] === `started on ${created.backend}`;
    });
    const third = cluster.instances.find((i) => i.id !== created.backend && i.id !== got.backend)!.id;
    await nextGoesTo(third);
    const cancelled = await landed("tasks/cancel", { taskId });
    expect(cancelled.backend).toBe(third);
    expect(cancelled.error).toBeUndefined();
    const runner = cluster.instances.find((i) => i.id === created.backend)!;
    await until(() => runner.stderr.includes(`scale-task-cancelled ${created.backend}`));
    for (let i = 0; i < 3; i++)
      expect(taskOf((await landed("tasks/get", { taskId })).result)["status"]).toBe("cancelled");
  }, 30_000);

  it("a handler running on one instance while the client polls the others until its result arrives", async () => {
    const created = await landed("tools/call", { name: "task_work", arguments: { ms: 1_500 } });
    const taskId = taskOf(created.result)["taskId"] as string;
    const polledOn = new Set<string>();
    let final: Json = {};
    for (let polls = 0; polls < 200; polls++) {
      const got = await landed("tasks/get", { taskId });
      polledOn.add(got.backend);
      final = taskOf(got.result);
      if (final["status"] !== "working") break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(final["status"]).toBe("completed");
    expect(textOf(final["result"])).toBe(`done on ${created.backend}`);
    expect(polledOn).toEqual(new Set(["i0", "i1", "i2"]));
  }, 30_000);

  it("an input request answered by tasks/update on another instance reaches the handler", async () => {
    const created = await landed("tools/call", { name: "task_ask", arguments: {} });
    const taskId = taskOf(created.result)["taskId"] as string;
    let asking: Json = {};
    await until(async () => {
      asking = taskOf((await peer.request("tasks/get", { taskId })).result!);
      return asking["status"] === "input_required";
    });
    const [key] = Object.keys(asking["inputRequests"] as Json);
    await nextGoesTo(cluster.instances.find((i) => i.id !== created.backend)!.id);
    const updated = await landed("tasks/update", {
      taskId,
      inputResponses: { [key!]: { action: "accept", content: { name: "Lin" } } },
    });
    expect(updated.error).toBeUndefined();
    expect(updated.backend).not.toBe(created.backend);
    let done: Json = {};
    await until(async () => {
      done = taskOf((await peer.request("tasks/get", { taskId })).result!);
      return done["status"] === "completed";
    });
    expect(textOf(done["result"])).toBe(`${created.backend} heard {"name":"Lin"}`);
  }, 30_000);

  it("notifications/tasks reach a listen stream held by another instance than the one changing the task", async () => {
    const created = await landed("tools/call", { name: "task_wait", arguments: {} });
    const taskId = taskOf(created.result)["taskId"] as string;
    const before = cluster.proxy.landed.length;
    const stream = peer.listen({ taskIds: [taskId] });
    await stream.next((m) => m["method"] === "notifications/subscriptions/acknowledged");
    const listenedOn = cluster.proxy.landed[before]!.backend;
    await nextGoesTo(cluster.instances.find((i) => i.id !== listenedOn && i.id !== created.backend)!.id);
    const cancel = await landed("tasks/cancel", { taskId });
    expect(cancel.backend).not.toBe(listenedOn);
    const note = await stream.next(
      (m) => m["method"] === "notifications/tasks" && (m["params"] as Json)["status"] === "cancelled",
    );
    expect((note["params"] as Json)["taskId"]).toBe(taskId);
    stream.close();
  }, 30_000);
});

describe("our McpClient through the three instances", () => {
  function client(): McpClient {
    return new McpClient({
      info: { name: "ours", version: "1" },
      revisions: builtinRevisions.filter((r) => r.version === "2026-07-28"),
      extensions: [tasksClient()],
      handlers: { elicitation: () => ({ action: "accept", content: { name: "Kay" } }) },
    });
  }

  it("callToolAsTask follows a task to its result and answers its input; cancel ends one cancelled", async () => {
    const ours = client();
    await ours.connect(new StreamableHttpClientTransport(cluster.proxy.url));
    const asked = await callToolAsTask(ours, "task_ask", {});
    expect(textOf(await asked.result())).toMatch(/^i\d heard \{"name":"Kay"\}$/);
    const waiting = await callToolAsTask(ours, "task_wait", {});
    expect(await waiting.status()).toBe("working");
    await waiting.cancel();
    expect(await waiting.status()).toBe("cancelled");
    await ours.close();
  }, 30_000);

  it("resumeTask: a second client picks up a task by its id and gets its result", async () => {
    const first = client();
    await first.connect(new StreamableHttpClientTransport(cluster.proxy.url));
    const handle = await callToolAsTask(first, "task_work", { ms: 1_000 });
    const taskId = handle.taskId!;
    await first.close();
    const second = client();
    await second.connect(new StreamableHttpClientTransport(cluster.proxy.url));
    const resumed = await resumeTask(second, methods["tools/call"], taskId);
    expect(textOf(await resumed.result())).toMatch(/^done on i\d$/);
    await second.close();
  }, 30_000);
});
