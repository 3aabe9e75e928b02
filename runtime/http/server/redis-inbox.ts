/**
 * Answers to server→client requests (elicitation, sampling, roots) across instances on Redis. The instance sending a
 * request records it first (a key per outstanding request: session and wire id → the sending instance, expiring with
 * the session). An answer POSTed to another instance is routed by one script, and only when that record names a live
 * instance (its heartbeat key, renewed by the keep-alive) — at most once, since routing takes the record. It goes to
 * that instance's inbox: a list capped in length and in entry size, whose TTL is set when it is created and never
 * renewed by a push. Anything else (a made-up id or instance, a repeated or late answer) is refused, nothing stored.
 */
import type { createClient } from "redis";
import { withDeadline } from "./redis-link.ts";
import type { AnswerRoute, BusMessage } from "./shared-state.ts";

type Client = ReturnType<typeof createClient>;

/** The wire id of a server→client request (`SharedSession.outgoing`): `<instance>:<number>`. */
const WIRE_ID = /^([A-Za-z0-9_]{1,64}):[0-9]{1,16}$/;

/** KEYS: the request's record, the owner's heartbeat, the owner's inbox. ARGV: owner, entry, max length, inbox TTL. */
const ROUTE = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 'unknown' end
if redis.call('EXISTS', KEYS[2]) == 0 then redis.call('DEL', KEYS[1]) return 'unknown' end
if redis.call('LLEN', KEYS[3]) >= tonumber(ARGV[3]) then return 'full' end
redis.call('DEL', KEYS[1])
redis.call('RPUSH', KEYS[3], ARGV[2])
if redis.call('PTTL', KEYS[3]) < 0 then redis.call('PEXPIRE', KEYS[3], ARGV[4]) end
redis.call('PUBLISH', KEYS[3], '')
return 'routed'`;

export interface InboxOptions {
  readonly prefix: string;
  readonly instanceId: string;
  readonly sessionTtlMs: number;
  readonly inboxTtlMs: number;
  readonly maxInboxLength: number;
  readonly maxInboxEntryBytes: number;
  readonly deadlineMs: number;
  /** Failures of work nobody awaits (the store's `onError`). */
  readonly report: (error: unknown) => void;
}

export class RedisInbox {
  private draining = false;
  private drainAgain = false;
  private readonly bytes = new TextEncoder();

  constructor(
    private readonly client: () => Client,
    /** Runs commands; maps failures to `StoreUnavailableError`. */
    private readonly run: <T>(work: () => Promise<T>) => Promise<T>,
    private readonly options: InboxOptions,
    /** Hears each message taken from this instance's inbox. */
    private readonly heard: (text: string) => void,
  ) {}

  /** This instance's inbox (also the channel that says something arrived in it). */
  get key(): string {
    return this.inboxOf(this.options.instanceId);
  }

  /** This instance is alive (the keep-alive's probe): answers to its requests may be routed to it. */
  heartbeat(client: Client): Promise<unknown> {
    return client.set(this.liveKey(this.options.instanceId), "1", { PX: this.options.inboxTtlMs });
  }

  async expect(session: string, id: string): Promise<void> {
    const { instanceId, sessionTtlMs, inboxTtlMs } = this.options;
    await this.run(() =>
      this.client()
        .multi()
        .set(this.pendingKey(session, id), instanceId, { PX: sessionTtlMs })
        .set(this.liveKey(instanceId), "1", { PX: inboxTtlMs })
        .exec(),
    );
  }

  forget(session: string, id: string): void {
    if (!this.client().isReady) return;
    withDeadline(this.client().del(this.pendingKey(session, id)), this.options.deadlineMs).catch(this.options.report);
  }

  async route(session: string, id: string, message: BusMessage): Promise<AnswerRoute> {
    const owner = WIRE_ID.exec(id)?.[1];
    if (owner === undefined) return "unknown";
    let entry = JSON.stringify(message);
    const size = this.bytes.encode(entry).length;
    const tooLarge = size > this.options.maxInboxEntryBytes;
    // The waiting request fails at once instead of waiting for an answer that cannot be carried.
    if (tooLarge && message.type === "answer")
      entry = JSON.stringify({
        ...message,
        message: {
          jsonrpc: "2.0",
          id,
          error: { code: -32603, message: `the answer (${size} bytes) exceeds maxInboxEntryBytes` },
        },
      });
    const keys = [this.pendingKey(session, id), this.liveKey(owner), this.inboxOf(owner)];
    const args = [owner, entry, String(this.options.maxInboxLength), String(this.options.inboxTtlMs)];
    const outcome = (await this.run(() => this.client().eval(ROUTE, { keys, arguments: args }))) as AnswerRoute;
    return outcome === "routed" && tooLarge ? "too-large" : outcome;
  }

  /** Takes every message in this instance's inbox (each is taken once: LPOP). */
  async drain(): Promise<void> {
    if (this.draining) {
      this.drainAgain = true;
      return;
    }
    this.draining = true;
    try {
      do {
        this.drainAgain = false;
        for (;;) {
          const taken = await this.run(() => this.client().lPopCount(this.key, 100));
          for (const text of taken ?? []) this.heard(text);
          if (!taken || taken.length < 100) break;
        }
      } while (this.drainAgain);
    } catch (error) {
      this.options.report(error); // the next resubscription drains again
    } finally {
      this.draining = false;
    }
  }

  /** Shutting down: no more answers are routed here. */
  async leave(): Promise<void> {
    await this.run(() => this.client().del(this.liveKey(this.options.instanceId))).catch(this.options.report);
  }

  private inboxOf(instanceId: string): string {
    return `${this.options.prefix}inbox:${instanceId}`;
  }
  private liveKey(instanceId: string): string {
    return `${this.options.prefix}live:${instanceId}`;
  }
  private pendingKey(session: string, id: string): string {
    return `${this.options.prefix}{${session}}:pend:${id}`;
  }
}
