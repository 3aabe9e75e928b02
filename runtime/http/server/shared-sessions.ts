/**
 * Handshake-era sessions served by several instances sharing a `StateStore` (the `store` option). Any instance serves
 * any request: one that meets a session it did not open reopens it locally from the session record (replaying
 * `initialize`, `notifications/initialized` and the log level, never to the client). What must reach another instance
 * goes through the store: GET-stream messages and broadcasts are appended to the session's shared event store, whose
 * holder feeds its socket from there (one ordered write path per socket: a resume elsewhere with `Last-Event-ID` loses
 * and repeats nothing); answers to server→client requests go to the instance that waits (`StateStore.routeAnswer`),
 * cancellations on the bus. Server→client request ids carry the instance's name. What `logging/setLevel` and
 * `resources/(un)subscribe` change is stored before their answer goes out; a failed write answers store-unavailable.
 */
import { isObject, sortMessage, type Posted, type PostedRequest } from "./answers.ts";
import type { EventStore } from "./event-store.ts";
import type { RequestId } from "./exchange.ts";
import type { SessionHost } from "./options.ts";
import { subscriptionLimit, tooManySubscriptions } from "../../server/subscriptions.ts";
import { routeAnswer } from "./shared-answers.ts";
import type { Broadcast, BusMessage, StateStore } from "./shared-state.ts";
import { SseStream } from "./sse.ts";
import { END_OF_STREAM, postStreamId, sharedEvents, streamEnd, Tailer } from "./shared-streams.ts";
import type { HttpResponseOut } from "./types.ts";

const UNRECORDED = { code: -32603, message: "state store unavailable: the change was not recorded" };

/** What a `SessionTransport` asks of the shared state (session-transport.ts). */
export interface SharedHooks {
  readonly instanceId: string;
  /** A request arrived on this instance. */
  requestIn(request: PostedRequest): void;
  /**
   * A notification or response arrived: true to deliver it here; false when it was sent to another instance; for an
   * answer routed through the store, the refusal to answer its POST with (undefined once routed).
   */
  otherIn(posted: Posted, inFlightHere: (id: RequestId) => boolean): boolean | Promise<HttpResponseOut | undefined>;
  /** The id of a new POST stream (`batch`: it answers a JSON-RPC batch). */
  postStream(counter: number, batch: boolean): string;
  /** Every answer of the POST stream `streamId` was written (the exchange finished). */
  streamFinished(streamId: string): void;
  /** A message the server sends: requests get an id unique across instances, recorded in the store as awaited. */
  outgoing(message: object): Promise<object>;
  /**
   * A response is about to go out: what its request changed is written to the store first; the response to send
   * (the store-unavailable error when that write failed). `replay` delivers a request into this instance's copy of
   * the session (its answer goes nowhere), to undo there what the store refused.
   */
  answered(response: object, replay: (request: Posted) => void): Promise<object>;
  /** A message for the session's GET stream, wherever it is held. */
  toGetStream(message: object, getStream: string): Promise<void>;
  /** GET (a new GET stream, or a resumption of any stream of the session). */
  listen(lastEventId: string | undefined, headers: Record<string, string>, getStream: string): Promise<HttpResponseOut>;
  holdsStream(): boolean;
  /** Shutting down: end the streams this instance feeds from the store; their clients resume elsewhere. */
  endStreams(): void;
  /** The local copy of the session closed. */
  closed(): void;
}

/** Requests whose effect on the session other instances must see. */
const RECORDED = new Set(["logging/setLevel", "resources/subscribe", "resources/unsubscribe"]);
/** Ids of requests replayed to reopen a session locally: their answers go nowhere and change nothing. */
export const REPLAY_PREFIX = "mcp-gen/replay:";
/** Notifications a shared deployment writes once per session, from the instance that raised them. */
const BROADCAST_METHODS = new Set([
  "notifications/tools/list_changed",
  "notifications/resources/list_changed",
  "notifications/prompts/list_changed",
  "notifications/resources/updated",
]);

/** The shared side of one session on this instance. */
export class SharedSession implements SharedHooks {
  private readonly sent = new Map<string, RequestId>();
  private readonly recorded = new Map<RequestId, { method: string; params: Record<string, unknown> | undefined }>();
  private readonly tailers = new Set<Tailer>();
  /** The log level this instance's copy of the session has. */
  logLevel: string | undefined;

  constructor(
    readonly sessionId: string,
    private readonly deployment: SharedSessions,
    readonly events: EventStore,
    /** Whether the session's revision sends priming events. */
    private readonly primes: () => boolean,
    private readonly retryMs: number | undefined,
    private readonly keepAliveMs: number,
  ) {}

  get instanceId(): string {
    return this.deployment.store.instanceId;
  }

  requestIn(request: PostedRequest): void {
    if (RECORDED.has(request.method ?? "") && !String(request.id).startsWith(REPLAY_PREFIX))
      this.recorded.set(request.id, { method: request.method!, params: request.params });
  }

