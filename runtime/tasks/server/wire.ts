/**
 * A stored task as the Tasks extension's messages carry it (extensions/tasks/schema.ts): the flat
 * `CreateTaskResult` of the creating request, and the `DetailedTask` of `tasks/get` and `notifications/tasks`
 * (status-specific payload inlined; no `requestState`, no v1 `ttl`/`pollInterval`).
 */
import type { TaskState } from "./store.ts";

type Wire = Record<string, unknown>;

/** The extension identifier a client declares in `capabilities.extensions` to receive tasks. */
export const TASKS_EXTENSION_ID = "io.modelcontextprotocol/tasks";

/** The `Task` fields every message carries. */
function taskFields(task: TaskState): Wire {
  const out: Wire = {
    taskId: task.taskId,
    status: task.status,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttlMs,
  };
  if (task.statusMessage !== undefined) out["statusMessage"] = task.statusMessage;
  if (task.pollIntervalMs !== undefined) out["pollIntervalMs"] = task.pollIntervalMs;
  return out;
}

/** `CreateTaskResult`: the task handle a request answers with instead of its result. */
export function createTaskResult(task: TaskState): Wire {
  return { resultType: "task", ...taskFields(task) };
}

/** `DetailedTask`: what `tasks/get` answers (plus `resultType`) and `notifications/tasks` carries. */
export function detailedTask(task: TaskState): Wire {
  const out = taskFields(task);
  if (task.status === "input_required") out["inputRequests"] = { ...task.inputRequests };
  else if (task.status === "completed") out["result"] = task.result ?? {};
  else if (task.status === "failed") out["error"] = task.error ?? { code: -32603, message: "Internal error" };
  return out;
}
