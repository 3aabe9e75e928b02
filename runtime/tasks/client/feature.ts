/**
 * The Tasks extension as a client feature (`ClientExtension.attach`): `tasksClient(options)` is what a client lists
 * (`new McpClient({ …, extensions: [tasksClient()] })`). A request the server answers with a task is then followed
 * to its end, so a direct call resolves to its result; the task forms (`callToolAsTask`, `requestTask`,
 * `resumeTask`, and the typed `callToolTask`/`callStructuredTask` generated clients use) resolve to its handle.
 */
import type * as z from "zod/mini";
import type { CallToolResult } from "../../protocol/builtin-types.ts";
import type { AnyRequestType, CompleteResultOf } from "../../protocol/method-type.ts";
import type { ProgressUpdate } from "../../protocol/engine-contract.ts";
import type { CallOptions, McpClient } from "../../client/client.ts";
import type { ClientExtension, ClientFeature, FeatureClient } from "../../client/extensions.ts";
import type { RequestArgs } from "../../client/tokens.ts";
import { structured, succeeded, type StructuredToolCall } from "../../client/typed-tools.ts";
import { extension } from "../../generated/extensions/tasks/extension.ts";
import { ClientTasks, mapTask, settledTask, type TaskHandle, type TaskHost, type TaskOptions } from "./tasks.ts";

/** What `McpClient.extension(tasksClient())` returns: the task forms of requests (use the functions below). */
export interface TasksApi {
  /** Sends `method` as a request that may run as a task; resolves to its handle once the server answered. */
  start<R>(method: string, params: unknown, options: CallOptions): Promise<TaskHandle<R>>;
  /** The handle of a task a `method` request created earlier, from its persisted `taskId`. */
  resume<R>(method: string, taskId: string, signal: AbortSignal | undefined): Promise<TaskHandle<R>>;
}

/** The Tasks extension for `ClientOptions.extensions`, with how created tasks are followed. */
export function tasksClient(options: TaskOptions = {}): ClientExtension<TasksApi> {
  return {
    ...extension,
    attach: (client) => {
      const tasks = new ClientTasks(taskHost(client), options);
      const api: TasksApi = {
        start: async <R>(method: string, params: unknown, call: CallOptions) => {
          const { raw, facts } = await client.exchange(method, params, call);
          return tasks.created<R>(raw, facts, call.signal) ?? settledTask(client.completeResult(raw, facts) as R);
        },
        resume: (method, taskId, signal) => tasks.resume(taskId, client.requestFacts(method), signal),
      };
      // A created task is followed to its end: a direct call resolves to its result (the signal cancels the task).
      const settle: ClientFeature["settle"] = (raw, facts, call) => {
        const handle = tasks.created<unknown>(raw, facts, call.signal);
        if (handle && call.onProgress) reportStatus(handle, call.onProgress);
        return handle?.result();
      };
      return { api, settle };
    },
  };
}

/**
 * A task sends no `notifications/progress` (tasks.md §Task Status Notifications): the server turns a handler's
 * progress into the task's `statusMessage`. A direct call that became a task reports each new status message to the
 * call's `onProgress` instead, `progress` counting the messages seen (the total is not known).
 */
function reportStatus(handle: TaskHandle<unknown>, onProgress: (update: ProgressUpdate) => void): void {
  let seen = 0;
  let last: string | undefined;
  const report = (message: string | undefined) => {
    if (message === undefined || message === last) return;
    last = message;
    try {
      onProgress({ progress: ++seen, message });
    } catch {
      // the caller's callback failing does not stop the task (as with notifications/progress, engine.ts)
    }
  };
  report(handle.state?.statusMessage);
  const off = handle.onChange((state) => report(state.statusMessage));
  void handle.result().then(off, off);
}

/** Looked up by id: whichever `tasksClient(options)` the client lists. */
const TASKS: ClientExtension<TasksApi> = { id: extension.id, methods: [] };

/** `tools/call` as a task: resolves to the task's handle (`result()` is the call's result); `options.signal` cancels it. */
export async function callToolAsTask(
  client: McpClient,
  name: string,
  args?: Readonly<Record<string, unknown>>,
  options: CallOptions = {},
): Promise<TaskHandle<CallToolResult>> {
  return client
    .extension(TASKS)
    .start("tools/call", args === undefined ? { name } : { name, arguments: args }, options);
}

/** A request (by token) that may run as a task; resolves to its handle (see `callToolAsTask`). */
export async function requestTask<T extends AnyRequestType>(
  client: McpClient,
  type: T,
  ...args: RequestArgs<T>
): Promise<TaskHandle<CompleteResultOf<T>>> {
  return client.extension(TASKS).start(type.method, args[0], args[1] ?? {});
}

/** The handle of a task a `type` request created earlier, from its persisted `taskId`. */
export async function resumeTask<T extends AnyRequestType>(
  client: McpClient,
  type: T,
  taskId: string,
  options: { readonly signal?: AbortSignal } = {},
): Promise<TaskHandle<CompleteResultOf<T>>> {
  return client.extension(TASKS).resume(type.method, taskId, options.signal);
}

/** Typed clients: `callTool` as a task; `result()` resolves as `callTool` does (`ToolCallError` on `isError`). */
export async function callToolTask(
  client: McpClient,
  name: string,
  args: object,
  options?: CallOptions,
): Promise<TaskHandle<CallToolResult>> {
  const handle = await callToolAsTask(client, name, args as Readonly<Record<string, unknown>>, options);
  return mapTask(handle, (result) => succeeded(name, result));
}

/** Typed clients: `callStructured` as a task; `result()` resolves as `callStructured` does. */
export async function callStructuredTask<Output>(
  client: McpClient,
  name: string,
  args: object,
  validator: z.ZodMiniType<Output>,
  options?: CallOptions,
): Promise<TaskHandle<StructuredToolCall<Output>>> {
  const handle = await callToolAsTask(client, name, args as Readonly<Record<string, unknown>>, options);
  return mapTask(handle, (result) => structured(name, result, validator));
}

/** What the client lends the task driver. */
function taskHost(client: FeatureClient): TaskHost {
  return {
    get stateless() {
      return client.era === "stateless";
    },
    request: (method, params, signal) => client.request(method, params, signal ? { signal } : {}),
    answer: (requests, signal, method) => client.answer(requests, signal, method),
    complete: (result, facts) => client.completeResult(result, facts),
    on: (method, listener) => client.on(method, listener),
    listen: async (taskIds, signal) => {
      // `taskIds` is the extension's field of the filter and of the acknowledgement (TaskSubscriptionNotifications).
      const subscription = await client.listen({ taskIds }, signal);
      const agreed = subscription.filter["taskIds"];
      return { agreed: Array.isArray(agreed) ? (agreed as string[]) : [], ended: subscription.ended };
    },
  };
}
