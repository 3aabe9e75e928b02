/**
 * The handshake era on Streamable HTTP (2025-03-26 … 2025-11-25). Admission: `initialize` opens a session and only a
 * successful one keeps it; every later request names it (`Mcp-Session-Id`, bound to the principal that opened it)
 * and may name a version (`MCP-Protocol-Version`, default `REVISION_WITHOUT_HEADER`); batches where the negotiated
 * revision has them. With `sessions: false` every POST is served alone after a replayed `initialize`. Stream rules:
 * answers go to the POST they belong to, else to the session's GET stream; a client that goes away is not a
 * cancellation; priming events where the revision has them (session-transport.ts).
 */
import { principalOf } from "../../transport/principal.ts";
import { ERA_RULES } from "../../protocol/era.ts";
import type { RevisionFacts } from "../../protocol/preference.ts";
import {
  clientKeyOf,
  invalidRequest,
  isPostedRequest,
  mintSessionId,
  rpcError,
  type Posted,
  type PostedRequest,
} from "./answers.ts";
import { connectOrForget, type EraCall, type EraServices, type HttpEra } from "./eras.ts";
import { InMemoryEventStore } from "./event-store.ts";
import type { RequestId } from "./exchange.ts";
import { accepts } from "./guards.ts";
import { RequestTransport, type StatelessServeOptions } from "./request-transport.ts";
import type { SessionRegistry } from "./session-registry.ts";
import { SessionTransport } from "./session-transport.ts";
import { REVISION_WITHOUT_HEADER, sendsPrimingEvent } from "./transport-revisions.ts";
import { SharedAdmission } from "./shared-admission.ts";
import { storeUnavailable } from "./shared-answers.ts";
import type { SessionRecord } from "./shared-state.ts";
import { emptyResponse, JSON_HEADERS, jsonResponse, type HttpResponseOut } from "./types.ts";
import { revisionEra, revisionHasBatches, unsupportedVersion, versionMismatch } from "./versions.ts";

const OPENING_METHOD = ERA_RULES.handshake.openingMethod;

export class HandshakeEra implements HttpEra {
  readonly era = "handshake";
  /** Set with the `store` option: sessions shared with other instances. */
  private readonly shared: SharedAdmission | undefined;
  /** `sessions: false`: the server sessions serving a request now. */
  private readonly sessionless = new Set<RequestTransport>();

  constructor(
    private readonly services: EraServices,
    private readonly registry: SessionRegistry,
  ) {
    const store = services.options.store;
    if (store) this.shared = new SharedAdmission(store, services, registry, (id) => this.newTransport(id));
  }

  /** The revisions of the server behind this endpoint. */
  private get served(): readonly RevisionFacts[] {
    return this.services.host.revisions;
  }

  /** The era has sessions (protocol/era.ts); on HTTP the application may still serve it without (`sessions: false`). */
  private get sessionful(): boolean {
    return ERA_RULES.handshake.sessions && this.services.options.sessions !== false;
  }

  /** Not `async`: per request, so a session that answers at once costs no promise. */
  post(posted: Posted, call: EraCall): HttpResponseOut | Promise<HttpResponseOut> {
    const { request, authInfo } = call;
    // The opening request opens a session; an `initialize` notification opens nothing (it goes the session path).
    if (posted.method === OPENING_METHOD && isPostedRequest(posted) && this.sessionful)
      return this.initialize(posted, call);
    const replyId = posted.id ?? null;
    const version = request.header("mcp-protocol-version");
    if (version !== undefined && revisionEra(this.served, version) !== "handshake")
      return unsupportedVersion(version, replyId, this.services.serves());
    const scope = this.services.scopeFailure([posted], authInfo);
    if (scope) return scope;
    if (!this.sessionful) return this.serveSessionless(posted, call, version ?? REVISION_WITHOUT_HEADER);
    if (this.shared) return this.shared.find(call, replyId).then((found) => this.postTo(found, posted, call));
    return this.postTo(this.findSession(call, replyId), posted, call);
  }

