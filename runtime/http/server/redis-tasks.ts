/**
 * The Tasks extension's `TaskStore` on Redis (or Valkey), on the connections of a `RedisStateStore` (its `tasks`):
 * several instances of one server then share their tasks, so a `tasks/get`, `tasks/update` or `tasks/cancel` may
 * land on any instance. Each task is one JSON string key expiring at the task's `expiresAt`, listed in an index
 * sorted by expiry that bounds how many live tasks the deployment holds (`maxTasks`), and in its owner's set of
 * unfinished or finished tasks, which bound the owner's unfinished tasks (`maxTasksPerOwner`) and tell a full store
 * which finished task to drop early (the `TaskStore` contract's one exception). The create script reaches the sets
 * of other owners by name, so the store needs one Redis (or a primary with replicas), not a Redis Cluster.
 *
 * A change is `applyTaskChange` (the one transition rule) computed here and written by compare-and-set: a script
 * replaces the state only if it is still the one the change was computed from, and publishes the new state on the
 * task channel in the same step; on a conflict the change is recomputed from the fresh state. Two instances racing
 * on one task therefore never lose an update, and every instance's subscribers hear each change once, in order.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import type { createClient } from "redis";
import {
  applyTaskChange,
  isTerminal,
  TaskQuotaError,
  TaskStoreFullError,
  type TaskChange,
  type TaskState,
  type TaskStore,
} from "../../tasks/server/store.ts";
import { base64urlFromBytes } from "../../transport/base64.ts";

type Client = ReturnType<typeof createClient>;

/**
 * Lua shared by the scripts. `add`: a member scored by its expiry (ARGV-style text, "" = never) into a sorted set
 * that is kept at least as long as its members (`gt`: only ever raise a member's score). `trim`: drops the members
 * expired before `now`.
 */
const HELPERS = `local function trim(key, now) redis.call('ZREMRANGEBYSCORE', key, '-inf', '(' .. now) end
local function add(key, at, member, now, gt)
  local ttl = redis.call('PTTL', key)
  if gt then redis.call('ZADD', key, 'GT', at == '' and '+inf' or at, member)
  else redis.call('ZADD', key, at == '' and '+inf' or at, member) end
  if at == '' then redis.call('PERSIST', key)
  elseif ttl == -2 or (ttl >= 0 and tonumber(now) + ttl < tonumber(at)) then redis.call('PEXPIREAT', key, at) end
end
`;

/**
 * KEYS: task, index, the owner's unfinished tasks, the owner's finished tasks, the owners over quota. ARGV: state,
 * expiresAt ("" = never), now, maxTasks, taskId, maxTasksPerOwner, the owner's key, the key prefix. 1: created;
 * -1: the owner has its quota of unfinished tasks; 0: full, and no owner over quota holds a finished task.
 * Every task is in its owner's unfinished or finished set (scored by expiry); the owners over quota (by held tasks)
 * are listed, scored by the expiry of their latest task, so a full store finds the heaviest among them.
 */
const CREATE = `${HELPERS}
local now, quota, prefix = ARGV[3], tonumber(ARGV[6]), ARGV[8]
local function held(owner)
  local unfinished, finished = prefix .. 'owner:' .. owner .. ':working', prefix .. 'owner:' .. owner .. ':done'
  trim(unfinished, now) trim(finished, now)
  return redis.call('ZCARD', unfinished), redis.call('ZCARD', finished), finished
end
local working, done = held(ARGV[7])
if working >= quota then return -1 end
trim(KEYS[2], now)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[4]) then
  trim(KEYS[5], now)
  local heaviest, most = nil, quota
  for _, owner in ipairs(redis.call('ZREVRANGE', KEYS[5], 0, 999)) do
    local w, d, finished = held(owner)
    if w + d <= quota then redis.call('ZREM', KEYS[5], owner)
    elseif w + d > most and d > 0 then heaviest, most = finished, w + d end
  end
  if not heaviest then return 0 end
  local victim = redis.call('ZRANGE', heaviest, 0, 0)[1]
  redis.call('DEL', prefix .. 'task:' .. victim)
  redis.call('ZREM', KEYS[2], victim)
  redis.call('ZREM', heaviest, victim)
  working, done = held(ARGV[7])
end
if ARGV[2] == '' then redis.call('SET', KEYS[1], ARGV[1]) else redis.call('SET', KEYS[1], ARGV[1], 'PXAT', ARGV[2]) end
add(KEYS[2], ARGV[2], ARGV[5], now, false)
add(KEYS[3], ARGV[2], ARGV[5], now, false)
if working + 1 + done > quota then add(KEYS[5], ARGV[2], ARGV[7], now, true) end
return 1`;

