/**
 * The Tasks extension as a server feature (`ServerExtension.serve`): one `TaskEngine` per server, serving
 * `tasks/get`, `tasks/update` and `tasks/cancel`, taking over the `tools/call` requests that become tasks, following
 * tasks on `subscriptions/listen` streams (`notifications.taskIds`), and closing with the server. `tasks(options)` is
 * what a server lists: `new McpServer({ …, extensions: [tasks({ store })] })`.
 */
import type { Awaitable } from "../../protocol/helper-types.ts";
import type { RequestContext } from "../../server/context.ts";
import type { ServerExtension, ServerFeature } from "../../server/extension.ts";
import { extension } from "../../generated/extensions/tasks/extension.ts";
import { TaskEngine, type TaskWork } from "./engine.ts";
import { agreedTaskIds, followTasks } from "./listen.ts";
import { InMemoryTaskStore } from "./memory-store.ts";
import type { TasksOptions } from "./options.ts";
import type { TaskStore } from "./store.ts";
import { admissionToken, taskRequests } from "./task-methods.ts";
import { taskOptionsOf, toolCallMode } from "./tool-call.ts";

type Result = Record<string, unknown>;

/** The requests a handler may turn into a task (`runAsTask`), with the engine and whether inline is allowed. */
const deciding = new WeakMap<RequestContext, { readonly engine: TaskEngine; readonly optional: boolean }>();

/** The Tasks extension for `ServerOptions.extensions`, with the server's task options (store, TTL, poll interval). */
export function tasks(options: TasksOptions = {}): ServerExtension {
  return {
    ...extension,
    serve: (server) => tasksFeature(new TaskEngine(server.revisions, options, server.onDiagnostic)),
  };
}

function tasksFeature(engine: TaskEngine): ServerFeature {
  return {
    requests: taskRequests(engine),
    admit: admissionToken,
    toolCall(tool, context) {
      const task = taskOptionsOf(tool);
      if (engine.accepts(context)) deciding.set(context, { engine, optional: task?.support === "optional" });
      if (toolCallMode(tool.name, task, engine, context) !== "task") return undefined;
      // A full task store: a tool that may answer inline does (the synchronous answer); one that requires a task gets -32603.
      const optional = task?.support === "optional";
      return (run, inline) => engine.start(context, run, optional ? inline : undefined);
    },
    async listen(filter, context) {
      const taskIds = await agreedTaskIds(engine, filter, context);
      if (!taskIds) return undefined;
      return {
        agreed: { taskIds: [...taskIds] },
        follow: (send) => followTasks(engine, taskIds, (_taskId, task) => send("notifications/tasks", task)),
      };
    },
    shareState: (store) => requireSharedTasks(store, engine.store),
    close: () => engine.close(),
  };
}

/**
 * Runs `work` as a task when the request served with `context` may become one (a `tools/call` whose own
 * capabilities declare the extension, stateless era, on a server serving `tasks()`) and resolves at
 * once with the `CreateTaskResult` the runtime answers with (return it from the handler as it is); otherwise runs
 * `work` inline and resolves with its result (inline too, for an `optional` tool, when the store is full). `work`
 * gets the task's context: its signal fires on `tasks/cancel` or TTL expiry, `elicit`/`createMessage`/`listRoots`
 * become the task's `inputRequests`, and `reportProgress` sets its `statusMessage`. Use it to decide late, e.g.
 * after multi round-trip input (tasks.md §Task Creation).
 */
export function runAsTask<R extends object>(
  context: RequestContext,
  work: (context: RequestContext) => Awaitable<R>,
): Promise<R> {
  const inline = () => Promise.resolve(context).then(work) as Promise<Result & R>;
  const decision = deciding.get(context);
  if (!decision) return inline();
  return decision.engine.start(context, work as TaskWork, decision.optional ? inline : undefined) as Promise<
    Result & R
  >;
}

/**
 * Throws when an endpoint shares its state with other instances but the server keeps tasks in this process's
 * memory: a `tasks/get` landing on another instance would not find the task (configuration error, at start-up).
 */
function requireSharedTasks(store: object, taskStore: TaskStore): void {
  if (taskStore instanceof InMemoryTaskStore && taskStore !== (store as { readonly tasks?: unknown }).tasks)
    throw new Error(
      "the server keeps its tasks in memory but the endpoint shares its state with other instances: " +
        "give the server the shared task store too (extensions: [tasks({ store: store.tasks })])",
    );
}
