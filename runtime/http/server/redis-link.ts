/**
 * One connection of the Redis store that cannot leave its callers waiting. Every call has a deadline: node-redis's own
 * command timeout covers only commands not yet written to the socket, so a paused or hung Redis (SIGSTOP, a stalled
 * network) would keep written ones waiting for ever. A keep-alive sends a probe every `keepAliveMs`; a connection
 * whose probe gets no reply within the deadline, or that stays unready (a handshake nobody answers), is torn down and
 * opened anew, which fails whatever still waits on it at once.
 */
import type { createClient } from "redis";

type Client = ReturnType<typeof createClient>;

/** A store call got no reply within its deadline. */
export class DeadlineError extends Error {
  constructor(ms: number) {
    super(`Redis did not reply within ${ms} ms`);
    this.name = "DeadlineError";
  }
}

/** `work`, or a `DeadlineError` once `ms` have passed without it settling. */
export function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(ms)), ms);
    timer.unref?.();
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

export interface LinkOptions {
  readonly deadlineMs: number;
  readonly keepAliveMs: number;
  /** Done once on each new connection before it serves: subscriptions. */
  readonly setUp?: (client: Client) => Promise<unknown>;
  /** What the keep-alive sends: a PING, or the instance's heartbeat. */
  readonly probe: (client: Client) => Promise<unknown>;
  readonly onError: (error: unknown) => void;
}

export class RedisLink {
  client!: Client;
  /** Settles once the current connection is up and set up (or failed). */
  connected!: Promise<unknown>;
  private readonly timer: ReturnType<typeof setInterval>;
  private probing = false;
  private unreadySince: number | undefined;
  private closed = false;

  constructor(
    private readonly make: () => Client,
    private readonly options: LinkOptions,
  ) {
    this.open();
    this.timer = setInterval(() => void this.check(), options.keepAliveMs);
    this.timer.unref?.();
  }

  /** A call on this connection missed its deadline: probe now rather than at the next tick. */
  suspect(): void {
    void this.check();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await withDeadline(this.client.close(), this.options.deadlineMs).catch(() => this.client.destroy());
  }

  private open(): void {
    const client = this.make();
    // Without an error listener node-redis turns a lost connection into an uncaught exception.
    client.on("error", (error: unknown) => this.options.onError(error));
    this.client = client;
    const setUp = this.options.setUp;
    this.connected = client
      .connect()
      .then(() => setUp?.(client))
      .catch((error: unknown) => {
        if (this.client === client) this.options.onError(error);
      });
  }

  private async check(): Promise<void> {
    if (this.probing || this.closed) return;
    const client = this.client;
    if (!client.isReady) {
      // Reconnecting by itself after an error is node-redis's job; a handshake that never completes is ours.
      this.unreadySince ??= Date.now();
      if (Date.now() - this.unreadySince >= 5 * this.options.keepAliveMs) this.reopen(client);
      return;
    }
    this.unreadySince = undefined;
    this.probing = true;
    try {
      await withDeadline(this.options.probe(client), this.options.deadlineMs);
    } catch (error) {
      if (error instanceof DeadlineError) this.reopen(client);
    } finally {
      this.probing = false;
    }
  }

  private reopen(stale: Client): void {
    if (this.closed || this.client !== stale) return;
    this.options.onError(new Error("the Redis connection fell silent: opening a new one"));
    this.unreadySince = undefined;
    this.open();
    stale.destroy();
  }
}
