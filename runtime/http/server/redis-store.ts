/**
 * The shared state of several server instances on Redis (or Valkey), with the official client (node-redis):
 * `serve(server, { store: redisStore({ url }) })`. Sessions are hashes with a sliding TTL, each SSE stream of a
 * session a Redis Stream bounded by length and TTL (event id `<stream>.<entry id>`: monotonic, unique across
 * instances), the bus one pub/sub channel. Keys of one session share a hash tag (`{sid}`).
 *
 * Redis unreachable: commands fail at once (no offline queue) and within `commandTimeoutMs` when a reply does not come,
 * the endpoint answers 503, and the client reconnects by itself (backoff to 2 s); the process stays up.
 */
import { createClient } from "redis";
import type { EventStore } from "./event-store.ts";
import type { TaskStore } from "../../tasks/server/store.ts";
import { redisEvents } from "./redis-events.ts";
import { RedisTaskStore } from "./redis-tasks.ts";
import {
  randomInstanceId,
  StoreUnavailableError,
  type BusMessage,
  type SessionRecord,
  type SessionStore,
  type StateStore,
} from "./shared-state.ts";

export interface RedisStoreOptions {
  /** `redis://host:port` (also `rediss://`, credentials in the URL). */
  readonly url: string;
  /** Prefix of every key and of the bus channel. Default "mcp:". */
  readonly keyPrefix?: string;
  /** This instance's name (letters, digits, `_`). Default: random. */
  readonly instanceId?: string;
  /** A session unused this long is gone. Default 1 hour. */
  readonly sessionTtlMs?: number;
  /** Events kept per stream (approximately: `MAXLEN ~`). Default 1,000. */
  readonly maxEventsPerStream?: number;
  /** A stream nobody wrote to this long is gone. Default 1 hour. */
  readonly eventTtlMs?: number;
  /** A command with no reply after this long fails (→ 503). Default 1,000. */
  readonly commandTimeoutMs?: number;
  /** Most live tasks (the Tasks extension) the deployment holds, all instances together. Default 100,000. */
  readonly maxTasks?: number;
  /**
   * Most unfinished tasks one caller may have at once, deployment-wide (default 100; more: -31430); a caller holding
   * more tasks than this, finished ones included, loses its finished ones first when `maxTasks` is reached.
   */
  readonly maxTasksPerOwner?: number;
  /**
   * How long an answer routed to an instance waits in its inbox (while it is away from the bus). Default 60,000.
   */
  readonly inboxTtlMs?: number;
  /** Connection errors (each reconnect attempt reports one). Default: ignored. */
  readonly onError?: (error: unknown) => void;
}

const INSTANCE_ID = /^[A-Za-z0-9_]{1,64}$/;

/** Only update fields of a session that still exists (HSET alone would bring a deleted one back without a TTL). */
const UPDATE_IF_EXISTS = `if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV)) return 1`;

type Client = ReturnType<typeof createClient>;

export class RedisStateStore implements StateStore {
  readonly instanceId: string;
  readonly sessions: SessionStore;
  /** The server's task store on the same connections: `new McpServer({ …, tasks: { store: store.tasks } })`. */
  readonly tasks: TaskStore;
  private readonly taskStore: RedisTaskStore;
  private readonly client: Client;
  private readonly subscriber: Client;
  private readonly listeners = new Set<(message: BusMessage) => void>();
  private readonly prefix: string;
  private readonly channel: string;
  private readonly connecting: Promise<unknown>;
  private closed = false;
  private draining = false;
  private drainAgain = false;

