/**
 * The options of the Tasks extension on the server side: the server's (`tasks(options)`, listed in
 * `ServerOptions.extensions`) and a tool's (`ToolOptions.extensions`, written by `taskTool(options)`).
 */
import type { TaskStore } from "./store.ts";

export interface TasksOptions {
  /**
   * Where tasks live (default: an `InMemoryTaskStore` with its defaults: at most 10,000 tasks, expired ones swept
   * every minute). Several processes behind one endpoint need a shared store.
   */
  readonly store?: TaskStore;
  /**
   * How long a task is kept from its creation, in ms (default 3,600,000: one hour); null: unlimited (it then
   * occupies the store until the server restarts: prefer a bound). A task still running at its TTL stops, `failed`.
   */
  readonly ttlMs?: number | null;
  /** The poll interval suggested to clients in every task, in ms (default 1,000). */
  readonly pollIntervalMs?: number;
  /** Most task ids one `subscriptions/listen` request may name (default 100); more is -32602. */
  readonly maxListenTaskIds?: number;
}

/**
 * Whether a tool's calls run as tasks. `forbidden` (default): always inline. `optional`: as a task when the request
 * declares the Tasks extension, else inline. `required`: a request that does not declare it gets -32021 before the
 * handler runs.
 */
export type TaskSupport = "forbidden" | "optional" | "required";

export interface ToolTaskOptions {
  readonly support: TaskSupport;
  /**
   * When the call becomes a task: `call` (default), before the handler runs (the handler runs as the task); or
   * `handler`: the handler runs on the request and decides with `runAsTask(context, work)` (e.g. after multi
   * round-trip input, as tasks.md §Task Creation recommends).
   */
  readonly start?: "call" | "handler";
}
