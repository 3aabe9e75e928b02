/**
 * State that several instances of one server share, so any instance serves any request of a handshake-era session
 * (issue 24): the session records, each session's resumable event streams, and a bus that carries broadcasts
 * (`list_changed`, `resources/updated`), answers to server→client requests and cancellations to the instance that
 * waits, and wake-ups for the instance holding a GET stream. `memoryStateStore()` is the one-process implementation
 * (instances in one process, tests); `redisStore()` (`@mcp-gen/runtime/redis`) the distributed one.
 *
 * Without a `store` option the HTTP endpoint keeps everything in its own process and never calls any of this.
 */
import { InMemoryTaskStore } from "../../tasks/server/memory-store.ts";
import type { TaskStore } from "../../tasks/server/store.ts";
import { InMemoryEventStore, type EventStore } from "./event-store.ts";

/** What another instance needs to serve a session it did not open. */
export interface SessionRecord {
  /** The `initialize` request's params: replayed to open the session on another instance. */
  readonly initialize: Readonly<Record<string, unknown>>;
  /** The principal that opened the session (later requests must come from it). */
  readonly principal?: string | undefined;
  /** The client sent `notifications/initialized`. */
  readonly initialized?: boolean;
  /** The level of the last successful `logging/setLevel`. */
  readonly logLevel?: string | undefined;
}

/** A change raised on one instance that every instance's clients may be owed. */
export type Broadcast =
  | { readonly kind: "listChanged"; readonly list: "tools" | "resources" | "prompts" }
  | { readonly kind: "resourceUpdated"; readonly uri: string };

/** What travels on the bus between instances (JSON). `origin`: the instance that published it. */
export type BusMessage =
  | { readonly type: "wake"; readonly session: string; readonly stream: string }
  | { readonly type: "broadcast"; readonly origin: string; readonly broadcast: Broadcast }
  | { readonly type: "answer" | "cancel"; readonly origin: string; readonly session: string; readonly message: object }
  | { readonly type: "closed"; readonly origin: string; readonly session: string };

/**
 * What became of an answer routed to another instance: `unknown` when no live instance waits for that id in that
 * session (made up, repeated, late, or its instance gone): nothing is kept; `too-large` when the answer exceeds the
 * store's entry size (the waiting request gets an error instead); `full` when the instance's inbox is full.
 */
export type AnswerRoute = "routed" | "unknown" | "too-large" | "full";

export interface SessionStore {
  /** Record a session `initialize` opened (awaited before the session id is handed out). */
  create(id: string, record: SessionRecord): Promise<void>;
  /** The session's record, refreshing its expiry; undefined when it does not exist (expired or deleted). */
  get(id: string): Promise<SessionRecord | undefined>;
  /** Change fields of an existing session (never recreates a deleted one). */
  update(id: string, patch: Pick<SessionRecord, "initialized" | "logLevel">): Promise<void>;
  /**
   * `resources/subscribe` (`on`) or `resources/unsubscribe` of `uri` by the session. Subscribing, false (nothing
   * changed) when the session already holds `limit` other subscriptions; unsubscribing, always true.
   */
  subscribe(id: string, uri: string, on: boolean, limit: number): Promise<boolean>;
  /** The sessions a broadcast goes to: all of them, or those subscribed to `uri`. */
  audience(uri?: string): Promise<readonly string[]>;
  delete(id: string): Promise<void>;
}

export interface StateStore {
  /** This instance's name: unique among the instances sharing the store; letters, digits, `_` only. */
  readonly instanceId: string;
  readonly sessions: SessionStore;
  /** The event store of one session (resumable SSE streams, `Last-Event-ID`), shared by every instance. */
  events(sessionId: string): EventStore;
  /** Publish on the bus (every instance's listener gets it, this one's too). Never throws. */
  publish(message: BusMessage): void;
  /**
   * A server→client request with wire id `id` goes out from this instance in session `session`: an answer to it
   * POSTed to another instance is routed here (`routeAnswer`). Awaited before the request is sent; throws
   * `StoreUnavailableError` while the store cannot be reached.
   */
  expectAnswer(session: string, id: string): Promise<void>;
  /** The answer to `id` arrived here (or nobody waits for it any more): it is no longer routed. Never throws. */
  forgetAnswer(session: string, id: string): void;
  /**
   * An answer POSTed here to a request another instance sent: delivered to that instance, at most once, only while it
   * is alive and waits for `id` (kept for it until it takes it, so one sent while its bus subscription is down arrives
   * when it is back). Throws `StoreUnavailableError` while the store cannot be reached.
   */
  routeAnswer(session: string, id: string, message: BusMessage): Promise<AnswerRoute>;
  /** Listen to the bus; the returned function stops listening. */
  listen(listener: (message: BusMessage) => void): () => void;
  /**
   * The Tasks extension's store shared the same way, for the server: `extensions: [tasks({ store: store.tasks })]`
   * (`@mcp-gen/runtime/tasks`). An endpoint given a shared store refuses a server that keeps its tasks in its own memory.
   */
  readonly tasks?: TaskStore;
  /**
   * Readiness (the `health` option): resolves when the store serves this instance now; throws, with the cause, while
   * it cannot be reached or refuses the commands it needs (a full Redis, a denied command).
   */
  check?(): Promise<void>;
  /** Connect (a distributed store); the HTTP endpoint awaits it before serving a session request. */
  ready?(): Promise<void>;
  close?(): Promise<void>;
}