  constructor(private readonly options: RedisStoreOptions) {
    this.instanceId = options.instanceId ?? randomInstanceId();
    this.prefix = options.keyPrefix ?? "mcp:";
    this.channel = `${this.prefix}bus`;
    const report = (error: unknown) => options.onError?.(error);
    this.client = createClient({
      url: options.url,
      disableOfflineQueue: true,
      commandOptions: { timeout: options.commandTimeoutMs ?? 1_000 },
      socket: { connectTimeout: 1_000, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2_000) },
    });
    this.subscriber = this.client.duplicate();
    // Without an error listener node-redis turns a lost connection into an uncaught exception.
    this.client.on("error", report);
    this.subscriber.on("error", report);
    const run = <T>(work: () => Promise<T>) => this.ready().then(() => this.run(work));
    this.tasks = this.taskStore = new RedisTaskStore(
      () => this.client,
      this.prefix,
      `${this.prefix}tasks`,
      run,
      options,
    );
    this.connecting = Promise.all([
      this.client.connect(),
      this.subscriber
        .connect()
        .then(() =>
          Promise.all([
            this.subscriber.subscribe(this.channel, (text: string) => this.heard(text)),
            this.subscriber.subscribe(this.taskStore.channel, (text: string) => this.taskStore.heard(text)),
            this.subscriber.subscribe(this.inboxKey(this.instanceId), () => void this.drainInbox()),
          ]),
        ),
    ]).catch(report);
    this.sessions = this.sessionStore();
    // (Re)subscribed: take what was sent here meanwhile; again a moment later, in case the subscription came after.
    this.subscriber.on("ready", () => {
      const catchUp = () => {
        void this.drainInbox();
        this.taskStore.resync().catch(() => undefined); // Redis gone again: the next "ready" catches up
      };
      catchUp();
      setTimeout(catchUp, 500).unref?.();
    });
  }

  /** Resolves once connected; throws `StoreUnavailableError` while Redis cannot be reached. */
  async ready(): Promise<void> {
    if (this.client.isReady) return;
    await Promise.race([this.connecting, new Promise((resolve) => setTimeout(resolve, 1_000).unref?.())]);
    if (!this.client.isReady) throw new StoreUnavailableError();
  }

  events(sessionId: string): EventStore {
    const streams = {
      client: () => this.client,
      run: <T>(work: () => Promise<T>) => this.run(work),
      key: (streamId: string) => this.streamKey(sessionId, streamId),
      maxLen: this.options.maxEventsPerStream ?? 1_000,
      ttlMs: this.options.eventTtlMs ?? 3_600_000,
    };
    return redisEvents(streams);
  }

  publish(message: BusMessage): void {
    if (!this.client.isReady) return;
    this.client.publish(this.channel, JSON.stringify(message)).catch(() => undefined);
  }

  sendTo(instanceId: string, message: BusMessage): void {
    if (!this.client.isReady || !INSTANCE_ID.test(instanceId)) return;
    const key = this.inboxKey(instanceId);
    const ttl = this.options.inboxTtlMs ?? 60_000;
    this.client
      .multi()
      .rPush(key, JSON.stringify(message))
      .pExpire(key, ttl)
      .publish(key, "")
      .exec()
      .catch(() => undefined);
  }

  listen(listener: (message: BusMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.allSettled([this.client.close(), this.subscriber.close()]);
  }

  private heard(text: string): void {
    let message: BusMessage;
    try {
      message = JSON.parse(text) as BusMessage;
    } catch {
      return;
    }
    for (const listener of this.listeners) listener(message);
  }

  /** Takes every message in this instance's inbox (each is taken once: LPOP). */
  private async drainInbox(): Promise<void> {
    if (this.draining) {
      this.drainAgain = true;
      return;
    }
    this.draining = true;
    try {
      do {
        this.drainAgain = false;
        for (;;) {
          const taken = await this.client.lPopCount(this.inboxKey(this.instanceId), 100);
          for (const text of taken ?? []) this.heard(text);
          if (!taken || taken.length < 100) break;
        }
      } while (this.drainAgain);
    } catch {
      // unreachable: the next resubscription drains again
    } finally {
      this.draining = false;
    }
  }

  private inboxKey(instanceId: string): string {
    return `${this.prefix}inbox:${instanceId}`;
  }

  /** Runs store commands; any failure is the store being unavailable. */
  private async run<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw new StoreUnavailableError(error);
    }
  }

  private sessionKey(id: string): string {
    return `${this.prefix}{${id}}:s`;
  }
  private subsKey(id: string): string {
    return `${this.prefix}{${id}}:subs`;
  }
  private streamKey(sessionId: string, streamId: string): string {
    return `${this.prefix}{${sessionId}}:ev:${streamId}`;
  }
  private get indexKey(): string {
    return `${this.prefix}sessions`;
  }

  private sessionStore(): SessionStore {
    const ttl = this.options.sessionTtlMs ?? 3_600_000;
    const c = () => this.client;
    return {
      create: (id, record) =>
        this.run(async () => {
          const fields: Record<string, string> = { init: JSON.stringify(record.initialize) };
          if (record.principal !== undefined) fields["principal"] = record.principal;
          await c()
            .multi()
            .hSet(this.sessionKey(id), fields)
            .pExpire(this.sessionKey(id), ttl)
            .zAdd(this.indexKey, { score: Date.now() + ttl, value: id })
            .exec();
        }),
      get: (id) =>
        this.run(async () => {
          const key = this.sessionKey(id);
          const [fields] = (await c()
            .multi()
            .hGetAll(key)
            .pExpire(key, ttl)
            .pExpire(this.subsKey(id), ttl)
            .zAdd(this.indexKey, { score: Date.now() + ttl, value: id }, { XX: true })
            .exec()) as unknown as [Record<string, string>];
          return recordOf(fields);
        }),
      update: (id, patch) =>
        this.run(async () => {
          const args: string[] = [];
          if (patch.initialized !== undefined) args.push("initialized", patch.initialized ? "1" : "");
          if (patch.logLevel !== undefined) args.push("level", patch.logLevel);
          if (args.length > 0) await c().eval(UPDATE_IF_EXISTS, { keys: [this.sessionKey(id)], arguments: args });
        }),
      subscribe: (id, uri, on) =>
        this.run(async () => {
          const byUri = `${this.prefix}sub:${uri}`;
          if (on)
            await c()
              .multi()
              .sAdd(this.subsKey(id), uri)
              .pExpire(this.subsKey(id), ttl)
              .sAdd(byUri, id)
              .pExpire(byUri, ttl)
              .exec();
          else await c().multi().sRem(this.subsKey(id), uri).sRem(byUri, id).exec();
        }),
      audience: (uri) =>
        this.run(async () => {
          if (uri !== undefined) return c().sMembers(`${this.prefix}sub:${uri}`);
          const [, live] = (await c()
            .multi()
            .zRemRangeByScore(this.indexKey, "-inf", Date.now())
            .zRange(this.indexKey, 0, -1)
            .exec()) as unknown as [number, string[]];
          return live;
        }),
      delete: (id) =>
        this.run(async () => {
          await c()
            .multi()
            .del([this.sessionKey(id), this.subsKey(id)])
            .zRem(this.indexKey, id)
            .exec();
        }),
    };
  }
}

function recordOf(fields: Record<string, string> | undefined): SessionRecord | undefined {
  if (!fields || fields["init"] === undefined) return undefined;
  return {
    initialize: JSON.parse(fields["init"]) as Record<string, unknown>,
    principal: fields["principal"],
    initialized: fields["initialized"] === "1",
    logLevel: fields["level"],
  };
}

/** Shared state on Redis for `serve(server, { store: redisStore({ url }) })`; `await store.close()` at shutdown. */
export function redisStore(options: RedisStoreOptions): RedisStateStore {
  return new RedisStateStore(options);
}
