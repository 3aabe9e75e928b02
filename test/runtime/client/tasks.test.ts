/**
 * The client's Tasks driver (runtime/tasks/client/tasks.ts) against a scripted 2026-07-28 server (fixtures/tasks-peer.ts):
 * opting in, the transparent direct call, task handles (polling at the server's interval, input requests answered
 * once each through the client's own handlers via tasks/update, cancel and the abort signal, resume), the error
 * model of tasks that do not complete, and the answers a client must refuse.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  InvalidMessageError,
  ProtocolUsageError,
  RequestCancelledError,
  RpcError,
  type CallToolResult,
} from "../../../runtime/index.ts";
import {
  callToolAsTask,
  requestTask,
  resumeTask,
  TaskCancelledError,
  TaskExpiredError,
  TaskFailedError,
} from "../../../runtime/tasks/index.ts";
import { methods } from "../../../runtime/generated/protocol/2026-07-28/index.ts";
import type { CompleteResultOf } from "../../../runtime/protocol/method-type.ts";
import { clientFor, sent, task, TASKS } from "./fixtures/tasks-peer.ts";

const done: CallToolResult = { content: [{ type: "text", text: "done" }] };

describe("opting in", () => {
  it("declares the extension on every request, tasks/* included", async () => {
    const { client, peer } = await clientFor({
      call: () => ({ resultType: "task", ...task("t1", "working") }),
      get: (id) => task(id, "completed", { result: done }),
    });
    await client.callTool("slow", {});
    for (const r of peer.received.filter((r) => r.method !== "server/discover")) {
      const caps = (r.params["_meta"] as Record<string, { extensions?: object }>)[
        "io.modelcontextprotocol/clientCapabilities"
      ];
      expect(caps?.extensions, r.method).toEqual({ [TASKS]: {} });
    }
    expect(sent(peer, "tasks/get")[0]!.params["taskId"]).toBe("t1");
  });

  it("refuses the task form when the client did not declare the extension", async () => {
    const { client, peer } = await clientFor({ call: () => done }, { declare: false });
    await expect(callToolAsTask(client, "slow", {})).rejects.toThrow(ProtocolUsageError);
    expect(sent(peer, "tools/call")).toHaveLength(0);
  });
});

describe("the direct call", () => {
  it("follows a created task to its result, polling at the server's interval", async () => {
    const { client, peer } = await clientFor({
      call: () => ({ resultType: "task", ...task("t1", "working", { pollIntervalMs: 40 }) }),
      get: (id, n) => (n < 3 ? task(id, "working", { pollIntervalMs: 40 }) : task(id, "completed", { result: done })),
    });
    const result = await client.callTool("slow", {});
    expect(result).toEqual({ ...done, resultType: "complete" });
    const times = [sent(peer, "tools/call")[0]!.at, ...sent(peer, "tasks/get").map((r) => r.at)];
    expect(times).toHaveLength(4);
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(35);
  });

  it("validates the completed task's result as the request's own result", async () => {
    const { client } = await clientFor({
      call: () => ({ resultType: "task", ...task("t1", "working") }),
      get: (id) => task(id, "completed", { result: { content: "not an array" } }),
    });
    await expect(client.callTool("slow", {})).rejects.toThrow(InvalidMessageError);
  });

  it("a failed task throws the JSON-RPC error it carries", async () => {
    const { client } = await clientFor({
      call: () => ({ resultType: "task", ...task("t1", "working") }),
      get: (id) =>
        task(id, "failed", {
          error: { code: -32603, message: "rate limited", data: { retry: 5 } },
          statusMessage: "x",
        }),
    });
    const error = await client.callTool("slow", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskFailedError);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: -32603, message: "rate limited", data: { retry: 5 }, taskId: "t1" });
  });

  it("a tool error is a completed task whose result says isError", async () => {
    const failed = { content: [{ type: "text", text: "no" }], isError: true };
    const { client } = await clientFor({
      call: () => ({ resultType: "task", ...task("t1", "working") }),
      get: (id) => task(id, "completed", { result: failed }),
    });
    expect(await client.callTool("slow", {})).toMatchObject(failed);
  });

  it("a task the server cancels rejects with TaskCancelledError", async () => {
    const { client } = await clientFor({
      call: () => ({ resultType: "task", ...task("t1", "working") }),
      get: (id) => task(id, "cancelled", { statusMessage: "operator stopped it" }),
    });
    const error = await client.callTool("slow", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskCancelledError);
    expect(error).toBeInstanceOf(RequestCancelledError);
    expect((error as Error).message).toMatch(/operator stopped it/);
  });

  it("aborting the call cancels the task with tasks/cancel (never notifications/cancelled)", async () => {
    const { client, peer } = await clientFor({
      call: () => ({ resultType: "task", ...task("t1", "working") }),
      get: (id) => task(id, "working"),
    });
    const controller = new AbortController();
    const call = client.callTool("slow", {}, { signal: controller.signal });
    await until(() => sent(peer, "tasks/get").length > 0);
    controller.abort();
    await expect(call).rejects.toThrow(TaskCancelledError);
    expect(sent(peer, "tasks/cancel").map((r) => r.params["taskId"])).toEqual(["t1"]);
  });
});

describe("input requests of a task", () => {
  const ask = {
    method: "elicitation/create",
    params: {
      mode: "form",
      message: "Delete?",
      requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } } },
    },
  };

  it("are answered once per key with the client's handlers, through tasks/update", async () => {
    const asked: unknown[] = [];
    const { client, peer } = await clientFor(
      {
        call: () => ({ resultType: "task", ...task("t1", "working") }),
        // The update's effect shows late: the same key is asked again before the task goes on.
        get: (id, n) =>
          n <= 3
            ? task(id, "input_required", { inputRequests: { k1: ask } })
            : n === 4
              ? task(id, "input_required", { inputRequests: { k1: ask, k2: ask } })
              : task(id, "completed", { result: done }),
      },
      {
        handlers: {
          elicitation: (params) => {
            asked.push(params.message);
            return { action: "accept", content: { confirm: true } };
          },
        },
      },
    );
    await client.callTool("confirm_delete", {});
    expect(asked).toEqual(["Delete?", "Delete?"]);
    const updates = sent(peer, "tasks/update").map((r) => ({ ...r.params, _meta: undefined }));
    expect(updates).toEqual([
      { taskId: "t1", inputResponses: { k1: { action: "accept", content: { confirm: true } } }, _meta: undefined },
      { taskId: "t1", inputResponses: { k2: { action: "accept", content: { confirm: true } } }, _meta: undefined },
    ]);
  });

  it("a request the client cannot answer gives the task up (tasks/cancel) and says why", async () => {
    const { client, peer } = await clientFor({
      call: () => ({ resultType: "task", ...task("t1", "working") }),
      get: (id) => task(id, "input_required", { inputRequests: { k1: ask } }),
    });
    await expect(client.callTool("confirm_delete", {})).rejects.toThrow(/cannot answer/);
    expect(sent(peer, "tasks/cancel")).toHaveLength(1);
    expect(sent(peer, "tasks/update")).toHaveLength(0);
  });
});

describe("input rounds", () => {
  it("a task that keeps asking new questions is given up after maxInputRounds", async () => {
    const elicit = {
      method: "elicitation/create",
      params: { mode: "form", message: "?", requestedSchema: { type: "object", properties: {} } },
    };
    const { client, peer } = await clientFor(
      {
        call: () => ({ resultType: "task", ...task("t1", "working") }),
        get: (id, n) => task(id, "input_required", { inputRequests: { [`k${n}`]: elicit } }),
      },
      { tasks: { maxInputRounds: 2 }, handlers: { elicitation: () => ({ action: "decline" }) } },
    );
    await expect(client.callTool("chatty", {})).rejects.toThrow(/still requires input after 2 rounds/);
    expect(sent(peer, "tasks/update")).toHaveLength(2);
    expect(sent(peer, "tasks/cancel")).toHaveLength(1);
  });
});

describe("task handles", () => {
  it("a server answering at once gives a settled handle", async () => {
    const { client, peer } = await clientFor({ call: () => ({ resultType: "complete", ...done }) });
    const handle = await callToolAsTask(client, "greet", { name: "a" });
    expect(handle.taskId).toBeUndefined();
    expect(await handle.status()).toBe("completed");
    expect(await handle.result()).toMatchObject(done);
    expect(sent(peer, "tasks/get")).toHaveLength(0);
  });

  it("status() asks once; result() follows; onChange sees each new state", async () => {
    const { client } = await clientFor({
      call: () => ({ resultType: "task", ...task("t1", "working") }),
      get: (id, n) =>
        n < 3 ? task(id, "working", { statusMessage: `step ${n}` }) : task(id, "completed", { result: done }),
    });
    const handle = await requestTask(client, methods["tools/call"], { name: "slow", arguments: {} });
    // The handle's result is the token's own complete result (2026-07-28's CallToolResult).
    expectTypeOf<Awaited<ReturnType<typeof handle.result>>>().toEqualTypeOf<
      CompleteResultOf<(typeof methods)["tools/call"]>
    >();
    expect(handle.taskId).toBe("t1");
    expect(handle.state).toMatchObject({ status: "working" });
    const seen: string[] = [];
    handle.onChange((s) => seen.push(`${s.status}${s.statusMessage ? ` ${s.statusMessage}` : ""}`));
    expect(await handle.status()).toBe("working");
    expect(await handle.result()).toMatchObject(done);
    expect(seen).toEqual(["working step 1", "working step 2", "completed"]);
  });

  it("cancel() sends tasks/cancel and the pending result rejects", async () => {
    const { client, peer } = await clientFor({
      call: () => ({ resultType: "task", ...task("t1", "working") }),
      get: (id) => task(id, "working"),
    });
    const handle = await callToolAsTask(client, "slow", {});
    const result = handle.result();
    await handle.cancel();
    await expect(result).rejects.toThrow(TaskCancelledError);
    await handle.cancel(); // once is enough
    expect(sent(peer, "tasks/cancel")).toHaveLength(1);
  });

  it("a signal given to result() stops waiting without cancelling the task", async () => {
    const { client, peer } = await clientFor({
      call: () => ({ resultType: "task", ...task("t1", "working") }),
      get: (id) => task(id, "working"),
    });
    const handle = await callToolAsTask(client, "slow", {});
    await expect(handle.result({ signal: AbortSignal.timeout(30) })).rejects.toThrow();
    expect(sent(peer, "tasks/cancel")).toHaveLength(0);
    await handle.cancel();
  });

  it("resumes a task from its persisted id", async () => {
    const { client, peer } = await clientFor({
      call: () => done,
      get: (id, n) => (n < 2 ? task(id, "working") : task(id, "completed", { result: done })),
    });
    const handle = await resumeTask(client, methods["tools/call"], "persisted-1");
    expect(handle.taskId).toBe("persisted-1");
    expect(await handle.result()).toMatchObject(done);
    expect(sent(peer, "tasks/get").every((r) => r.params["taskId"] === "persisted-1")).toBe(true);
  });

  it("a task the server forgot after its TTL is expired; before it, an ordinary error", async () => {
    const gone = () => {
      throw new RpcError(-32602, "Failed to retrieve task: Task has expired");
    };
    const short = await clientFor({
      call: () => ({ resultType: "task", ...task("t1", "working", { ttlMs: 1 }) }),
      get: gone,
    });
    await expect(short.client.callTool("slow", {})).rejects.toThrow(TaskExpiredError);
    const long = await clientFor({ call: () => ({ resultType: "task", ...task("t2", "working") }), get: gone });
    const error = await long.client.callTool("slow", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).not.toBeInstanceOf(TaskExpiredError);
  });
});

describe("notifications/tasks", () => {
  it("follows the listen stream instead of polling when the server agrees", async () => {
    const { client, peer } = await clientFor(
      {
        call: () => ({ resultType: "task", ...task("t1", "working", { pollIntervalMs: 5 }) }),
        get: (id) => task(id, "working", { pollIntervalMs: 5 }),
        listen: true,
      },
      { tasks: { notifications: true } },
    );
    const handle = await callToolAsTask(client, "slow", {});
    const result = handle.result();
    await until(() => sent(peer, "tasks/get").length > 0);
    await new Promise((r) => setTimeout(r, 60));
    await peer.push(task("t1", "completed", { result: done }));
    expect(await result).toMatchObject(done);
    expect(sent(peer, "subscriptions/listen")[0]!.params["notifications"]).toEqual({ taskIds: ["t1"] });
    // One read after the acknowledgement; no polling while the stream is open (the interval was 5 ms).
    expect(sent(peer, "tasks/get")).toHaveLength(1);
  });

  it("polls when the server has no subscriptions", async () => {
    const { client, peer } = await clientFor(
      {
        call: () => ({ resultType: "task", ...task("t1", "working") }),
        get: (id, n) => (n < 2 ? task(id, "working") : task(id, "completed", { result: done })),
      },
      { tasks: { notifications: true } },
    );
    expect(await client.callTool("slow", {})).toMatchObject(done);
    expect(sent(peer, "tasks/get").length).toBeGreaterThanOrEqual(2);
  });
});

describe("answers a client must refuse", () => {
  it("a CreateTaskResult when the client did not declare the extension", async () => {
    const { client } = await clientFor(
      { call: () => ({ resultType: "task", ...task("t1", "working") }) },
      { declare: false },
    );
    await expect(client.callTool("slow", {})).rejects.toThrow(InvalidMessageError);
  });

  it("a CreateTaskResult missing its Task fields", async () => {
    const { client } = await clientFor({ call: () => ({ resultType: "task", taskId: "t1", status: "working" }) });
    await expect(client.callTool("slow", {})).rejects.toThrow(/createdAt/);
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(condition()).toBe(true);
}
