/**
 * Task status notifications over `subscriptions/listen` (tasks.md §Task Status Notifications): a listen request may
 * name `notifications.taskIds`; the server agrees to the caller's live tasks among them (unknown, expired or another
 * caller's ids are left out of the acknowledgement, no error) and sends `notifications/tasks` with the task's
 * `DetailedTask` on that stream at every change, and once its current one when the stream opens (so a change made
 * between the client's last `tasks/get` and the subscription is not missed; each notification is what `tasks/get`
 * would return then). Naming `taskIds` without declaring the extension is -32021.
 */
import { ErrorCode, RpcError } from "../../jsonrpc/errors.ts";
import { hasCapability } from "../../protocol/capabilities.ts";
import { missingExtensionError } from "../../protocol/extensions.ts";
import type { RequestContext } from "../../server/context.ts";
import type { TaskEngine } from "./engine.ts";
import { findTask } from "./task-methods.ts";
import { detailedTask, TASKS_EXTENSION_ID } from "./wire.ts";

/** The task ids this listen request is agreed (undefined: it named none, or the server serves no tasks). */
export async function agreedTaskIds(
  tasks: TaskEngine | undefined,
  filter: unknown,
  context: RequestContext,
): Promise<readonly string[] | undefined> {
  const requested = (filter as { taskIds?: unknown } | undefined)?.taskIds;
  if (requested === undefined || !tasks) return undefined;
  if (!hasCapability(context.clientCapabilities, ["extensions", TASKS_EXTENSION_ID]))
    throw missingExtensionError(TASKS_EXTENSION_ID, "subscriptions/listen with taskIds");
  if (!Array.isArray(requested) || requested.length > tasks.maxListenTaskIds)
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params: notifications.taskIds must be an array of at most ${tasks.maxListenTaskIds} task ids`,
    );
  const found = await Promise.all(
    [...new Set(requested)].map((id) =>
      findTask(tasks, id, context).then(
        (task) => task.taskId,
        () => undefined,
      ),
    ),
  );
  return found.filter((id): id is string => id !== undefined);
}

/**
 * Follows the agreed `taskIds` for one listen stream: `send` gets each change, and once each task's current state,
 * read after watching starts and skipped when a change already went out. Returns the stop.
 */
export function followTasks(
  tasks: TaskEngine,
  taskIds: readonly string[],
  send: (taskId: string, task: Record<string, unknown>) => void,
): () => void {
  const changed = new Set<string>();
  const stops = taskIds.map((taskId) =>
    tasks.watch(taskId, (task) => {
      changed.add(taskId);
      send(taskId, detailedTask(task));
    }),
  );
  let stopped = false;
  for (const taskId of taskIds) {
    tasks.store.get(taskId).then(
      (task) => {
        if (task && !stopped && !changed.has(taskId)) send(taskId, detailedTask(task));
      },
      () => undefined, // the store failed: the changes still follow
    );
  }
  return () => {
    stopped = true;
    for (const stop of stops) stop();
  };
}
