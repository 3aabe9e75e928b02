/**
 * The Tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) on the client. A client opts in by listing
 * `tasksClient()` in `ClientOptions.extensions`; every stateless-era request then declares it in its `_meta`,
 * and the server may answer a `tools/call` with a `CreateTaskResult` (`resultType: "task"`) instead of the result.
 * This module turns such an answer into a `TaskHandle`: it polls `tasks/get` at the server's `pollIntervalMs` (or
 * follows `notifications/tasks` on a `subscriptions/listen` stream, when asked to and the server agrees), answers
 * `input_required` tasks with the client's own elicitation/sampling/roots handlers through `tasks/update` (each key
 * once), cancels with `tasks/cancel`, and settles with the original request's validated result, or the error the
 * request would have thrown (task-errors.ts). The client lends what it owns through `TaskHost` (feature.ts).
 */
import { asError, ErrorCode, ProtocolUsageError, RpcError } from "../../jsonrpc/errors.ts";
import { InvalidMessageError } from "../../protocol/validation.ts";
import type { DetailedTask, TaskStatus } from "../../generated/extensions/tasks/types.ts";
import type { RequestFacts } from "../../client/era.ts";
import { TaskCancelledError, TaskExpiredError, TaskFailedError } from "./task-errors.ts";
import { pause, until, type TaskHandle, type WaitOptions } from "./task-handle.ts";

export type { DetailedTask, TaskStatus } from "../../generated/extensions/tasks/types.ts";
export { mapTask, settledTask, type TaskHandle, type WaitOptions } from "./task-handle.ts";

/** What an `input_required` task asks the client (the base revision's `InputRequests`). */
type InputRequests = Extract<DetailedTask, { status: "input_required" }>["inputRequests"];

/** The requests a server may answer with a task (tasks.md §Supported Methods). */
const TASK_ELIGIBLE: ReadonlySet<string> = new Set(["tools/call"]);

const TERMINAL: ReadonlySet<TaskStatus> = new Set(["completed", "failed", "cancelled"]);
const STATUSES: ReadonlySet<string> = new Set(["working", "input_required", ...TERMINAL]);

/** How the client follows its tasks (`tasksClient(options)`). Every limit has a default. */
export interface TaskOptions {
  /** Poll interval when the server suggests none (default 1000 ms). */
  readonly defaultPollIntervalMs?: number;
  /** The server's `pollIntervalMs` is honoured within these bounds (defaults 50 ms and 60 000 ms). */
  readonly minPollIntervalMs?: number;
  readonly maxPollIntervalMs?: number;
  /** Most `tasks/update` rounds answering a task's input requests before the task is cancelled (default 32). */
  readonly maxInputRounds?: number;
  /**
   * Follow `notifications/tasks` on a `subscriptions/listen` stream instead of polling (default false). A server that
   * does not agree to the task's id in its acknowledgement is polled, and so is one whose stream ends.
   */
  readonly notifications?: boolean;
}

/** What the client lends the task driver. */
export interface TaskHost {
  /** The negotiated revision is of the stateless era, the only one tasks exist in (SEP-2663 §Backward Compatibility). */
  readonly stateless: boolean;
  /** Sends an extension request (`tasks/get|update|cancel`) through the connection: routing, `_meta`, validation. */
  request(method: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>>;
  /** Answers input requests with the client's handlers, as for a multi round-trip request. */
  answer(requests: InputRequests, signal: AbortSignal, forMethod: string): Promise<Record<string, unknown>>;
  /** A completed task's `result`, validated as the complete result of the request that created the task. */
  complete(result: unknown, facts: RequestFacts): Record<string, unknown>;
  /** Listens to a server notification (validated by the negotiated extension's token). */
  on(method: string, listener: (params: unknown) => void): () => void;
  /** Opens `subscriptions/listen` for `taskIds`; resolves with the ids the server agreed to and the stream's end. */
  listen(taskIds: readonly string[], signal: AbortSignal): Promise<{ agreed: readonly string[]; ended: Promise<void> }>;
}

/** Creates task handles for one connection. */
export class ClientTasks {
  constructor(
    private readonly host: TaskHost,
    private readonly options: TaskOptions = {},
  ) {}

