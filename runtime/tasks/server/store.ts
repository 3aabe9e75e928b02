/**
 * The Tasks extension's task store (extensions/tasks/tasks.md): where a server keeps each task's state between the
 * request that created it and the `tasks/get`, `tasks/update` and `tasks/cancel` requests that follow — possibly on
 * another connection or, with a shared store, another process. The state is plain JSON, and every change goes
 * through one pure function (`applyTaskChange`), so a store implementation only has to make it atomic and tell
 * subscribers (`InMemoryTaskStore` is the default; a shared store implements the same interface).
 */

/** A task's status (extensions/tasks/schema.ts `TaskStatus`). */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

/** One outstanding server→client request of a task, as `inputRequests` lists it. */
export interface TaskInputRequest {
  readonly method: string;
  readonly params: unknown;
}

/** What a store keeps of one task: JSON-serializable, so a shared store can keep it as it is. */
export interface TaskState {
  /** Unguessable (bearer-grade): 128 random bits, base64url. */
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601. */
  readonly lastUpdatedAt: string;
  /** Milliseconds from `createdAt` the task is kept at least; null: unlimited. */
  readonly ttlMs: number | null;
  readonly pollIntervalMs?: number;
  /** Epoch milliseconds after which the store may drop the task (`createdAt + ttlMs`); null: never. */
  readonly expiresAt: number | null;
  /** The caller that created it (`principalOf`; "" when unauthenticated): only this caller may see it. */
  readonly owner: string;
  /** The request it stands for (`tools/call`) and the wire version it was served under. */
  readonly method: string;
  readonly revision: string;
  /** Outstanding input requests by key (status `input_required` while any remains). */
  readonly inputRequests?: Readonly<Record<string, TaskInputRequest>>;
  /** Answers received for input requests, by key, until the task ends. */
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  /** Every input key ever used by this task (keys are never reused). */
  readonly usedKeys?: readonly string[];
  /** `completed`: the result the request would have returned. */
  readonly result?: Readonly<Record<string, unknown>>;
  /** `failed`: the JSON-RPC error the request would have returned. */
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
}

/** One change to a task; `applyTaskChange` says what each does. */
export type TaskChange =
  | { readonly type: "ask"; readonly requests: Readonly<Record<string, TaskInputRequest>> }
  | { readonly type: "answer"; readonly responses: Readonly<Record<string, unknown>> }
  | { readonly type: "message"; readonly statusMessage: string }
  | { readonly type: "complete"; readonly result: Readonly<Record<string, unknown>> }
  | { readonly type: "fail"; readonly error: NonNullable<TaskState["error"]>; readonly statusMessage?: string }
  | { readonly type: "cancel"; readonly statusMessage?: string };

/**
 * Where tasks live. Every method may be asynchronous (a shared store is). Implementations must:
 * - `create`: resolve only once `get(taskId)` resolves the task, on every instance sharing the store (the spec's
 *   durable create); reject with `TaskQuotaError` when the task's owner already has its quota of unfinished tasks,
 *   and with `TaskStoreFullError` when at capacity and no task can be dropped early (see `get`).
 * - `get`: resolve the task until `expiresAt`; after it, the task may or may not be found. The one exception: a
 *   full store makes room by dropping a finished task of an owner holding more tasks than its quota (the one that
 *   expires first), so that one caller's flood of finished tasks cannot keep every other caller out.
 * - `update`: apply `applyTaskChange` atomically (no lost update between concurrent changes, on any instance) and
 *   resolve with the state after it; undefined when the task is gone.
 * - `subscribe`: call the listener with the new state after every change that altered a task (any instance's).
 */
export interface TaskStore {
  create(task: TaskState): Promise<void>;
  get(taskId: string): Promise<TaskState | undefined>;
  update(taskId: string, change: TaskChange): Promise<TaskState | undefined>;
  subscribe(listener: (task: TaskState) => void): () => void;
  /** Releases timers and connections. */
  close?(): Promise<void>;
}

/**
 * An owner with `maxTasksPerOwner` unfinished (working or input-required) tasks: it can create no more until one
 * of them ends. Other owners are not affected.
 */
export class TaskQuotaError extends Error {
  constructor(readonly limit: number) {
    super(`the caller already has ${limit} unfinished tasks, the most one caller may have`);
    this.name = "TaskQuotaError";
  }
}

/** A store at its `maxTasks` holding no task it may drop early: no task can be created until some expire. */
export class TaskStoreFullError extends Error {
  constructor(readonly limit: number) {
    super(`the task store holds its maximum of ${limit} tasks`);
    this.name = "TaskStoreFullError";
  }
}

const TERMINAL: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);

export function isTerminal(status: TaskStatus): boolean {
  return TERMINAL.has(status);
}

function withoutKeys<T>(record: Readonly<Record<string, T>> | undefined, keys: Iterable<string>): Record<string, T> {
  const out: Record<string, T> = Object.assign(Object.create(null) as Record<string, T>, record);
  for (const key of keys) delete out[key];
  return out;
}

/** Terminal: no outstanding inputs or answers are kept, only the outcome. */
function ended(task: TaskState, now: string, fields: Partial<TaskState>): TaskState {
  const { inputRequests: _r, inputResponses: _a, ...rest } = task;
  return { ...rest, ...fields, lastUpdatedAt: now };
}

/**
 * The state after `change`, or undefined when it changes nothing. A terminal task never changes (the first
 * outcome wins: a completion racing a cancel loses). `answer` takes only keys that are outstanding (others are
 * ignored, as the spec says a server SHOULD); the task is `input_required` while any key remains outstanding.
 */
export function applyTaskChange(task: TaskState, change: TaskChange, now: Date): TaskState | undefined {
  if (isTerminal(task.status)) return undefined;
  const at = now.toISOString();
  switch (change.type) {
    case "ask": {
      const keys = Object.keys(change.requests);
      if (keys.length === 0) return undefined;
      const inputRequests = Object.assign(Object.create(null) as object, task.inputRequests, change.requests);
      const usedKeys = [...(task.usedKeys ?? []), ...keys];
      return { ...task, status: "input_required", inputRequests, usedKeys, lastUpdatedAt: at };
    }
    case "answer": {
      const outstanding = task.inputRequests ?? {};
      const taken = Object.keys(change.responses).filter((key) => Object.hasOwn(outstanding, key));
      if (taken.length === 0) return undefined;
      const inputRequests = withoutKeys(outstanding, taken);
      const inputResponses: Record<string, unknown> = Object.assign(Object.create(null) as object, task.inputResponses);
      for (const key of taken) inputResponses[key] = change.responses[key];
      const status = Object.keys(inputRequests).length > 0 ? "input_required" : "working";
      return { ...task, status, inputRequests, inputResponses, lastUpdatedAt: at };
    }
    case "message":
      return { ...task, statusMessage: change.statusMessage, lastUpdatedAt: at };
    case "complete":
      return ended(task, at, { status: "completed", result: change.result });
    case "fail":
      return ended(task, at, {
        status: "failed",
        error: change.error,
        statusMessage: change.statusMessage ?? change.error.message,
      });
    case "cancel":
      return ended(task, at, {
        status: "cancelled",
        ...(change.statusMessage === undefined ? {} : { statusMessage: change.statusMessage }),
      });
  }
}
