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
import { checkCommands, RedisRefusedError, RedisTopologyError, topologyRefusal } from "./redis-check.ts";
import { redisEvents } from "./redis-events.ts";
import { redisSessions } from "./redis-sessions.ts";
import { RedisInbox } from "./redis-inbox.ts";
import { DeadlineError, RedisLink, withDeadline } from "./redis-link.ts";
import { RedisTaskStore } from "./redis-tasks.ts";
import {
  randomInstanceId,
  StoreUnavailableError,
  type AnswerRoute,
  type BusMessage,
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
  /**
   * What goes wrong with no request to answer for it: connection errors (each reconnect attempt reports one), Redis
   * refusing the store's commands on a new connection (`RedisRefusedError`, `RedisTopologyError`), a failed publish or
   * inbox read. A request that fails is reported by the endpoint's `onError`. Default: ignored.
   */
  readonly onError?: (error: unknown) => void;
}

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
  private readonly report: (error: unknown) => void;
  /** Set while the server is one the store cannot work with (a Cluster node): every call fails with it. */
  private refused: RedisTopologyError | undefined;
  private closed = false;

  constructor(private readonly options: RedisStoreOptions) {
    this.instanceId = options.instanceId ?? randomInstanceId();
    if (!INSTANCE_ID.test(this.instanceId))
      throw new Error("redisStore: instanceId must be 1 to 64 letters, digits or _");
    this.prefix = options.keyPrefix ?? "mcp:";
    this.channel = `${this.prefix}bus`;
    const deadlineMs = (this.deadlineMs = options.commandTimeoutMs ?? 1_000);
    const report = (this.report = (error: unknown) => options.onError?.(error));
    const make = (): Client => newClient(options, deadlineMs);
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
        report,
      },
      (text) => this.heard(text),
    );
    // (Re)connected: take what was sent here meanwhile; again a moment later, in case the subscription came after.
    const catchUp = () => {
      if (!this.client.isReady) return; // the commands' connection catches up when it is up
      void this.inbox.drain();
      this.taskStore.resync().catch(report); // Redis gone again: the next "ready" catches up
    };
    const keepAliveMs = options.keepAliveMs ?? 1_000;
    this.link = new RedisLink(make, {
      deadlineMs,
      keepAliveMs,
      // Each new connection: is this a Redis that runs the store's commands (reported if not), then the heartbeat.
      setUp: (client) =>
        this.checkOn(client)
          .finally(() => this.inbox.heartbeat(client))
          .finally(catchUp),
      probe: (client) => this.inbox.heartbeat(client),
      onError: report,
    });
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
    this.sessions = redisSessions(
      () => this.client,
      (work) => this.run(work),
      {
        prefix: this.prefix,
        ttlMs: options.sessionTtlMs ?? 3_600_000,
      },
    );
  }

  private get client(): Client {
    return this.link.client;
  }

  /** Resolves once connected; throws `StoreUnavailableError` while Redis cannot be reached. */
  /**
   * Resolves once connected; throws `StoreUnavailableError` while Redis cannot be reached, `RedisTopologyError` when
   * it is a server the store cannot work with (a Redis Cluster node).
   */
  async ready(): Promise<void> {
    if (this.client.isReady && !this.refused) return;
    await withDeadline(this.link.connected, this.deadlineMs).catch(() => undefined);
    if (this.refused) throw this.refused;
    if (!this.client.isReady) throw new StoreUnavailableError(new Error("not connected to Redis (reconnecting)"));
  }

  /**
   * Readiness: connected on both connections, and Redis would run each command the store sends now (asked without
   * running any: redis-check.ts). Throws `StoreUnavailableError` (cause: why) while it cannot be reached,
   * `RedisRefusedError` while it refuses one (a full Redis: OOM; an ACL denial: NOPERM), `RedisTopologyError`.
   */
  async check(): Promise<void> {
    await this.ready();
    if (!this.subscriber.client.isReady)
      throw new StoreUnavailableError(new Error("the Redis pub/sub connection is down (reconnecting)"));
    try {
      await withDeadline(this.checkOn(this.client), this.deadlineMs);
    } catch (error) {
      if (error instanceof RedisRefusedError || error instanceof RedisTopologyError) throw error;
      throw new StoreUnavailableError(error);
    }
  }

  private async checkOn(client: Client): Promise<void> {
    const channels = [this.channel, this.taskStore.channel, this.inbox.key];
    try {
      await checkCommands(client, { prefix: this.prefix, instanceId: this.instanceId, channels });
      this.refused = undefined;
    } catch (error) {
      if (error instanceof RedisTopologyError) this.refused = error;
      throw error;
    }
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
    withDeadline(this.client.publish(this.channel, JSON.stringify(message)), this.deadlineMs).catch(this.report);
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
    if (this.refused) throw new StoreUnavailableError(this.refused);
    try {
      return await withDeadline(work(), this.deadlineMs);
    } catch (error) {
      if (error instanceof DeadlineError) this.link.suspect();
      // Before the connection's check said so (or after the server changed): a Cluster's reply refuses the store.
      const topology = topologyRefusal(error);
      if (topology) this.refused = topology;
      throw new StoreUnavailableError(topology ?? error);
    }
  }

  private streamKey(sessionId: string, streamId: string): string {
    return `${this.prefix}{${sessionId}}:ev:${streamId}`;
  }
}

/** One connection: no offline queue (a command fails at once while disconnected), reconnecting by itself. */
function newClient(options: RedisStoreOptions, deadlineMs: number): Client {
  return createClient({
    url: options.url,
    disableOfflineQueue: true,
    commandOptions: { timeout: deadlineMs },
    socket: { connectTimeout: 1_000, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2_000) },
  });
}

/** Shared state on Redis for `serve(server, { store: redisStore({ url }) })`; `await store.close()` at shutdown. */
export function redisStore(options: RedisStoreOptions): RedisStateStore {
  return new RedisStateStore(options);
}
