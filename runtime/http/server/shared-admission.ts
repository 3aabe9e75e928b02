/**
 * Admission of handshake-era requests when instances share a `StateStore` (the `store` option): the session is looked
 * up in the store on every request (1 round trip, which also keeps it alive there), and a session this instance has
 * no copy of is reopened from its record by replaying its handshake locally (shared-sessions.ts says what crosses
 * instances and how). The store unreachable: 503 with `Retry-After`, never 404.
 */
import { principalOf } from "../../transport/principal.ts";
import { rpcError, type PostedRequest } from "./answers.ts";
import { connectOrForget, type EraCall, type EraServices } from "./eras.ts";
import type { RequestId } from "./exchange.ts";
import type { SessionRegistry } from "./session-registry.ts";
import { storeUnavailable } from "./shared-answers.ts";
import { REPLAY_PREFIX, SharedSessions, type LocalSessions, type SharedSession } from "./shared-sessions.ts";
import type { SessionRecord, StateStore } from "./shared-state.ts";
import type { SessionTransport } from "./session-transport.ts";
import type { HttpResponseOut } from "./types.ts";

const replayed = SharedSessions.replayed;

export class SharedAdmission implements LocalSessions {
  private readonly sessions: SharedSessions;
  private readonly reopening = new Map<string, Promise<SessionTransport>>();

  constructor(
    readonly store: StateStore,
    private readonly services: EraServices,
    private readonly registry: SessionRegistry,
    private readonly newTransport: (id: string) => SessionTransport,
  ) {
    this.sessions = new SharedSessions(store, services.host, this, (e) => services.report(e));
  }

  /** The shared side of a new local copy of session `id`. */
  session(id: string, primes: () => boolean, retryMs: number | undefined, keepAliveMs: number): SharedSession {
    return this.sessions.session(id, primes, retryMs, keepAliveMs);
  }

  close(): void {
    this.sessions.close();
  }

  /**
   * Shared state: the session is looked up in the store on every request (which also keeps it alive there); one this
   * instance has no copy of is reopened from its record. The store unreachable: 503.
   */
  async find(call: EraCall, replyId: RequestId | null = null): Promise<SessionTransport | HttpResponseOut> {
    const id = call.request.header("mcp-session-id");
    if (id === undefined) return rpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required", replyId);
    const shared = this.sessions;
    let record: SessionRecord | undefined;
    try {
      await shared.store.ready?.();
      record = await shared.store.sessions.get(id);
    } catch (error) {
      this.services.report(error);
      return storeUnavailable(replyId);
    }
    const local = this.registry.sessions.get(id);
    if (!record || (record.principal !== undefined && record.principal !== principalOf(call.authInfo))) {
      if (!record) void local?.close(); // deleted or expired elsewhere
      return rpcError(404, -32001, "Session not found", replyId);
    }
    try {
      // A copy being reopened is registered before its replayed handshake ends: wait for it rather than use it.
      let reopening = this.reopening.get(id);
      if (!reopening && local && !local.isClosed) {
        await this.syncLevel(local, record, call);
        return local;
      }
      if (!reopening) {
        reopening = this.reopen(id, record, call).finally(() => this.reopening.delete(id));
        this.reopening.set(id, reopening);
      }
      return await reopening;
    } catch (error) {
      this.services.report(error);
      return storeUnavailable(replyId);
    }
  }

  /** A local copy of a session opened on another instance: its handshake is replayed, the client sees nothing. */
  private async reopen(id: string, record: SessionRecord, call: EraCall): Promise<SessionTransport> {
    const transport = this.newTransport(id);
    transport.principal = record.principal;
    this.registry.add(transport, undefined);
    await connectOrForget(this.services.host, transport);
    const context = this.services.context(call);
    const initialize = {
      jsonrpc: "2.0",
      id: `${REPLAY_PREFIX}initialize`,
      method: "initialize",
      params: record.initialize,
    };
    await transport.post([replayed(initialize) as PostedRequest], [], false, context, "json");
    if (transport.protocolVersion === undefined) {
      await transport.close();
      throw new Error("the session's initialize could not be replayed");
    }
    if (record.initialized)
      void transport.post(
        [],
        [replayed({ jsonrpc: "2.0", method: "notifications/initialized" })],
        false,
        context,
        "json",
      );
    await this.syncLevel(transport, record, call);
    return transport;
  }

  /** Another instance changed the session's log level: this copy follows. */
  private async syncLevel(transport: SessionTransport, record: SessionRecord, call: EraCall): Promise<void> {
    const shared = this.sessions.get(transport.sessionId);
    if (!shared || record.logLevel === undefined || shared.logLevel === record.logLevel) return;
    shared.logLevel = record.logLevel;
    const setLevel = {
      jsonrpc: "2.0",
      id: `${REPLAY_PREFIX}level`,
      method: "logging/setLevel",
      params: { level: record.logLevel },
    };
    await transport.post([replayed(setLevel) as PostedRequest], [], false, this.services.context(call), "json");
  }

  deliverRouted(sessionId: string, type: "answer" | "cancel", message: Record<string, unknown>): void {
    const local = this.registry.sessions.get(sessionId);
    if (!local) return;
    if (type === "answer" && !this.sessions.get(sessionId)?.claimAnswer(message)) return;
    if (type === "cancel") {
      const params = message["params"];
      const id =
        typeof params === "object" && params !== null ? (params as Record<string, unknown>)["requestId"] : undefined;
      if ((typeof id !== "string" && typeof id !== "number") || !local.hasInFlight(id)) return;
    }
    local.deliverRouted(replayed(message));
  }

  closeLocal(sessionId: string): void {
    void this.registry.sessions.get(sessionId)?.close();
  }
}
