/**
 * The open HTTP sessions of one handler (Streamable HTTP sessions and legacy SSE streams) and the limits on them:
 * a global cap, a cap per client (the authenticated principal, else the remote address), the idle sweep, and the
 * early eviction of sessions that never completed the handshake (`notifications/initialized`).
 */
import type { LegacySseTransport } from "./legacy-sse.ts";
import type { SessionTransport } from "./session-transport.ts";

export interface SessionLimits {
  /** Sessions in all. */
  readonly maxSessions: number;
  /** Sessions per client key. */
  readonly maxPerClient: number;
  /** A session with no open stream and nothing in flight is closed after this long. */
  readonly idleMs: number;
  /** A session that has not sent `notifications/initialized` is closed after this long without traffic. */
  readonly uninitializedMs: number;
}

/** Why a new session is refused: the HTTP status and the message of the JSON-RPC error. */
export interface Refusal {
  readonly status: 503 | 429;
  readonly message: string;
}

type AnySession = SessionTransport | LegacySseTransport;

export class SessionRegistry {
  readonly sessions = new Map<string, SessionTransport>();
  readonly legacy = new Map<string, LegacySseTransport>();
  private readonly perClient = new Map<string, number>();
  /** The client key each session is counted under. */
  private readonly clientOf = new WeakMap<AnySession, string>();
  /** Started with the first session, i.e. inside a request: Workers forbid timers at module scope. */
  private sweeper: ReturnType<typeof setInterval> | undefined;
  private stopped = false;

  constructor(private readonly limits: SessionLimits) {}

  get size(): number {
    return this.sessions.size + this.legacy.size;
  }

  /** Sessions currently counted for `client`. */
  countOf(client: string): number {
    return this.perClient.get(client) ?? 0;
  }

  /** Why a new session for `client` (undefined: no key known) must be refused, or undefined when it may open. */
  refusal(client: string | undefined): Refusal | undefined {
    if (this.size >= this.limits.maxSessions) return { status: 503, message: "Service Unavailable: too many sessions" };
    if (client !== undefined && this.countOf(client) >= this.limits.maxPerClient)
      return {
        status: 429,
        message: `Too Many Requests: this client already has ${this.limits.maxPerClient} open sessions`,
      };
    return undefined;
  }

  add(session: SessionTransport, client: string | undefined): void {
    this.startSweeper();
    this.sessions.set(session.sessionId, session);
    this.count(session, client);
  }

  addLegacy(transport: LegacySseTransport, client: string | undefined): void {
    this.startSweeper();
    this.legacy.set(transport.sessionId, transport);
    this.count(transport, client);
  }

  /** Forget a session (its transport closed). Idempotent. */
  remove(session: SessionTransport): void {
    if (this.sessions.get(session.sessionId) === session) this.sessions.delete(session.sessionId);
    this.uncount(session);
  }

  removeLegacy(transport: LegacySseTransport): void {
    if (this.legacy.get(transport.sessionId) === transport) this.legacy.delete(transport.sessionId);
    this.uncount(transport);
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  private startSweeper(): void {
    if (this.sweeper !== undefined || this.stopped) return;
    const every = Math.min(this.limits.idleMs / 2, this.limits.uninitializedMs / 2, 60_000);
    this.sweeper = setInterval(() => this.sweep(), Math.max(every, 10));
    this.sweeper.unref?.(); // Node: the sweeper alone must not keep the process alive
  }

  private count(session: AnySession, client: string | undefined): void {
    if (client === undefined) return;
    this.clientOf.set(session, client);
    this.perClient.set(client, this.countOf(client) + 1);
  }

  private uncount(session: AnySession): void {
    const client = this.clientOf.get(session);
    if (client === undefined) return;
    this.clientOf.delete(session);
    const left = this.countOf(client) - 1;
    if (left > 0) this.perClient.set(client, left);
    else this.perClient.delete(client);
  }

  private sweep(): void {
    const now = Date.now();
    const idleCutoff = now - this.limits.idleMs;
    const handshakeCutoff = now - this.limits.uninitializedMs;
    for (const session of this.sessions.values()) {
      // Not initialized: an abandoned or hostile handshake; it goes even with a stream open.
      if (!session.initialized && session.lastActive < handshakeCutoff) void session.close();
      else if (!session.busy && session.lastActive < idleCutoff) void session.close();
    }
  }
}
