/**
 * The engine's outgoing requests that wait for a response: correlation by id, and their timeouts (a per-request
 * timeout, optionally reset by progress, under an optional cap on the total). One timer serves every deadline.
 */
import type { JsonRpcId } from "../jsonrpc/messages.ts";
import type { RequestOptions } from "./engine-contract.ts";

export interface Pending {
  readonly id: number;
  readonly method: string;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
  readonly options: RequestOptions | undefined;
  readonly startedAt: number;
  /** When the request times out (`Date.now()` time), or Infinity. */
  deadline: number;
  onAbort: (() => void) | undefined;
}

/** Every `OutgoingRequests` that never sent a request shares this empty map (never written: `add` replaces it). */
const NONE: ReadonlyMap<JsonRpcId, Pending> = new Map();

export class OutgoingRequests {
  /** NONE until the first request: most sessions never send one, and an idle session stays small. */
  private entries = NONE as Map<JsonRpcId, Pending>;
  /**
   * One timer for every outgoing request's timeout, armed for the earliest deadline (a timer per request cost
   * ~0.3 µs to arm and clear, on every request). Unreferenced while nothing is pending, so it never keeps the
   * process alive on its own.
   */
  private sweepTimer: ReturnType<typeof setTimeout> | undefined;
  private sweepAt = Infinity;
  private stopped = false;

  constructor(
    private readonly defaultTimeoutMs: number,
    /** A request passed its deadline (still pending: the callback settles it). */
    private readonly onTimeout: (entry: Pending, elapsedMs: number) => void,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(id: JsonRpcId): Pending | undefined {
    return this.entries.get(id);
  }

  add(entry: Pending): void {
    if (this.entries === NONE) this.entries = new Map();
    this.entries.set(entry.id, entry);
    if (this.entries.size === 1) this.sweepTimer?.ref();
    this.arm(entry);
  }

  /** (Re)starts the request's timeout from now. */
  arm(entry: Pending): void {
    const timeout = entry.options?.timeoutMs ?? this.defaultTimeoutMs;
    const cap = entry.options?.maxTotalTimeoutMs;
    const now = Date.now();
    let wait = timeout > 0 ? timeout : Infinity;
    if (cap !== undefined) wait = Math.min(wait, cap - (now - entry.startedAt));
    entry.deadline = now + Math.max(0, wait);
    if (entry.deadline < this.sweepAt) this.scheduleSweep(entry.deadline, now);
  }

  /** Ends the request with its result or error. */
  settle(entry: Pending, result: unknown, error: Error | undefined): void {
    this.entries.delete(entry.id);
    if (this.entries.size === 0) this.sweepTimer?.unref();
    if (entry.onAbort) entry.options?.signal?.removeEventListener("abort", entry.onAbort);
    if (error) entry.reject(error);
    else entry.resolve(result);
  }

  /** The connection closed: no more timeouts; every request still waiting fails with `failure()`. */
  stop(failure: () => Error): void {
    this.stopped = true;
    if (this.sweepTimer) clearTimeout(this.sweepTimer);
    this.sweepTimer = undefined;
    if (this.entries.size === 0) return;
    const error = failure();
    for (const entry of [...this.entries.values()]) this.settle(entry, undefined, error);
  }

  private scheduleSweep(at: number, now: number): void {
    if (this.sweepTimer) clearTimeout(this.sweepTimer);
    this.sweepAt = at;
    // Only scheduled with a request pending, so the timer starts ref'd; `unref` follows the last request out.
    // `this` as the timer's argument: no bound callback kept per instance.
    this.sweepTimer = setTimeout(OutgoingRequests.sweep, Math.max(0, at - now), this);
  }

  /** Times out every request past its deadline and re-arms for the next one. */
  private static sweep(self: OutgoingRequests): void {
    self.sweepTimer = undefined;
    self.sweepAt = Infinity;
    const now = Date.now();
    let next = Infinity;
    for (const entry of self.entries.values()) {
      if (entry.deadline <= now) self.onTimeout(entry, now - entry.startedAt);
      else if (entry.deadline < next) next = entry.deadline;
    }
    if (next !== Infinity && !self.stopped) self.scheduleSweep(next, now);
  }
}
