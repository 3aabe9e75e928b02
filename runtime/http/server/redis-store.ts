/**
 * The shared state of several server instances on Redis (or Valkey), with the official client (node-redis):
 * `serve(server, { store: redisStore({ url }) })`. Sessions are hashes with a sliding TTL, each SSE stream of a
 * session a Redis Stream bounded by length and TTL (event id `<stream>.<entry id>`: monotonic, unique across
 * instances), the bus one pub/sub channel, answers to server→client requests an inbox per instance
 * (redis-inbox.ts). Keys of one session share a hash tag (`{sid}`).
 *
 * Redis unreachable, paused or hung: every store call fails within `commandTimeoutMs` (commands fail at once while
 * disconnected: no offline queue), the endpoint answers 503, and each connection comes back by itself: node-redis
 * reconnects after an error (backoff to 2 s), and the keep-alive (redis-link.ts) replaces one that fell silent. The
 * process stays up.
 */
import { createClient } from "redis";
import type { EventStore } from "./event-store.ts";
import type { TaskStore } from "../../tasks/server/store.ts";
import { redisEvents } from "./redis-events.ts";
import { RedisInbox } from "./redis-inbox.ts";
import { DeadlineError, RedisLink, withDeadline } from "./redis-link.ts";
import { RedisTaskStore } from "./redis-tasks.ts";
import {
  randomInstanceId,
  StoreUnavailableError,
  type AnswerRoute,
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
  /**
   * Every store call (written to the socket or not) with no reply after this long fails (→ 503). Default 1,000.
   */
  readonly commandTimeoutMs?: number;
  /**
   * Each connection is probed this often (the instance's heartbeat on one, a PING on the other); one whose probe gets
   * no reply within `commandTimeoutMs` is torn down and opened anew. Default 1,000.
   */
  readonly keepAliveMs?: number;
  /** Most live tasks (the Tasks extension) the deployment holds, all instances together. Default 100,000. */
  readonly maxTasks?: number;
  /**
   * Most unfinished tasks one caller may have at once, deployment-wide (default 100; more: -31430); a caller holding
   * more tasks than this, finished ones included, loses its finished ones first when `maxTasks` is reached.
   */
  readonly maxTasksPerOwner?: number;
  /**
   * How long an answer routed to an instance waits in its inbox (while it is away from the bus), counted from when the
   * inbox was created (a push does not renew it); an instance whose heartbeat is older than this is gone and gets no
   * more answers. Default 60,000.
   */
  readonly inboxTtlMs?: number;
  /** Answers an instance's inbox holds; one more is refused (503). Default 100. */
  readonly maxInboxLength?: number;
  /** Largest answer routed to another instance, in bytes (beyond: 413, and the waiting request fails). Default 1 MiB. */
  readonly maxInboxEntryBytes?: number;
  /** Connection errors (each reconnect attempt reports one). Default: ignored. */
  readonly onError?: (error: unknown) => void;
}

/** Only update fields of a session that still exists (HSET alone would bring a deleted one back without a TTL). */
const UPDATE_IF_EXISTS = `if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV)) return 1`;

/**
 * `resources/subscribe`: the URI joins the session's set (KEYS[1]) and the session the URI's (KEYS[2]), unless the
 * session already holds ARGV[4] other URIs (0, nothing changed). ARGV: uri, session id, TTL in ms, the cap.
 */
const SUBSCRIBE = `if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 0 and redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[4])
then return 0 end
redis.call('SADD', KEYS[1], ARGV[1]) redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('SADD', KEYS[2], ARGV[2]) redis.call('PEXPIRE', KEYS[2], ARGV[3]) return 1`;

/**
 * A session is deleted: its record, its set of URIs and its index entry go, and it leaves the set of each URI it
 * held (ARGV[1]: the prefix of those keys, ARGV[2]: the session id), so no per-URI set outlives it.
 */
const DELETE_SESSION = `for _, uri in ipairs(redis.call('SMEMBERS', KEYS[2])) do
redis.call('SREM', ARGV[1] .. uri, ARGV[2]) end
redis.call('DEL', KEYS[1], KEYS[2]) redis.call('ZREM', KEYS[3], ARGV[2]) return 1`;

type Client = ReturnType<typeof createClient>;

const INSTANCE_ID = /^[A-Za-z0-9_]{1,64}$/;

export class RedisStateStore implements StateStore {
  readonly instanceId: string;
  readonly sessions: SessionStore;
  /** The server's task store on the same connections: `new McpServer({ …, tasks: { store: store.tasks } })`. */
  readonly tasks: TaskStore;
  private readonly taskStore: RedisTaskStore;
  private readonly inbox: RedisInbox;
  /** Commands. */
  private readonly link: RedisLink;
  /** Pub/sub (a subscribed connection runs no other commands). */
  private readonly subscriber: RedisLink;
  private readonly listeners = new Set<(message: BusMessage) => void>();
  private readonly prefix: string;
  private readonly channel: string;
  private readonly deadlineMs: number;
  private closed = false;

