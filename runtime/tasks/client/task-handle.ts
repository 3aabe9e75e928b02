/**
 * The handle of a request that may run as a task (Tasks extension): what callers hold, whether the server created a
 * task (client/tasks.ts follows it) or answered at once; and the small waiting helpers the task driver uses.
 */
import type { DetailedTask, TaskStatus } from "../../generated/extensions/tasks/types.ts";

/** A request that ran as a task, or was answered at once. */
export interface TaskHandle<R> {
  /** The server's task id (persist it to resume with `resumeTask`); `undefined` when the server answered at once. */
  readonly taskId: string | undefined;
  /** The latest state seen (the create answer, a poll or a notification); `undefined` when no task was created. */
  readonly state: DetailedTask | undefined;
  /** Asks the server now (`tasks/get`) and returns the status; `"completed"` when the server answered at once. */
  status(options?: WaitOptions): Promise<TaskStatus>;
  /**
   * The request's final result, typed and validated as the request's own. Follows the task until it ends, answering
   * its input requests with the client's handlers. Rejects with `TaskFailedError` (an `RpcError`),
   * `TaskCancelledError` (a `RequestCancelledError`) or `TaskExpiredError`. `signal` stops waiting only: the task
   * goes on (the signal given when the task was created, or `cancel()`, cancels it).
   */
  result(options?: WaitOptions): Promise<R>;
  /** `tasks/cancel`; a pending `result()` rejects with `TaskCancelledError`. Nothing to do once the task ended. */
  cancel(): Promise<void>;
  /** Calls `listener` with each new state seen while the task is followed; returns a function that stops it. */
  onChange(listener: (state: DetailedTask) => void): () => void;
}

export interface WaitOptions {
  readonly signal?: AbortSignal;
}

/** The handle of a request the server answered at once. */
export function settledTask<R>(result: R): TaskHandle<R> {
  return {
    taskId: undefined,
    state: undefined,
    status: () => Promise.resolve("completed"),
    result: () => Promise.resolve(result),
    cancel: () => Promise.resolve(),
    onChange: () => () => undefined,
  };
}

/** `handle` with its result mapped by `map` (typed clients: a tool's checked output). */
export function mapTask<R, U>(handle: TaskHandle<R>, map: (result: R) => U | Promise<U>): TaskHandle<U> {
  return {
    get taskId() {
      return handle.taskId;
    },
    get state() {
      return handle.state;
    },
    status: (options) => handle.status(options),
    result: async (options) => map(await handle.result(options)),
    cancel: () => handle.cancel(),
    onChange: (listener) => handle.onChange(listener),
  };
}

/** Resolves after `ms`, or at once when `wake` settles first; rejects when `signal` aborts. */
export function pause(ms: number, signal: AbortSignal, wake: Promise<unknown>): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", abort);
      resolve();
    };
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", abort, { once: true });
    void wake.then(done, done);
    if (signal.aborted) abort();
  });
}

/** `promise`, or the abort reason of `signal` when it aborts first. */
export function until<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) return abort();
    signal.addEventListener("abort", abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}
