/**
 * Runs requests as tasks (the Tasks extension, extensions/tasks/tasks.md): `start` stores a task (durably: the
 * `CreateTaskResult` goes out only once `tasks/get` resolves it), then runs the handler detached from the request
 * (its signal fires on `tasks/cancel`, TTL expiry or shutdown, not when the creating request's stream ends). The
 * handler's outcome becomes the task's: a result → `completed` (a tool's `isError` result included), a JSON-RPC
 * error → `failed`. Input the handler asks for becomes the task's `inputRequests`, answered by `tasks/update`.
 * One engine per `McpServer`, shared by all its sessions (the stateless era has none to keep tasks in).
 */
import { ErrorCode, ProtocolUsageError, RpcError, RuntimeErrorCode } from "../../jsonrpc/errors.ts";
import type { IncomingRequest } from "../../protocol/engine.ts";
import { hasCapability } from "../../protocol/capabilities.ts";
import type { Awaitable } from "../../protocol/helper-types.ts";
import type { RevisionProfile } from "../../protocol/profiles.ts";
import { base64urlFromBytes } from "../../transport/base64.ts";
import { HandlerContext, type ContextHost, type RequestContext } from "../../server/context.ts";
import { principalOf } from "../../server/request-state.ts";
import { toolFailure } from "../../server/tool-result.ts";
import { InMemoryTaskStore } from "./memory-store.ts";
import {
  isTerminal,
  TaskQuotaError,
  TaskStoreFullError,
  type TaskInputRequest,
  type TaskState,
  type TaskStore,
} from "./store.ts";
import type { TasksOptions } from "./options.ts";
import { TaskInput, type TaskInputPort } from "./task-input.ts";
import { createTaskResult, TASKS_EXTENSION_ID } from "./wire.ts";

type Result = Record<string, unknown>;

/**
 * The requests that may become tasks (tasks.md §Supported Methods), each with how its handler's exception becomes
 * its outcome on the synchronous path (so a task ends exactly as the inline answer would have).
 */
const TASK_METHODS: Readonly<Record<string, (error: unknown) => Result>> = {
  "tools/call": toolFailure,
};

/** A task running in this process. */
interface Run {
  readonly abort: AbortController;
  /** Waiting input calls by key: each gets the task state after every change until its answer is there. */
  readonly waiters: Map<string, (task: TaskState) => void>;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** The longest delay `setTimeout` takes (2^31 - 1 ms, about 24.8 days); a longer one would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

export type TaskWork = (context: RequestContext) => Awaitable<Result>;

export class TaskEngine implements TaskInputPort {
  readonly store: TaskStore;
  private readonly runs = new Map<string, Run>();
  private readonly watchers = new Map<string, Set<(task: TaskState) => void>>();
  private readonly unsubscribe: () => void;
  private readonly ttlMs: number | null;
  private readonly pollIntervalMs: number;
  readonly maxListenTaskIds: number;

  constructor(
    readonly revisions: readonly RevisionProfile[],
    options: TasksOptions = {},
    private readonly diagnose?: (message: string) => void,
  ) {
    this.store = options.store ?? new InMemoryTaskStore();
    const ttl = options.ttlMs === undefined ? 3_600_000 : options.ttlMs;
    if (ttl !== null && !(Number.isSafeInteger(ttl) && ttl > 0))
      throw new Error("tasks.ttlMs must be a positive integer or null");
    const poll = options.pollIntervalMs ?? 1_000;
    if (!(Number.isSafeInteger(poll) && poll > 0)) throw new Error("tasks.pollIntervalMs must be a positive integer");
    this.ttlMs = ttl;
    this.pollIntervalMs = poll;
    this.maxListenTaskIds = options.maxListenTaskIds ?? 100;
    this.unsubscribe = this.store.subscribe((task) => this.changed(task));
  }

  /** Whether the request served with `context` may be answered with a task: the stateless era, and its own capabilities declare the extension. */
  accepts(context: RequestContext): boolean {
    return (
      context.era === "stateless" &&
      Object.hasOwn(TASK_METHODS, context.method) &&
      hasCapability(context.clientCapabilities, ["extensions", TASKS_EXTENSION_ID])
    );
  }