  constructor(private readonly options: RedisStoreOptions) {
    this.instanceId = options.instanceId ?? randomInstanceId();
    if (!INSTANCE_ID.test(this.instanceId))
      throw new Error("redisStore: instanceId must be 1 to 64 letters, digits or _");
    this.prefix = options.keyPrefix ?? "mcp:";
    this.channel = `${this.prefix}bus`;
    const deadlineMs = (this.deadlineMs = options.commandTimeoutMs ?? 1_000);
    const report = (error: unknown) => options.onError?.(error);
    const make = (): Client =>
      createClient({
        url: options.url,
        disableOfflineQueue: true,
        commandOptions: { timeout: deadlineMs },
        socket: { connectTimeout: 1_000, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2_000) },
      });
    const run = <T>(work: () => Promise<T>) => this.ready().then(() => this.run(work));
    this.tasks = this.taskStore = new RedisTaskStore(
      () => this.client,
      this.prefix,
      `${this.prefix}tasks`,
      run,
      options,
    );
    this.inbox = new RedisInbox(
      () => this.client,
      (work) => this.run(work),
      {
        prefix: this.prefix,
        instanceId: this.instanceId,
        sessionTtlMs: options.sessionTtlMs ?? 3_600_000,
        inboxTtlMs: options.inboxTtlMs ?? 60_000,
        maxInboxLength: options.maxInboxLength ?? 100,
        maxInboxEntryBytes: options.maxInboxEntryBytes ?? 1024 * 1024,
        deadlineMs,
      },
      (text) => this.heard(text),
    );
    const keepAliveMs = options.keepAliveMs ?? 1_000;
    this.link = new RedisLink(make, {
      deadlineMs,
      keepAliveMs,
      setUp: (client) => this.inbox.heartbeat(client),
      probe: (client) => this.inbox.heartbeat(client),
      onError: report,
    });
    // (Re)subscribed: take what was sent here meanwhile; again a moment later, in case the subscription came after.
    const catchUp = () => {
      void this.inbox.drain();
      this.taskStore.resync().catch(() => undefined); // Redis gone again: the next "ready" catches up
    };
    const subscriber = (): Client => {
      const client = make();
      client.on("ready", () => {
        catchUp();
        setTimeout(catchUp, 500).unref?.();
      });
      return client;
    };
    this.subscriber = new RedisLink(subscriber, {
      deadlineMs,
      keepAliveMs,
      setUp: (client) =>
        Promise.all([
          client.subscribe(this.channel, (text: string) => this.heard(text)),
          client.subscribe(this.taskStore.channel, (text: string) => this.taskStore.heard(text)),
          client.subscribe(this.inbox.key, () => void this.inbox.drain()),
        ]),
      probe: (client) => client.ping(),
      onError: report,
    });
    this.sessions = this.sessionStore();
  }

  private get client(): Client {
    return this.link.client;
  }

  /** Resolves once connected; throws `StoreUnavailableError` while Redis cannot be reached. */
  async ready(): Promise<void> {
    if (this.client.isReady) return;
    await withDeadline(this.link.connected, this.deadlineMs).catch(() => undefined);
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
    withDeadline(this.client.publish(this.channel, JSON.stringify(message)), this.deadlineMs).catch(() => undefined);
  }

  expectAnswer(session: string, id: string): Promise<void> {
    return this.ready().then(() => this.inbox.expect(session, id));
  }

  forgetAnswer(session: string, id: string): void {
    this.inbox.forget(session, id);
  }

  routeAnswer(session: string, id: string, message: BusMessage): Promise<AnswerRoute> {
    return this.ready().then(() => this.inbox.route(session, id, message));
  }

  listen(listener: (message: BusMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.client.isReady) await this.inbox.leave();
    await Promise.allSettled([this.link.close(), this.subscriber.close()]);
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

  /** Runs store commands within the deadline; any failure is the store being unavailable. */
  private async run<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await withDeadline(work(), this.deadlineMs);
    } catch (error) {
      if (error instanceof DeadlineError) this.link.suspect();
      throw new StoreUnavailableError(error);
    }
  }

  private sessionKey(id: string): string {
    return `${this.prefix}{${id}}:s`;
  }
  private subsKey(id: string): string {
    return `${this.prefix}{${id}}:subs`;
  }
  /** The sessions subscribed to `uri`. */
  private subscribersKey(uri: string): string {
    return `${this.prefix}sub:${uri}`;
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
      subscribe: (id, uri, on, limit) =>
        this.run(async () => {
          const keys = [this.subsKey(id), this.subscribersKey(uri)];
          if (on) return (await c().eval(SUBSCRIBE, { keys, arguments: [uri, id, String(ttl), String(limit)] })) === 1;
          await c().multi().sRem(keys[0]!, uri).sRem(keys[1]!, id).exec();
          return true;
        }),
      audience: (uri) =>
        this.run(async () => {
          if (uri !== undefined) return c().sMembers(this.subscribersKey(uri));
          const [, live] = (await c()
            .multi()
            .zRemRangeByScore(this.indexKey, "-inf", Date.now())
            .zRange(this.indexKey, 0, -1)
            .exec()) as unknown as [number, string[]];
          return live;
        }),
      delete: (id) =>
        this.run(async () => {
          const keys = [this.sessionKey(id), this.subsKey(id), this.indexKey];
          await c().eval(DELETE_SESSION, { keys, arguments: [this.subscribersKey(""), id] });
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