/**
 * KEYS: task, the owner's unfinished tasks, its finished tasks. ARGV: the state the change was computed from, the
 * new state, the channel, "1" when the change ends the task, taskId, expiresAt ("" = never), now. 1: written; 0:
 * changed meanwhile.
 */
const COMPARE_AND_SET = `${HELPERS}
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
if ARGV[4] == '1' then
  redis.call('ZREM', KEYS[2], ARGV[5])
  add(KEYS[3], ARGV[6], ARGV[5], ARGV[7], false)
end
redis.call('PUBLISH', ARGV[3], ARGV[2])
return 1`;

/** Conflicting writers on one task retry this often before the change fails (each retry means another won). */
const MAX_ATTEMPTS = 50;

export interface RedisTaskStoreOptions {
  /** Most live tasks the deployment holds (all instances together). Default 100,000. */
  readonly maxTasks?: number;
  /**
   * Most unfinished tasks one owner may have at once, deployment-wide (default 100); more is `TaskQuotaError`. An
   * owner holding more tasks than this, finished ones included, is the first to lose a finished one when full.
   */
  readonly maxTasksPerOwner?: number;
}

export class RedisTaskStore implements TaskStore {
  private readonly listeners = new Set<(task: TaskState) => void>();
  /**
   * The tasks created here that have not ended, with the last state heard of each: their handlers run here, so a
   * change published while the subscriber was reconnecting (a cancel, an input answer) is read back by `resync`.
   */
  private readonly local = new Map<string, string>();
  private readonly maxTasks: number;
  private readonly maxTasksPerOwner: number;

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
    this.maxTasksPerOwner = options.maxTasksPerOwner ?? 100;
    if (!(Number.isSafeInteger(this.maxTasksPerOwner) && this.maxTasksPerOwner > 0))
      throw new Error("maxTasksPerOwner must be a positive integer");
  }

  async create(task: TaskState): Promise<void> {
    const owner = ownerKey(task.owner);
    const created = await this.run(() =>
      this.client().eval(CREATE, {
        keys: [
          this.key(task.taskId),
          `${this.prefix}tasks`,
          this.ownerSet(owner, "working"),
          this.ownerSet(owner, "done"),
          `${this.prefix}owners-over-quota`,
        ],
        arguments: [
          JSON.stringify(task),
          task.expiresAt === null ? "" : String(task.expiresAt),
          String(Date.now()),
          String(this.maxTasks),
          task.taskId,
          String(this.maxTasksPerOwner),
          owner,
          this.prefix,
        ],
      }),
    );
    if (created === -1) throw new TaskQuotaError(this.maxTasksPerOwner);
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
      const owner = ownerKey(task.owner);
      const ends = isTerminal(next.status) ? "1" : "0"; // `task` is not terminal: applyTaskChange changed it
      const written = await this.run(() =>
        this.client().eval(COMPARE_AND_SET, {
          keys: [key, this.ownerSet(owner, "working"), this.ownerSet(owner, "done")],
          arguments: [
            before,
            after,
            this.channel,
            ends,
            taskId,
            task.expiresAt === null ? "" : String(task.expiresAt),
            String(Date.now()),
          ],
        }),
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

  /** The sorted set of an owner's unfinished (`working`) or finished (`done`) tasks; CREATE spells it too. */
  private ownerSet(owner: string, which: "working" | "done"): string {
    return `${this.prefix}owner:${owner}:${which}`;
  }
}

/** An owner as a key part: a digest, so any principal (of any length or text) is a short, fixed-alphabet key. */
function ownerKey(owner: string): string {
  return base64urlFromBytes(sha256(new TextEncoder().encode(owner)));
}