  /**
   * Makes the request served with `context` a task running `work`; resolves with its `CreateTaskResult` once the
   * store holds the task. Rejects when the request may not become a task (`accepts`), when the caller has its quota
   * of unfinished tasks (-31430, `RuntimeErrorCode.TaskQuotaExceeded`) or the store is full (-32603), unless
   * `whenFull` is given: then its answer is the request's (a task is the server's choice, tasks.md).
   */
  async start(context: RequestContext, work: TaskWork, whenFull?: () => Awaitable<Result>): Promise<Result> {
    const failure = Object.hasOwn(TASK_METHODS, context.method) ? TASK_METHODS[context.method] : undefined;
    const profile = this.revisions.find((p) => p.version === context.revision);
    if (!this.accepts(context) || !failure || !profile)
      throw new ProtocolUsageError(`this ${context.method} request cannot become a task (see TaskEngine.accepts)`);
    const created = Date.now();
    const at = new Date(created).toISOString();
    const task: TaskState = {
      taskId: base64urlFromBytes(crypto.getRandomValues(new Uint8Array(16))),
      status: "working",
      createdAt: at,
      lastUpdatedAt: at,
      ttlMs: this.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
      expiresAt: this.ttlMs === null ? null : created + this.ttlMs,
      owner: principalOf(context.authInfo),
      method: context.method,
      revision: context.revision,
    };
    try {
      await this.store.create(task);
    } catch (error) {
      const refused = error instanceof TaskStoreFullError || error instanceof TaskQuotaError;
      if (whenFull && refused) return whenFull();
      if (error instanceof TaskQuotaError)
        throw new RpcError(
          RuntimeErrorCode.TaskQuotaExceeded,
          `Cannot create a task: ${error.message}; retry when one of them ends`,
          { limit: error.limit },
        );
      throw new RpcError(ErrorCode.InternalError, `Cannot create a task: ${(error as Error).message}`);
    }
    const abort = new AbortController();
    const run: Run = { abort, waiters: new Map(), timer: undefined };
    this.runs.set(task.taskId, run);
    if (task.expiresAt !== null) this.armExpiry(task.taskId, run, task.expiresAt);
    const taskContext = this.contextFor(task.taskId, context, profile, abort.signal);
    setTimeout(() => void this.execute(task.taskId, () => work(taskContext), failure), 0);
    return createTaskResult(task);
  }

  /** `TaskInputPort`: records the input request and resolves with the answer `tasks/update` brings. */
  ask(taskId: string, key: string, request: TaskInputRequest, signal: AbortSignal): Promise<unknown> {
    const run = this.runs.get(taskId);
    if (!run) return Promise.reject(new ProtocolUsageError(`task ${taskId} is not running here`));
    return new Promise((resolve, reject) => {
      const stop = () => (run.waiters.delete(key), reject(signal.reason ?? new Error("the task ended")));
      if (signal.aborted) return stop();
      signal.addEventListener("abort", stop, { once: true });
      run.waiters.set(key, (task) => {
        const answers = task.inputResponses;
        if (!answers || !Object.hasOwn(answers, key)) return;
        run.waiters.delete(key);
        signal.removeEventListener("abort", stop);
        resolve(answers[key]); // validated by tasks/update against the request's result type
      });
      this.store.update(taskId, { type: "ask", requests: { [key]: request } }).then((task) => {
        if (!task) stop();
      }, reject);
    });
  }

  /** Calls `listener` with every change of `taskId` (for `notifications/tasks`); returns the unsubscribe. */
  watch(taskId: string, listener: (task: TaskState) => void): () => void {
    let set = this.watchers.get(taskId);
    if (!set) this.watchers.set(taskId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.watchers.delete(taskId);
    };
  }

  /** Stops every task running here (each ends `failed`: the server shut down) and releases the store. */
  async close(): Promise<void> {
    const error = { code: ErrorCode.InternalError, message: "The server shut down before the task finished" };
    await Promise.all([...this.runs.keys()].map((id) => this.store.update(id, { type: "fail", error })));
    for (const run of this.runs.values()) run.abort.abort(new Error("the server shut down"));
    this.unsubscribe();
    await this.store.close?.();
  }