  /** A POSTed message for the session `found` (or the answer refusing it). */
  private postTo(
    found: SessionTransport | HttpResponseOut,
    posted: Posted,
    call: EraCall,
  ): HttpResponseOut | Promise<HttpResponseOut> {
    if (!(found instanceof SessionTransport)) return found;
    const session = found;
    const mismatch = versionMismatch(call.request, session, posted.id ?? null, this.served);
    if (mismatch) return mismatch;
    const mode = this.services.options.responseMode ?? "auto";
    if (isPostedRequest(posted)) {
      if (session.hasInFlight(posted.id))
        return jsonResponse(400, invalidRequest(posted.id, `id ${JSON.stringify(posted.id)} is already in flight`));
      return session.post([posted], [], false, this.services.context(call), mode, call.request)!;
    }
    // An answer routed to another instance is answered once it is known whether one waits for it.
    return session.post([], [posted], false, this.services.context(call), mode) ?? emptyResponse(202);
  }

  /**
   * A JSON-RPC batch (2025-03-26 sessions): every element is answered on its own as JSON-RPC 2.0 §6 and stdio do;
   * an invalid element gets its -32600 in the batch answer and the valid ones still run.
   */
  async postBatch(valid: readonly Posted[], invalid: readonly object[], call: EraCall): Promise<HttpResponseOut> {
    const { request, authInfo } = call;
    const version = request.header("mcp-protocol-version");
    if (version !== undefined && revisionEra(this.served, version) !== "handshake")
      return unsupportedVersion(version, null, this.services.serves());
    const scope = this.services.scopeFailure(valid, authInfo);
    if (scope) return scope;
    if (!this.sessionful) return rpcError(400, -32600, "Invalid Request: batches need a session", null);
    const session = this.shared ? await this.shared.find(call, null) : this.findSession(call, null);
    if (!(session instanceof SessionTransport)) return session;
    const mismatch = versionMismatch(request, session, null, this.served);
    if (mismatch) return mismatch;
    if (!revisionHasBatches(this.served, session.protocolVersion))
      return rpcError(
        400,
        -32600,
        `Invalid Request: revision ${session.protocolVersion ?? "(none)"} has no batches`,
        null,
      );
    if (valid.some((p) => p.method === OPENING_METHOD))
      return rpcError(400, -32600, "Invalid Request: initialize must not be batched", null);
    const errors = [...invalid];
    const requests: PostedRequest[] = [];
    const others: Posted[] = [];
    const ids = new Set<RequestId>();
    for (const p of valid) {
      if (!isPostedRequest(p)) others.push(p);
      else if (session.hasInFlight(p.id) || ids.has(p.id))
        errors.push(invalidRequest(p.id, `id ${JSON.stringify(p.id)} is already in flight`));
      else {
        ids.add(p.id);
        requests.push(p);
      }
    }
    const mode = this.services.options.responseMode ?? "auto";
    const answer = session.post(
      requests,
      others,
      true,
      this.services.context(call),
      mode,
      requests.length > 0 ? request : undefined,
      errors,
    );
    return answer ?? emptyResponse(202);
  }

  /** GET: the session's stream for messages unrelated to any request, or a resumption with Last-Event-ID. */
  async get(call: EraCall): Promise<HttpResponseOut> {
    const { request } = call;
    if (!this.sessionful || request.header("mcp-session-id") === undefined)
      return emptyResponse(405, { allow: "POST" });
    if (!accepts(request.header("accept"), "text/event-stream"))
      return rpcError(406, -32000, "Not Acceptable: Accept must list text/event-stream");
    const session = this.shared ? await this.shared.find(call) : this.findSession(call);
    if (!(session instanceof SessionTransport)) return session;
    return versionMismatch(request, session, null, this.served) ?? session.listen(request.header("last-event-id"));
  }

  /** DELETE: the client ends its session. */
  async delete(call: EraCall): Promise<HttpResponseOut> {
    const { request } = call;
    if (!this.sessionful || request.header("mcp-session-id") === undefined)
      return emptyResponse(405, { allow: "POST" });
    const session = this.shared ? await this.shared.find(call) : this.findSession(call);
    if (!(session instanceof SessionTransport)) return session;
    const mismatch = versionMismatch(request, session, null, this.served);
    if (mismatch) return mismatch;
    if (this.shared) {
      const store = this.shared.store;
      try {
        await store.sessions.delete(session.sessionId);
      } catch (error) {
        this.services.report(error);
        return storeUnavailable(null);
      }
      store.publish({ type: "closed", origin: store.instanceId, session: session.sessionId });
    }
    await session.close();
    return emptyResponse(200);
  }

