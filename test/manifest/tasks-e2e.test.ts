/**
 * The Tasks extension end to end, generated on both sides (examples/tasks: manifest `task`, generated server and
 * typed client), with the server a real process, over stdio and over Streamable HTTP: a long tool call started as a
 * task and polled, its elicitation answered by the client's handler through tasks/update, a typed result; a second
 * task cancelled; a third expiring after its TTL; `notifications/tasks` followed on subscriptions/listen; a tool
 * that requires tasks refused (-32021) to a client that does not declare the extension, and an optional one answered
 * at once.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { builtinRevisions, McpClient, RpcError, type Transport } from "../../runtime/index.ts";
import { StreamableHttpClientTransport } from "../../runtime/http/index.ts";
import { StdioClientTransport } from "../../runtime/node.ts";
import {
  tasksClient,
  TaskCancelledError,
  TaskExpiredError,
  TASKS_EXTENSION_ID,
  type DetailedTask,
  type TaskOptions,
} from "../../runtime/tasks/index.ts";
import { createClient } from "../../examples/tasks/generated/index.ts";
import { nodeArgs } from "../fixture-run.ts";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SERVER = path.join(REPO, "examples/tasks/server.ts");
const ARGS = nodeArgs(SERVER);
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) child.kill();
});

/** The example server over stdio, or over HTTP (a child process printing its URL). */
async function transport(kind: "stdio" | "http", env: Record<string, string> = {}): Promise<Transport> {
  if (kind === "stdio")
    return new StdioClientTransport({
      command: process.execPath,
      args: ARGS,
      cwd: REPO,
      env: { ...env },
      stderr: "ignore",
    });
  const child = spawn(process.execPath, [...ARGS, "--http"], { cwd: REPO, env: { ...process.env, ...env } });
  children.push(child);
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once("exit", (code) => reject(new Error(`server exited ${code}`)));
  });
  return new StreamableHttpClientTransport(url);
}

async function connect(
  kind: "stdio" | "http",
  options: { declare?: boolean; env?: Record<string, string>; tasks?: TaskOptions } = {},
) {
  const asked: string[] = [];
  const raw = new McpClient({
    info: { name: "tasks-e2e", version: "1" },
    revisions: builtinRevisions,
    // tsx compiles the server as it starts: give the stdio probe time rather than fall back to the handshake era.
    probeTimeoutMs: 60_000,
    ...(options.declare === false ? {} : { extensions: [tasksClient(options.tasks)] }),
    handlers: {
      elicitation: (params) => {
        asked.push(params.message);
        return { action: "accept", content: { name: "Ada" } };
      },
    },
  });
  await raw.connect(await transport(kind, options.env));
  return { raw, client: createClient(raw), asked };
}

describe.each(["stdio", "http"] as const)("tasks over %s", (kind) => {
  it("a long call runs as a task: polled, its elicitation answered via tasks/update, a typed result", async () => {
    const { raw, client, asked } = await connect(kind);
    expect(raw.revision).toBe("2026-07-28");
    const handle = await client.tasks.buildReport({ days: 10, stepMs: 20 });
    expect(handle.taskId).toEqual(expect.any(String));
    const states: DetailedTask["status"][] = [];
    handle.onChange((s) => states.push(s.status));
    const { structuredContent } = await handle.result();
    expect(structuredContent).toEqual({ days: 10, rows: 240, confirmedBy: "Ada" });
    expect(asked).toEqual(["Build a report over 10 days?"]);
    expect(states).toContain("input_required");
    expect(states.at(-1)).toBe("completed");
    await raw.close();
  });

  it("the direct call drives the task to the same typed result", async () => {
    const { raw, client } = await connect(kind);
    expect((await client.tools.buildReport({ days: 2 })).structuredContent).toEqual({ days: 2, rows: 48 });
    await raw.close();
  });

  it("the direct call that runs as a task reports the task's status messages to onProgress", async () => {
    // The server has no notifications/progress for a task: its handler's progress becomes the status message.
    const { raw, client } = await connect(kind);
    const updates: { progress: number; message?: string }[] = [];
    const result = await client.tools.buildReport({ days: 4, stepMs: 150 }, { onProgress: (u) => updates.push(u) });
    expect(result.structuredContent).toEqual({ days: 4, rows: 96 });
    // Polled every 50 ms against 150 ms steps: on a loaded machine some steps may fall between polls, none repeats.
    expect(updates.length).toBeGreaterThan(0);
    expect(updates.map((u) => u.progress)).toEqual(updates.map((_, i) => i + 1));
    const days = updates.map((u) => Number(/^day (\d) of 4$/.exec(u.message ?? "")?.[1]));
    expect(days.every((day, i) => day >= 1 && day <= 4 && (i === 0 || day > days[i - 1]!))).toBe(true);
    await raw.close();
  });

  it("a second task is cancelled", async () => {
    const { raw, client } = await connect(kind);
    const handle = await client.tasks.runBatch({ items: 1000, stepMs: 20 });
    const cancelled = expect(handle.result()).rejects.toBeInstanceOf(TaskCancelledError);
    await handle.cancel();
    await cancelled;
    await expect.poll(() => handle.status(), { timeout: 30_000 }).toBe("cancelled");
    await raw.close();
  });

  it("notifications/tasks followed on subscriptions/listen: the states arrive without polling", async () => {
    // Polling is held to one read a minute: a result within seconds came by notification.
    const tasks = { notifications: true, minPollIntervalMs: 60_000 };
    const { raw, client } = await connect(kind, { tasks });
    const started = Date.now();
    const handle = await client.tasks.runBatch({ items: 10, stepMs: 30 });
    const states: DetailedTask["status"][] = [];
    handle.onChange((s) => states.push(s.status));
    expect((await handle.result()).isError).not.toBe(true);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(states.at(-1)).toBe("completed");
    await raw.close();
  });

  it("a third expires after its TTL", async () => {
    const { raw, client } = await connect(kind, { env: { TASK_TTL_MS: "300" } });
    const handle = await client.tasks.runBatch({ items: 1000, stepMs: 20 });
    const error = await handle.result().catch((e: unknown) => e);
    // The server ends a task still running at its TTL `failed`, then forgets it: either is the expiry.
    expect(error).toBeInstanceOf(RpcError);
    await new Promise((r) => setTimeout(r, 400));
    await expect(handle.status()).rejects.toBeInstanceOf(TaskExpiredError);
    await raw.close();
  });

  it("without the extension: a required tool gets -32021, an optional one answers at once", async () => {
    const { raw, client } = await connect(kind, { declare: false });
    // Listed all the same (docs/tasks.md: the call's -32021 tells the client what to declare).
    expect((await raw.listTools()).tools.map((t) => t.name)).toContain("run_batch");
    const error = await client.tools.runBatch({ items: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect((error as RpcError).code).toBe(-32021);
    expect((error as RpcError).data).toEqual({ requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } } });
    expect((await client.tools.buildReport({ days: 1 })).structuredContent).toEqual({ days: 1, rows: 24 });
    await raw.close();
  });
});