  private async execute(taskId: string, work: () => Awaitable<Result>, failure: (error: unknown) => Result) {
    try {
      let result: Result;
      try {
        result = await work();
      } catch (error) {
        result = failure(error); // a tool's exception: an isError result, as inline; protocol errors rethrow
      }
      await this.store.update(taskId, { type: "complete", result });
    } catch (error) {
      const rpc = error instanceof RpcError ? error : undefined;
      if (!rpc)
        this.diagnose?.(
          `task ${taskId} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
      const wire = rpc
        ? { code: rpc.code, message: rpc.message, ...(rpc.data === undefined ? {} : { data: rpc.data }) }
        : { code: ErrorCode.InternalError, message: "Internal error" };
      await this.store.update(taskId, { type: "fail", error: wire }).catch(() => undefined);
    } finally {
      this.finish(taskId);
    }
  }

  /** Stops the task just after `expiresAt` (in steps of at most `MAX_TIMER_MS`: longer TTLs are allowed). */
  private armExpiry(taskId: string, run: Run, expiresAt: number): void {
    const delay = expiresAt - Date.now() + 1;
    run.timer =
      delay > MAX_TIMER_MS
        ? setTimeout(() => this.armExpiry(taskId, run, expiresAt), MAX_TIMER_MS)
        : setTimeout(() => this.expire(taskId), Math.max(delay, 0));
    (run.timer as { unref?: () => void }).unref?.();
  }

  /** A task past its TTL stops: it ends `failed` (the store may then drop it). */
  private expire(taskId: string): void {
    const error = { code: ErrorCode.InternalError, message: "The task expired before it finished" };
    void this.store.update(taskId, { type: "fail", error }).catch(() => undefined);
    this.runs.get(taskId)?.abort.abort(new Error("the task expired"));
    this.finish(taskId);
  }

  private finish(taskId: string): void {
    const run = this.runs.get(taskId);
    if (run?.timer) clearTimeout(run.timer);
    this.runs.delete(taskId);
  }

  /** Every change of every task (this process's or, with a shared store, another's). */
  private changed(task: TaskState): void {
    const run = this.runs.get(task.taskId);
    if (run) {
      if (isTerminal(task.status)) run.abort.abort(new Error(`the task is ${task.status}`));
      else for (const waiter of [...run.waiters.values()]) waiter(task);
    }
    for (const listener of this.watchers.get(task.taskId) ?? []) listener(task);
  }

  /** The context the handler runs with as a task: the creating request's, with the task's signal and input. */
  private contextFor(taskId: string, context: RequestContext, profile: RevisionProfile, signal: AbortSignal) {
    const request: IncomingRequest = {
      id: context.requestId,
      method: context.method,
      params: {},
      signal,
      context: {
        ...(context.authInfo ? { authInfo: context.authInfo } : {}),
        ...(context.headers ? { headers: context.headers } : {}),
      },
    };
    const scope = {
      profile,
      clientCapabilities: context.clientCapabilities,
      clientInfo: context.clientInfo,
      serverCapabilities: {},
      logThreshold: undefined,
      input: new TaskInput(this, taskId, profile, context.clientCapabilities, signal),
    };
    return new HandlerContext(request, scope, context.meta, this.hostFor(taskId));
  }

  /** Progress becomes the task's `statusMessage`; logs are not sent for tasks (tasks.md §Task Status Notifications). */
  private hostFor(taskId: string): ContextHost {
    let last = -Infinity;
    return {
      sendProgress: (_context, progress, total, message) => {
        if (!(progress > last)) return Promise.resolve();
        last = progress;
        const text = message ?? (total === undefined ? `${progress}` : `${progress}/${total}`);
        return this.store.update(taskId, { type: "message", statusMessage: text }).then(() => undefined);
      },
      sendLog: () => Promise.resolve(),
      sendElicitationComplete: () => Promise.resolve(false),
    };
  }
}
