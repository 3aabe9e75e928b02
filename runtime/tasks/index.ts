/**
 * mcp-gen runtime: the Tasks extension (`@mcp-gen/runtime/tasks`; `io.modelcontextprotocol/tasks`, SEP-2663), on the
 * extension interfaces of the core entry (`ServerExtension.serve`, `ClientExtension.attach`). Docs: docs/tasks.md.
 *
 * Server: `new McpServer({ …, extensions: [tasks({ store, ttlMs })] })`; a tool's calls run as tasks by its options
 * (`server.tool(definition, handler, { extensions: taskTool({ support: "optional" }) })`), or a handler decides
 * with `runAsTask(context, work)`. Client: `new McpClient({ …, extensions: [tasksClient()] })`; a direct call the
 * server runs as a task resolves to its result, `callToolAsTask(client, name, args)` to the task's handle.
 */
export { tasks, runAsTask } from "./server/feature.ts";
export { taskTool, taskTools } from "./server/tool-call.ts";
export { InMemoryTaskStore, type InMemoryTaskStoreOptions } from "./server/memory-store.ts";
export { applyTaskChange, TaskQuotaError, TaskStoreFullError } from "./server/store.ts";
export type { TaskChange, TaskInputRequest, TaskState, TaskStore } from "./server/store.ts";
export type { TasksOptions, TaskSupport, ToolTaskOptions } from "./server/options.ts";
export { TASKS_EXTENSION_ID } from "./server/wire.ts";

export {
  callStructuredTask,
  callToolAsTask,
  callToolTask,
  requestTask,
  resumeTask,
  tasksClient,
  type TasksApi,
} from "./client/feature.ts";
export type { DetailedTask, TaskHandle, TaskOptions, TaskStatus, WaitOptions } from "./client/tasks.ts";
export { TaskCancelledError, TaskExpiredError, TaskFailedError } from "./client/task-errors.ts";