  /**
   * The handle of the task `raw` creates (a `CreateTaskResult`), else undefined. A `CreateTaskResult` the server was
   * not allowed to send (a method that cannot become a task, or a client that did not declare the extension) is an
   * invalid response (tasks.md §Capability Negotiation). `signal`, when given, cancels the task when it aborts.
   */
  created<R>(raw: unknown, facts: RequestFacts, signal?: AbortSignal): TaskHandle<R> | undefined {
    if ((raw as { resultType?: unknown } | undefined)?.resultType !== "task") return undefined;
    if (!this.host.stateless || !TASK_ELIGIBLE.has(facts.method)) {
      throw new InvalidMessageError(`${facts.method} result`, [
        { path: ["resultType"], message: "a task was created for a request that cannot run as one" },
      ]);
    }
    const { resultType: _, ...task } = raw as Record<string, unknown>;
    return new RemoteTask<R>(this.host, this.options, facts, checkTask(task, facts.method), signal);
  }

  /** A handle for a task created earlier (its id persisted): asks the server for its state first. */
  async resume<R>(taskId: string, facts: RequestFacts, signal?: AbortSignal): Promise<TaskHandle<R>> {
    const raw = await this.host.request("tasks/get", { taskId }, signal);
    const { resultType: _, ...state } = raw;
    return new RemoteTask<R>(this.host, this.options, facts, state as unknown as DetailedTask, signal);
  }
}

/**
 * A `CreateTaskResult` (Result & Task): its `Task` fields checked here, since the extension's own validators are
 * not part of every client's bundle (the state `tasks/get` answers is validated by the extension's token).
 */
function checkTask(task: Record<string, unknown>, method: string): DetailedTask {
  const issues: { path: string[]; message: string }[] = [];
  const need = (field: string, ok: boolean, expected: string) => {
    if (!ok) issues.push({ path: [field], message: `expected ${expected}` });
  };
  const int = (v: unknown) => typeof v === "number" && Number.isInteger(v);
  need("taskId", typeof task["taskId"] === "string" && task["taskId"] !== "", "a non-empty string");
  need("status", typeof task["status"] === "string" && STATUSES.has(task["status"]), "a task status");
  need("createdAt", typeof task["createdAt"] === "string", "a string");
  need("lastUpdatedAt", typeof task["lastUpdatedAt"] === "string", "a string");
  need("ttlMs", task["ttlMs"] === null || int(task["ttlMs"]), "an integer or null");
  need("pollIntervalMs", task["pollIntervalMs"] === undefined || int(task["pollIntervalMs"]), "an integer");
  if (issues.length > 0) throw new InvalidMessageError(`${method} CreateTaskResult`, issues);
  return task as unknown as DetailedTask;
}

function isTerminal(state: DetailedTask): boolean {
  return TERMINAL.has(state.status);
}

class RemoteTask<R> implements TaskHandle<R> {
  readonly taskId: string;
  private current: DetailedTask;
  private running: Promise<R> | undefined;
  /** Aborted by `cancel()`: stops the driver and anything it awaits. */
  private readonly stop = new AbortController();
  private readonly listeners = new Set<(state: DetailedTask) => void>();
  /** Input request keys answered (or being answered): each key is answered once (tasks.md §Task Update Requests). */
  private readonly answered = new Set<string>();
  private rounds = 0;
  private wake: { promise: Promise<void>; resolve: () => void } = wakeUp();

  constructor(
    private readonly host: TaskHost,
    private readonly options: TaskOptions,
    private readonly facts: RequestFacts,
    state: DetailedTask,
    bound: AbortSignal | undefined,
  ) {
    this.taskId = state.taskId;
    this.current = state;
    if (bound?.aborted) void this.cancel().catch(() => undefined);
    else bound?.addEventListener("abort", () => void this.cancel().catch(() => undefined), { once: true });
  }

  get state(): DetailedTask {
    return this.current;
  }

  async status(options: WaitOptions = {}): Promise<TaskStatus> {
    return (await this.poll(options.signal)).status;
  }

  result(options: WaitOptions = {}): Promise<R> {
    this.running ??= this.drive();
    return until(this.running, options.signal);
  }

  cancel(): Promise<void> {
    return this.abandon(new TaskCancelledError(this.facts.method, this.taskId, "cancelled by the client"));
  }

  /** Stops following the task (a pending `result()` rejects with `reason`) and cancels it on the server. */
  private async abandon(reason: Error): Promise<void> {
    if (this.stop.signal.aborted || isTerminal(this.current)) return;
    this.stop.abort(reason);
    // tasks.md §Task Cancellation: tasks/cancel only (never notifications/cancelled); the client may forget the task.
    await this.host.request("tasks/cancel", { taskId: this.taskId });
  }

