/**
 * The default task store: one process's memory, bounded (`maxTasks`, and `maxTasksPerOwner` unfinished tasks per
 * owner) and swept of expired tasks (lazily on each create, and by an unref'd timer every `sweepIntervalMs`). A task
 * is never dropped before its `expiresAt`, except the one exception of the `TaskStore` contract: when full, the
 * finished task that expires first of the owner holding the most tasks, if that is more than its quota.
 * Several processes serving one endpoint need a shared store instead (same `TaskStore` interface).
 */
import {
  applyTaskChange,
  isTerminal,
  TaskQuotaError,
  TaskStoreFullError,
  type TaskChange,
  type TaskState,
  type TaskStore,
} from "./store.ts";

export interface InMemoryTaskStoreOptions {
  /** Most tasks held at once, expired ones not counted once swept (default 10,000). Creating more fails. */
  readonly maxTasks?: number;
  /**
   * Most unfinished tasks one owner (`TaskState.owner`) may have at once (default 100); creating more fails with
   * `TaskQuotaError`. An owner holding more tasks than this (finished ones included) is the first to lose a
   * finished task when the store is full.
   */
  readonly maxTasksPerOwner?: number;
  /** How often expired tasks are swept (default 60,000 ms). */
  readonly sweepIntervalMs?: number;
  /** The clock (tests). Default `Date.now`. */
  readonly now?: () => number;
}

/** What one owner holds: its task ids in creation order, and how many of them are unfinished. */
interface Holding {
  readonly ids: Set<string>;
  unfinished: number;
}

export class InMemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, TaskState>();
  private readonly owners = new Map<string, Holding>();
  private readonly listeners = new Set<(task: TaskState) => void>();
  private readonly maxTasks: number;
  private readonly maxTasksPerOwner: number;
  private readonly now: () => number;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(options: InMemoryTaskStoreOptions = {}) {
    this.maxTasks = options.maxTasks ?? 10_000;
    this.maxTasksPerOwner = options.maxTasksPerOwner ?? 100;
    if (!(Number.isSafeInteger(this.maxTasksPerOwner) && this.maxTasksPerOwner > 0))
      throw new Error("maxTasksPerOwner must be a positive integer");
    this.now = options.now ?? Date.now;
    const every = options.sweepIntervalMs ?? 60_000;
    if (every > 0) {
      this.timer = setInterval(() => this.sweep(), every);
      (this.timer as { unref?: () => void }).unref?.();
    }
  }

  /** Tasks held now (expired ones included until swept). */
  get size(): number {
    return this.tasks.size;
  }

  create(task: TaskState): Promise<void> {
    if ((this.owners.get(task.owner)?.unfinished ?? 0) >= this.maxTasksPerOwner) this.sweep();
    if ((this.owners.get(task.owner)?.unfinished ?? 0) >= this.maxTasksPerOwner)
      return Promise.reject(new TaskQuotaError(this.maxTasksPerOwner));
    if (this.tasks.size >= this.maxTasks) this.sweep();
    if (this.tasks.size >= this.maxTasks && !this.dropOverQuota())
      return Promise.reject(new TaskStoreFullError(this.maxTasks));
    this.tasks.set(task.taskId, task);
    let holding = this.owners.get(task.owner);
    if (!holding) this.owners.set(task.owner, (holding = { ids: new Set(), unfinished: 0 }));
    holding.ids.add(task.taskId);
    if (!isTerminal(task.status)) holding.unfinished++;
    return Promise.resolve();
  }

  get(taskId: string): Promise<TaskState | undefined> {
    return Promise.resolve(this.live(taskId));
  }

  update(taskId: string, change: TaskChange): Promise<TaskState | undefined> {
    const task = this.live(taskId);
    if (!task) return Promise.resolve(undefined);
    const next = applyTaskChange(task, change, new Date(this.now()));
    if (!next) return Promise.resolve(task);
    this.tasks.set(taskId, next);
    if (isTerminal(next.status)) this.owners.get(task.owner)!.unfinished--; // a task ends once
    for (const listener of this.listeners) listener(next);
    return Promise.resolve(next);
  }

  subscribe(listener: (task: TaskState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    return Promise.resolve();
  }

  /** Drops every task past its `expiresAt`. */
  sweep(): void {
    const now = this.now();
    for (const task of this.tasks.values()) if (task.expiresAt !== null && task.expiresAt < now) this.drop(task);
  }

  private live(taskId: string): TaskState | undefined {
    const task = this.tasks.get(taskId);
    if (task && task.expiresAt !== null && task.expiresAt < this.now()) {
      this.drop(task);
      return undefined;
    }
    return task;
  }

  /**
   * Makes room in a full store: drops the finished task expiring first of the owner holding the most tasks, when
   * that is more than `maxTasksPerOwner` (it then has a finished one: it has at most that many unfinished).
   */
  private dropOverQuota(): boolean {
    let heaviest: Holding | undefined;
    for (const holding of this.owners.values())
      if (holding.ids.size > (heaviest?.ids.size ?? this.maxTasksPerOwner)) heaviest = holding;
    if (!heaviest) return false;
    let first: TaskState | undefined;
    for (const id of heaviest.ids) {
      const task = this.tasks.get(id)!;
      if (isTerminal(task.status) && (first === undefined || expiresBefore(task, first))) first = task;
    }
    if (!first) return false;
    this.drop(first);
    return true;
  }

  private drop(task: TaskState): void {
    this.tasks.delete(task.taskId);
    const holding = this.owners.get(task.owner);
    if (!holding?.ids.delete(task.taskId)) return;
    if (!isTerminal(task.status)) holding.unfinished--;
    if (holding.ids.size === 0) this.owners.delete(task.owner);
  }
}

/** Whether `a` expires before `b` (a task without TTL never does). */
function expiresBefore(a: TaskState, b: TaskState): boolean {
  return a.expiresAt !== null && (b.expiresAt === null || a.expiresAt < b.expiresAt);
}
