/**
 * The default task store: one process's memory, bounded (`maxTasks`) and swept of expired tasks (lazily on each
 * create, and by an unref'd timer every `sweepIntervalMs`). A task is never dropped before its `expiresAt`.
 * Several processes serving one endpoint need a shared store instead (same `TaskStore` interface).
 */
import { applyTaskChange, TaskStoreFullError, type TaskChange, type TaskState, type TaskStore } from "./store.ts";

export interface InMemoryTaskStoreOptions {
  /** Most tasks held at once, expired ones not counted once swept (default 10,000). Creating more fails. */
  readonly maxTasks?: number;
  /** How often expired tasks are swept (default 60,000 ms). */
  readonly sweepIntervalMs?: number;
  /** The clock (tests). Default `Date.now`. */
  readonly now?: () => number;
}

export class InMemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, TaskState>();
  private readonly listeners = new Set<(task: TaskState) => void>();
  private readonly maxTasks: number;
  private readonly now: () => number;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(options: InMemoryTaskStoreOptions = {}) {
    this.maxTasks = options.maxTasks ?? 10_000;
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
    if (this.tasks.size >= this.maxTasks) this.sweep();
    if (this.tasks.size >= this.maxTasks) return Promise.reject(new TaskStoreFullError(this.maxTasks));
    this.tasks.set(task.taskId, task);
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
    for (const [id, task] of this.tasks) if (task.expiresAt !== null && task.expiresAt < now) this.tasks.delete(id);
  }

  private live(taskId: string): TaskState | undefined {
    const task = this.tasks.get(taskId);
    if (task && task.expiresAt !== null && task.expiresAt < this.now()) {
      this.tasks.delete(taskId);
      return undefined;
    }
    return task;
  }
}
