/**
 * The Tasks extension's `TaskStore` on Redis (or Valkey), on the connections of a `RedisStateStore` (its `tasks`):
 * several instances of one server then share their tasks, so a `tasks/get`, `tasks/update` or `tasks/cancel` may
 * land on any instance. Each task is one JSON string key expiring at the task's `expiresAt` (never earlier), listed
 * in an index sorted by expiry that bounds how many live tasks the deployment holds (`maxTasks`).
 *
 * A change is `applyTaskChange` (the one transition rule) computed here and written by compare-and-set: a script
 * replaces the state only if it is still the one the change was computed from, and publishes the new state on the
 * task channel in the same step; on a conflict the change is recomputed from the fresh state. Two instances racing
 * on one task therefore never lose an update, and every instance's subscribers hear each change once, in order.
 */
import type { createClient } from "redis";
import {
  applyTaskChange,
  isTerminal,
  TaskStoreFullError,
  type TaskChange,
  type TaskState,
  type TaskStore,
} from "../../server/tasks/store.ts";

type Client = ReturnType<typeof createClient>;

/** KEYS: task, index. ARGV: state, expiresAt ("" = never), now, maxTasks, taskId. 0 when full. */
const CREATE = `redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. ARGV[3])
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then return 0 end
if ARGV[2] == '' then
  redis.call('SET', KEYS[1], ARGV[1])
  redis.call('ZADD', KEYS[2], '+inf', ARGV[5])
else
  redis.call('SET', KEYS[1], ARGV[1], 'PXAT', ARGV[2])
  redis.call('ZADD', KEYS[2], ARGV[2], ARGV[5])
end
return 1`;

/** KEYS: task. ARGV: the state the change was computed from, the new state, the channel. 1: written; 0: changed. */
const COMPARE_AND_SET = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
redis.call('PUBLISH', ARGV[3], ARGV[2])
return 1`;

/** Conflicting writers on one task retry this often before the change fails (each retry means another won). */
const MAX_ATTEMPTS = 50;

export interface RedisTaskStoreOptions {
  /** Most live tasks the deployment holds (all instances together). Default 100,000. */
  readonly maxTasks?: number;
}

export class RedisTaskStore implements TaskStore {
  private readonly listeners = new Set<(task: TaskState) => void>();
  /**
   * The tasks created here that have not ended, with the last state heard of each: their handlers run here, so a
   * change published while the subscriber was reconnecting (a cancel, an input answer) is read back by `resync`.
   */
  private readonly local = new Map<string, string>();
  private readonly maxTasks: number;

  /**
   * `client` runs commands; `run` maps their failures (to `StoreUnavailableError`); the owner feeds `heard` with what
   * arrives on `channel`.
   */
  constructor(
    private readonly client: () => Client,
    private readonly prefix: string,
    readonly channel: string,
    private readonly run: <T>(work: () => Promise<T>) => Promise<T>,
    options: RedisTaskStoreOptions = {},
  ) {
    this.maxTasks = options.maxTasks ?? 100_000;
  }

  async create(task: TaskState): Promise<void> {
    const created = await this.run(() =>
      this.client().eval(CREATE, {
        keys: [this.key(task.taskId), `${this.prefix}tasks`],
        arguments: [
          JSON.stringify(task),
          task.expiresAt === null ? "" : String(task.expiresAt),
          String(Date.now()),
          String(this.maxTasks),
          task.taskId,
        ],
      }),
    );
    if (created !== 1) throw new TaskStoreFullError(this.maxTasks);
    this.local.set(task.taskId, JSON.stringify(task));
  }

  async get(taskId: string): Promise<TaskState | undefined> {
    const text = await this.run(() => this.client().get(this.key(taskId)));
    return text === null ? undefined : (JSON.parse(text) as TaskState);
  }

  async update(taskId: string, change: TaskChange): Promise<TaskState | undefined> {
    const key = this.key(taskId);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const before = await this.run(() => this.client().get(key));
      if (before === null) return undefined;
      const task = JSON.parse(before) as TaskState;
      const next = applyTaskChange(task, change, new Date());
      if (!next) return task;
      const after = JSON.stringify(next);
      const written = await this.run(() =>
        this.client().eval(COMPARE_AND_SET, { keys: [key], arguments: [before, after, this.channel] }),
      );
      if (written === 1) return next;
    }
    throw new Error(`task ${taskId}: the change lost ${MAX_ATTEMPTS} races in a row`);
  }

  subscribe(listener: (task: TaskState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Listeners only: the connections belong to the `RedisStateStore`. */
  close(): Promise<void> {
    this.listeners.clear();
    return Promise.resolve();
  }

  /** A state published on the task channel (by any instance). */
  heard(text: string): void {
    let task: TaskState;
    try {
      task = JSON.parse(text) as TaskState;
    } catch {
      return;
    }
    if (this.local.has(task.taskId)) {
      if (isTerminal(task.status)) this.local.delete(task.taskId);
      else this.local.set(task.taskId, text);
    }
    for (const listener of [...this.listeners]) listener(task);
  }

  /**
   * After the subscriber (re)subscribed: each task created here whose stored state differs from the last one heard
   * changed while nothing was listening (pub/sub keeps nothing), so its listeners get the current state now.
   */
  async resync(): Promise<void> {
    await Promise.all(
      [...this.local].map(async ([taskId, last]) => {
        const now = await this.run(() => this.client().get(this.key(taskId)));
        if (now === null) this.local.delete(taskId);
        else if (now !== last) this.heard(now);
      }),
    );
  }

  private key(taskId: string): string {
    return `${this.prefix}task:${taskId}`;
  }
}