  /** Shutting down: GET and resumed streams end, so their clients reconnect (elsewhere, with a shared store). */
  endStreams(): void {
    for (const session of this.registry.sessions.values()) session.endStreams();
  }

  /** Shutting down, the deadline passed: requests still unanswered get their retryable error (or 404 unshared). */
  async giveUp(): Promise<void> {
    await Promise.all([
      ...[...this.registry.sessions.values()].map((s) => (this.shared ? s.giveUp() : s.leave())),
      ...[...this.sessionless].map((t) => t.giveUp()),
    ]);
  }

  async close(): Promise<void> {
    this.shared?.close();
    await Promise.all([...this.registry.sessions.values()].map((s) => s.leave()));
  }

  /**
   * `initialize` opens a session, and only a successful one keeps it: the id is issued with an InitializeResult
   * and nothing else (a failed initialize is answered without `Mcp-Session-Id` and leaves nothing behind).
   */
  private async initialize(posted: PostedRequest, call: EraCall): Promise<HttpResponseOut> {
    const { request, authInfo } = call;
    const client = clientKeyOf(authInfo, request.remoteAddress);
    const refused = this.registry.refusal(client);
    if (refused) return rpcError(refused.status, -32000, refused.message, posted.id);
    const session = this.newTransport(mintSessionId());
    session.principal = principalOf(authInfo);
    this.registry.add(session, client);
    await connectOrForget(this.services.host, session);
    // Plain JSON, so the answer (and with it the session id header) is decided only once the outcome is known.
    const answer = await session.post([posted], [], false, this.services.context(call), "json", request)!;
    if (session.protocolVersion !== undefined && this.shared) {
      const record: SessionRecord = { initialize: posted.params ?? {}, principal: session.principal };
      try {
        await this.shared.store.sessions.create(session.sessionId, record);
      } catch (error) {
        this.services.report(error);
        await session.close();
        return storeUnavailable(posted.id);
      }
    }
    if (session.protocolVersion !== undefined) return answer;
    await session.close();
    return { ...answer, headers: JSON_HEADERS };
  }

  private newTransport(id: string): SessionTransport {
    const options = this.services.options;
    const keepAliveMs = options.keepAliveMs ?? 25_000;
    const served = this.services.host.revisions;
    const shared = this.shared?.session(
      id,
      () => sendsPrimingEvent(served, transport.protocolVersion),
      options.retryMs,
      keepAliveMs,
    );
    const eventStore = shared
      ? shared.events
      : options.eventStore === false
        ? undefined
        : (options.eventStore ?? (() => new InMemoryEventStore()))();
    const transport: SessionTransport = new SessionTransport(id, {
      eventStore,
      retryMs: options.retryMs,
      keepAliveMs,
      pollAfterMs: options.pollAfterMs,
      onClosed: (s) => this.registry.remove(s),
      served,
      shared,
    });
    return transport;
  }

  /** The request's session, or the error answer (carrying `replyId`, the id of the request being refused). */
  private findSession(call: EraCall, replyId: RequestId | null = null): SessionTransport | HttpResponseOut {
    const id = call.request.header("mcp-session-id");
    if (id === undefined) return rpcError(400, -32000, "Bad Request: Mcp-Session-Id header is required", replyId);
    const session = this.registry.sessions.get(id);
    // A session bound to one principal is invisible to another (no session hijacking with a stolen id).
    if (
      !session ||
      session.isClosed ||
      (session.principal !== undefined && session.principal !== principalOf(call.authInfo))
    )
      return rpcError(404, -32001, "Session not found", replyId);
    return session;
  }

  /**
   * `sessions: false`: the server session needs an `initialize` before it serves anything, so one is replayed first
   * at the request's revision, and the session is used once. A response POSTed has nobody waiting for it.
   */
  private serveSessionless(
    posted: Posted,
    call: EraCall,
    revision: string,
  ): HttpResponseOut | Promise<HttpResponseOut> {
    if (posted.method === undefined) return emptyResponse(202);
    const options = this.services.options;
    const serve: StatelessServeOptions = {
      mode: options.responseMode ?? "auto",
      keepAliveMs: options.keepAliveMs ?? 25_000,
      cancelOnClose: false,
      handshakeRevision: revision,
    };
    const context = this.services.context(call);
    const transport = new RequestTransport(undefined, this.sessionless);
    return connectOrForget(this.services.host, transport).then(() =>
      transport.run(posted, serve, context, call.request),
    );
  }
}