/** The error a store throws when it cannot be reached: the request gets 503, never "session not found". */
export class StoreUnavailableError extends Error {
  constructor(cause?: unknown) {
    super("state store unavailable", cause === undefined ? undefined : { cause });
    this.name = "StoreUnavailableError";
  }
}

interface MemorySession {
  record: SessionRecord;
  readonly subscriptions: Set<string>;
  readonly events: EventStore;
}

/** Options of `memoryStateStore()`. */
export interface MemoryStoreOptions {
  /** Default: a random name. */
  readonly instanceId?: string;
  /** Events kept per session (default 256). */
  readonly maxEvents?: number;
}

/** An instance name: 8 random base-36 characters. */
export function randomInstanceId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (b) => (b % 36).toString(36)).join("");
}

/** Shared state in this process's memory (`memoryStateStore()`). */
export interface MemoryStateStore extends StateStore {
  /** Another instance's view of the same state: endpoints of one process given these behave as one deployment. */
  forInstance(instanceId?: string): MemoryStateStore;
}

interface MemoryShared {
  readonly all: Map<string, MemorySession>;
  readonly listeners: Set<(message: BusMessage) => void>;
  readonly tasks: TaskStore;
  /** Outstanding server→client requests: session and wire id → the instance waiting. */
  readonly awaited: Map<string, string>;
}

class MemoryStore implements MemoryStateStore {
  private readonly all: Map<string, MemorySession>;
  private readonly awaited: Map<string, string>;
  private readonly listeners: Set<(message: BusMessage) => void>;
  readonly sessions: SessionStore;

  constructor(
    private readonly options: MemoryStoreOptions = {},
    shared?: MemoryShared,
  ) {
    this.all = shared?.all ?? new Map();
    this.awaited = shared?.awaited ?? new Map();
    this.listeners = shared?.listeners ?? new Set();
    this.tasks = shared?.tasks ?? new InMemoryTaskStore();
    this.instanceId = options.instanceId ?? randomInstanceId();
    const all = this.all;
    const awaited = this.awaited;
    const maxEvents = options.maxEvents;
    this.sessions = {
      async create(id, record) {
        all.set(id, { record, subscriptions: new Set(), events: new InMemoryEventStore(maxEvents) });
      },
      async get(id) {
        return all.get(id)?.record;
      },
      async update(id, patch) {
        const entry = all.get(id);
        if (entry) entry.record = { ...entry.record, ...patch };
      },
      async subscribe(id, uri, on, limit) {
        const subscriptions = all.get(id)?.subscriptions;
        if (!on) subscriptions?.delete(uri);
        else if (subscriptions && !subscriptions.has(uri)) {
          if (subscriptions.size >= limit) return false;
          subscriptions.add(uri);
        }
        return true;
      },
      async audience(uri) {
        return [...all].filter(([, s]) => uri === undefined || s.subscriptions.has(uri)).map(([id]) => id);
      },
      async delete(id) {
        all.get(id)?.events.forgetSession?.();
        all.delete(id);
        for (const key of awaited.keys()) if (key.startsWith(`${id} `)) awaited.delete(key);
      },
    };
  }

  readonly instanceId: string;
  readonly tasks: TaskStore;

  forInstance(instanceId?: string): MemoryStateStore {
    const options = instanceId === undefined ? { ...this.options } : { ...this.options, instanceId };
    const shared = { all: this.all, listeners: this.listeners, tasks: this.tasks, awaited: this.awaited };
    return new MemoryStore(options, shared);
  }

  events(sessionId: string): EventStore {
    const entry = this.all.get(sessionId);
    return entry?.events ?? new InMemoryEventStore(0);
  }

  publish(message: BusMessage): void {
    // Asynchronously, as a real bus would: nobody may rely on delivery inside the publishing call.
    const copy = JSON.parse(JSON.stringify(message)) as BusMessage;
    queueMicrotask(() => {
      for (const listener of [...this.listeners]) listener(copy);
    });
  }

  async expectAnswer(session: string, id: string): Promise<void> {
    this.awaited.set(`${session} ${id}`, this.instanceId);
  }

  forgetAnswer(session: string, id: string): void {
    this.awaited.delete(`${session} ${id}`);
  }

  async routeAnswer(session: string, id: string, message: BusMessage): Promise<AnswerRoute> {
    if (!this.awaited.delete(`${session} ${id}`)) return "unknown";
    this.publish(message);
    return "routed";
  }

  listen(listener: (message: BusMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** Shared state in memory (one process): `new McpHttpHandler(server, { store: memoryStateStore() })`. */
export function memoryStateStore(options: MemoryStoreOptions = {}): MemoryStateStore {
  return new MemoryStore(options);
}