  otherIn(posted: Posted, inFlightHere: (id: RequestId) => boolean): boolean | Promise<HttpResponseOut | undefined> {
    const message = posted.message;
    if (posted.kind === "response") {
      if (this.claimAnswer(message)) return true;
      return this.deployment.routeAnswer(this.sessionId, message);
    }
    if (posted.method === "notifications/cancelled") {
      const id = posted.params?.["requestId"];
      if ((typeof id === "string" || typeof id === "number") && !inFlightHere(id)) {
        this.deployment.publishCancel(this.sessionId, message);
        return false;
      }
    }
    if (posted.method === "notifications/initialized")
      void this.deployment.write(() => this.deployment.store.sessions.update(this.sessionId, { initialized: true }));
    return true;
  }

  /** An answer (POSTed here, or routed here by another instance): is it for a request this copy sent? Restores the id if so. */
  claimAnswer(message: Record<string, unknown>): boolean {
    const id = message["id"];
    const original = typeof id === "string" ? this.sent.get(id) : undefined;
    if (original === undefined) return false;
    this.sent.delete(id as string);
    this.deployment.store.forgetAnswer(this.sessionId, id as string);
    message["id"] = original;
    return true;
  }

  postStream(counter: number, batch: boolean): string {
    return postStreamId(this.instanceId, counter, batch);
  }

  streamFinished(streamId: string): void {
    if (streamEnd(streamId, "") === "marker")
      void this.deployment.write(async () => void (await this.events.storeEvent(streamId, END_OF_STREAM)));
  }

  async outgoing(message: object): Promise<object> {
    if (!("method" in message) || !("id" in message)) return message;
    const wire = `${this.instanceId}:${String(message.id)}`;
    // Recorded before it goes out, so the answer may come back through any instance at once.
    await this.deployment.store.expectAnswer(this.sessionId, wire);
    this.sent.set(wire, message.id as RequestId);
    return { ...message, id: wire };
  }

  async answered(response: object, replay: (request: Posted) => void): Promise<object> {
    const id = (response as { id: RequestId }).id;
    const request = this.recorded.get(id);
    if (!request) return response;
    this.recorded.delete(id);
    if (!("result" in response)) return response;
    const sessions = this.deployment.store.sessions;
    const level = request.params?.["level"];
    const uri = request.params?.["uri"];
    try {
      if (request.method === "logging/setLevel" && typeof level === "string") {
        this.logLevel = level;
        await sessions.update(this.sessionId, { logLevel: level });
      } else if (typeof uri === "string") {
        const limit = subscriptionLimit(this.deployment.host);
        // Counted across the deployment (this copy of the session holds only what was asked here): when the session
        // already holds its cap there, this copy unsubscribes again, so it holds no more than was acknowledged.
        if (!(await sessions.subscribe(this.sessionId, uri, request.method === "resources/subscribe", limit))) {
          const undo = { jsonrpc: "2.0", id: `${REPLAY_PREFIX}undo:${String(id)}`, method: "resources/unsubscribe" };
          replay(SharedSessions.replayed({ ...undo, params: { uri } }));
          return { jsonrpc: "2.0", id, error: tooManySubscriptions(limit).toJSON() };
        }
      }
    } catch (error) {
      this.deployment.report(error);
      // Not acknowledged: what the other instances act on was not changed, so the client must not be told it was.
      return { jsonrpc: "2.0", id, error: UNRECORDED };
    }
    return response;
  }

  async toGetStream(message: object, getStream: string): Promise<void> {
    // Broadcasts reach every session once, from the instance that raised them (SharedSessions.broadcast).
    if ("method" in message && !("id" in message) && BROADCAST_METHODS.has(String(message.method))) return;
    await this.events.storeEvent(getStream, message);
  }

  async listen(
    lastEventId: string | undefined,
    headers: Record<string, string>,
    getStream: string,
  ): Promise<HttpResponseOut> {
    const stream = new SseStream();
    let cursor: string;
    let streamId: string | undefined = getStream;
    if (lastEventId !== undefined) {
      streamId = await this.events.streamOf(lastEventId);
      if (streamId === undefined) return { status: 400, headers: {}, body: "Unknown Last-Event-ID" };
      cursor = lastEventId;
    } else {
      cursor = await this.events.storeEvent(getStream, undefined);
      if (this.primes())
        stream.send({ id: cursor, data: "", ...(this.retryMs !== undefined ? { retryMs: this.retryMs } : {}) });
    }
    const end = streamEnd(streamId, getStream);
    const tailer = new Tailer(streamId, cursor, stream, this.events, end, this.deployment.report);
    this.tailers.add(tailer);
    stream.startKeepAlive(this.keepAliveMs);
    stream.onClose(() => this.tailers.delete(tailer));
    void tailer.pump();
    return { status: 200, headers, body: stream };
  }

  /** New events on `streamId` (a wake-up from the bus, or the poll). */
  wake(streamId?: string): void {
    for (const tailer of this.tailers) if (streamId === undefined || tailer.streamId === streamId) void tailer.pump();
  }

