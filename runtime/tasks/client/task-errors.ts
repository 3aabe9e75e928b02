/**
 * How a task that does not complete ends, in the runtime's error model (Tasks extension, tasks.md §Error Handling):
 * each is a subclass of the error a synchronous call would have thrown, so code written for direct calls keeps
 * working, and each names the task.
 */
import { RequestCancelledError, RpcError } from "../../jsonrpc/errors.ts";

/**
 * The task ended `failed`: the request met a JSON-RPC error while it ran. `code`, `message` and `data` are that
 * error's, exactly as a synchronous call would have thrown them as an `RpcError`.
 */
export class TaskFailedError extends RpcError {
  constructor(
    readonly taskId: string,
    error: { readonly code: number; readonly message: string; readonly data?: unknown },
    /** The server's `statusMessage`, when it gave one. */
    readonly statusMessage?: string,
  ) {
    super(error.code, error.message, error.data);
    this.name = "TaskFailedError";
  }
}

/** The task was cancelled: by `cancel()`, by the abort signal bound to it, or by the server (`status: "cancelled"`). */
export class TaskCancelledError extends RequestCancelledError {
  constructor(
    method: string,
    readonly taskId: string,
    reason?: unknown,
  ) {
    super(method, reason);
    this.name = "TaskCancelledError";
  }
}

/**
 * The server no longer knows the task and its TTL (`createdAt` + `ttlMs`) has elapsed: it was purged, as the spec
 * allows ("Task has expired"). `code`, `message` and `data` are the server's `tasks/get` error.
 */
export class TaskExpiredError extends RpcError {
  constructor(
    readonly taskId: string,
    cause: RpcError,
  ) {
    super(cause.code, `task ${taskId} expired: ${cause.message}`, cause.data);
    this.name = "TaskExpiredError";
  }
}