  onChange(listener: (state: DetailedTask) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Records a newer state (a terminal one is final) and wakes the driver. */
  private observe(state: DetailedTask): DetailedTask {
    if (state.taskId !== this.taskId || isTerminal(this.current)) return this.current;
    this.current = state;
    for (const listener of this.listeners) listener(state);
    const woken = this.wake;
    this.wake = wakeUp();
    woken.resolve();
    return state;
  }

  /** One `tasks/get`. The server forgetting a task whose TTL has elapsed is its expiry. */
  private async poll(signal?: AbortSignal): Promise<DetailedTask> {
    try {
      const { resultType: _, ...state } = await this.host.request("tasks/get", { taskId: this.taskId }, signal);
      return this.observe(state as unknown as DetailedTask);
    } catch (error) {
      if (error instanceof RpcError && error.code === ErrorCode.InvalidParams && this.expired())
        throw new TaskExpiredError(this.taskId, error);
      throw error;
    }
  }

  private expired(): boolean {
    const { ttlMs, createdAt } = this.current;
    return ttlMs !== null && Date.now() >= Date.parse(createdAt) + ttlMs;
  }

  private interval(): number {
    const { defaultPollIntervalMs = 1000, minPollIntervalMs = 50, maxPollIntervalMs = 60_000 } = this.options;
    const suggested = this.current.pollIntervalMs ?? defaultPollIntervalMs;
    return Math.min(Math.max(suggested, minPollIntervalMs), maxPollIntervalMs);
  }

  private async drive(): Promise<R> {
    const signal = this.stop.signal;
    if (signal.aborted) throw signal.reason;
    const stream = this.options.notifications ? await this.follow(signal) : undefined;
    try {
      for (let state = this.current; ;) {
        if (signal.aborted) throw signal.reason;
        if (isTerminal(state)) return this.settle(state);
        if (state.status === "input_required" && (await this.answer(state.inputRequests, signal))) {
          state = await this.poll(signal); // read the update's effect at once (the ack may be eventually consistent)
          continue;
        }
        const wake = this.wake.promise;
        // Following notifications: the next state arrives by itself; poll again only once the stream has ended.
        if (stream?.open) await pause(2 ** 31 - 1, signal, Promise.race([wake, stream.ended]));
        else await pause(this.interval(), signal, wake);
        state = this.current !== state ? this.current : await this.poll(signal);
      }
    } catch (error) {
      throw signal.aborted ? signal.reason : error; // cancelled while a request was in flight
    } finally {
      stream?.close();
    }
  }

  /** Subscribes to this task's `notifications/tasks`; undefined when the server does not agree. */
  private async follow(signal: AbortSignal) {
    const controller = new AbortController();
    const abort = () => controller.abort();
    signal.addEventListener("abort", abort, { once: true });
    const off = this.host.on("notifications/tasks", (params) => this.observe(params as DetailedTask));
    const close = () => {
      off();
      controller.abort();
      signal.removeEventListener("abort", abort);
    };
    try {
      const { agreed, ended } = await this.host.listen([this.taskId], controller.signal);
      if (!agreed.includes(this.taskId)) return void close();
      const stream = { open: true, ended: ended.catch(() => undefined), close };
      void stream.ended.then(() => (stream.open = false));
      // A change between the create answer and the acknowledgement was sent to no stream: read it once.
      await this.poll(signal);
      return stream;
    } catch {
      close(); // no subscriptions (or refused): polling it is
      return undefined;
    }
  }

  /** Answers the keys not answered yet; false when there were none (the server has not seen the answers yet). */
  private async answer(requests: InputRequests | undefined, signal: AbortSignal): Promise<boolean> {
    const fresh = Object.entries(requests ?? {}).filter(([key]) => !this.answered.has(key));
    if (fresh.length === 0) return false;
    if (++this.rounds > (this.options.maxInputRounds ?? 32)) {
      const reason = new ProtocolUsageError(
        `${this.facts.method}: task ${this.taskId} still requires input after ${this.rounds - 1} rounds`,
      );
      await this.abandon(reason).catch(() => undefined);
      throw reason;
    }
    for (const [key] of fresh) this.answered.add(key);
    let inputResponses: Record<string, unknown>;
    try {
      inputResponses = await this.host.answer(Object.fromEntries(fresh) as InputRequests, signal, this.facts.method);
    } catch (error) {
      // A request this client cannot answer leaves the task stuck: give it up.
      await this.abandon(asError(error)).catch(() => undefined);
      throw error;
    }
    await this.host.request("tasks/update", { taskId: this.taskId, inputResponses }, signal);
    return true;
  }

  private settle(state: DetailedTask): R {
    if (state.status === "completed") return this.host.complete(state.result, this.facts) as R;
    if (state.status === "failed") throw new TaskFailedError(this.taskId, state.error, state.statusMessage);
    throw new TaskCancelledError(this.facts.method, this.taskId, state.statusMessage ?? "cancelled by the server");
  }
}

function wakeUp(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