  holdsStream(): boolean {
    return this.tailers.size > 0;
  }

  endStreams(): void {
    for (const tailer of [...this.tailers]) tailer.stream.end();
    this.tailers.clear();
  }

  closed(): void {
    this.endStreams();
    this.deployment.forget(this);
  }
}

/** What `SharedSessions` needs of the endpoint's local sessions. */
export interface LocalSessions {
  /** Deliver a message routed from another instance into the local copy of `sessionId`, if it waits for it. */
  deliverRouted(sessionId: string, type: "answer" | "cancel", message: Record<string, unknown>): void;
  /** Another instance deleted the session: close the local copy. */
  closeLocal(sessionId: string): void;
}

/** The shared state of one HTTP endpoint: its sessions' shared sides, the bus listener and the poll. */
export class SharedSessions {
  private readonly sessions = new Map<string, SharedSession>();
  private readonly unlisten: () => void;
  private poll: ReturnType<typeof setInterval> | undefined;

  constructor(
    readonly store: StateStore,
    readonly host: SessionHost,
    private readonly local: LocalSessions,
    private readonly onError: (error: unknown) => void,
    private readonly pollMs = 1_000,
  ) {
    // From the start, not with the first session: stateless-era listen streams here hear broadcasts raised elsewhere.
    this.unlisten = store.listen((message) => this.onBus(message));
    if (host.onBroadcast === undefined) host.onBroadcast = this.relay;
  }

  private readonly relay = (broadcast: Broadcast): void => void this.broadcast(broadcast);

  /** The poll starts with the first session (Workers forbid timers at module scope). */
  private start(): void {
    if (this.poll) return;
    // The backstop for wake-ups the bus lost (pub/sub is at most once): every held stream reads from its cursor.
    this.poll = setInterval(() => {
      for (const session of this.sessions.values()) session.wake();
    }, this.pollMs);
    this.poll.unref?.();
  }

  session(sessionId: string, primes: () => boolean, retryMs: number | undefined, keepAliveMs: number): SharedSession {
    this.start();
    const events = sharedEvents(this.store, sessionId);
    const session = new SharedSession(sessionId, this, events, primes, retryMs, keepAliveMs);
    this.sessions.set(sessionId, session);
    return session;
  }

  get(sessionId: string): SharedSession | undefined {
    return this.sessions.get(sessionId);
  }

  forget(session: SharedSession): void {
    if (this.sessions.get(session.sessionId) === session) this.sessions.delete(session.sessionId);
  }

  /** A `notifications/cancelled` for a request running elsewhere: every instance hears it, the one running it acts. */
  publishCancel(session: string, message: object): void {
    this.store.publish({ type: "cancel", origin: this.store.instanceId, session, message });
  }

  /** An answer to a request this instance did not send: the refusal its POST gets, else undefined (202). */
  routeAnswer(session: string, message: Record<string, unknown>): Promise<HttpResponseOut | undefined> {
    return routeAnswer(this.store, session, message, this.onError);
  }

  readonly report = (error: unknown): void => this.onError(error);

  /** A store write whose failure must not take the request down: reported, not thrown. */
  async write(run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (error) {
      this.onError(error);
    }
  }

  /** A broadcast raised here: other instances' listen streams hear it; every session's GET stream gets it once. */
  async broadcast(broadcast: Broadcast): Promise<void> {
    this.store.publish({ type: "broadcast", origin: this.store.instanceId, broadcast });
    const message =
      broadcast.kind === "listChanged"
        ? { jsonrpc: "2.0", method: `notifications/${broadcast.list}/list_changed`, params: {} }
        : { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri: broadcast.uri } };
    await this.write(async () => {
      const audience = await this.store.sessions.audience(
        broadcast.kind === "resourceUpdated" ? broadcast.uri : undefined,
      );
      await Promise.all(audience.map((id) => sharedEvents(this.store, id).storeEvent("g", message)));
    });
  }

  private onBus(message: BusMessage): void {
    const self = this.store.instanceId;
    switch (message.type) {
      case "wake":
        this.sessions.get(message.session)?.wake(message.stream);
        return;
      case "broadcast":
        if (message.origin !== self) this.host.deliverBroadcast?.(message.broadcast);
        return;
      case "answer":
      case "cancel":
        if (message.origin !== self && isObject(message.message))
          this.local.deliverRouted(message.session, message.type, message.message);
        return;
      case "closed":
        if (message.origin !== self) this.local.closeLocal(message.session);
    }
  }

  /** Parse a message replayed into a local copy (never from the network). */
  static replayed(message: object): Posted {
    const sorted = sortMessage(message);
    if (!sorted.ok) throw new Error("a replayed message is invalid");
    return sorted.posted;
  }

  close(): void {
    this.unlisten();
    if (this.host.onBroadcast === this.relay) this.host.onBroadcast = undefined;
    clearInterval(this.poll);
    this.poll = undefined;
  }
}
