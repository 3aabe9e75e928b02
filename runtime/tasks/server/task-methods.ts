/**
 * `tasks/get`, `tasks/update` and `tasks/cancel` (extensions/tasks/tasks.md), served from the engine's store to the
 * caller that created the task only: an unknown, expired, malformed or someone else's `taskId` gets -32602 alike
 * (nothing tells a caller that another's task exists). `tasks/update` takes answers only for outstanding keys
 * (others are ignored), each checked against its request's result type; `tasks/cancel` of a terminal task is
 * acknowledged as any other (idempotent).
 */
import { ErrorCode, RpcError } from "../../jsonrpc/errors.ts";
import * as z from "zod/mini";
import { ProtocolRequestType, type AnyRequestType } from "../../protocol/method-type.ts";
import { formatIssues } from "../../protocol/validation.ts";
import type { RequestContext } from "../../server/context.ts";
import type { FeatureRequest } from "../../server/extension.ts";
import { principalOf } from "../../server/request-state.ts";
import type { TaskEngine } from "./engine.ts";
import { isTerminal, type TaskState } from "./store.ts";
import { detailedTask } from "./wire.ts";

/** Longest `taskId` looked up (ours are 22 characters); a longer one is malformed. */
const MAX_TASK_ID = 256;

/** The caller's task `taskId`, or -32602. */
export async function findTask(engine: TaskEngine, taskId: unknown, context: RequestContext): Promise<TaskState> {
  if (typeof taskId !== "string" || taskId.length === 0 || taskId.length > MAX_TASK_ID)
    throw new RpcError(ErrorCode.InvalidParams, "Invalid params: taskId is not a task identifier");
  const task = await engine.store.get(taskId);
  if (!task || task.owner !== principalOf(context.authInfo))
    throw new RpcError(ErrorCode.InvalidParams, "Failed to retrieve task: Task not found (or expired)");
  return task;
}

/** Checks each answer to an outstanding key against its request's result type; returns the answers to apply. */
function checkedAnswers(engine: TaskEngine, task: TaskState, responses: Record<string, unknown>) {
  const outstanding = task.inputRequests ?? {};
  const profile = engine.revisions.find((p) => p.version === task.revision);
  const taken: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, answer] of Object.entries(responses)) {
    if (!Object.hasOwn(outstanding, key)) continue; // not outstanding (never issued, answered, superseded): ignored
    const method = outstanding[key]!.method;
    const token = profile?.embedded.get(method);
    const parsed = token?.result.safeParse(answer);
    if (parsed && !parsed.success)
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Invalid params: inputResponses.${key} is not a valid ${method} result: ${formatIssues(parsed.error.issues, key)}`,
      );
    taken[key] = parsed ? parsed.data : answer;
  }
  return taken;
}

/** The three methods, bound to the engine (the feature's `requests`). */
export function taskRequests(engine: TaskEngine): Readonly<Record<string, FeatureRequest>> {
  return {
    "tasks/get": async (params, context) => detailedTask(await findTask(engine, params["taskId"], context)),
    "tasks/update": async (params, context) => {
      const task = await findTask(engine, params["taskId"], context);
      const answers = checkedAnswers(engine, task, params["inputResponses"] as Record<string, unknown>);
      if (!isTerminal(task.status) && Object.keys(answers).length > 0)
        await engine.store.update(task.taskId, { type: "answer", responses: answers });
      return {};
    },
    "tasks/cancel": async (params, context) => {
      const task = await findTask(engine, params["taskId"], context);
      if (!isTerminal(task.status))
        await engine.store.update(task.taskId, { type: "cancel", statusMessage: "Cancelled by the client" });
      return {};
    },
  };
}

/**
 * The token requests of `method` are admitted with. `tasks/update` takes any object per answer key at admission
 * (the spec says unknown keys are ignored, so their answers are not validated); answers to outstanding keys are
 * checked against their own request's result type when applied.
 */
export function admissionToken(token: AnyRequestType): AnyRequestType {
  if (token.method !== "tasks/update") return token;
  return new ProtocolRequestType({
    method: token.method,
    direction: token.direction,
    params: z.looseObject({ taskId: z.string(), inputResponses: z.record(z.string(), z.unknown()) }),
    result: token.result,
    paramsOptional: token.paramsOptional,
    delivery: token.delivery,
    resultType: token.resultType,
    cacheable: token.cacheable,
    inputRequired: token.inputRequired,
  });
}
