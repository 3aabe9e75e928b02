/**
 * The stateless era on Streamable HTTP (2026-07-28 on): every POST stands alone. The header rules of
 * stateless-checks.ts admit it; a server session serves it on a `RequestTransport` and, when the request finished
 * normally, waits idle for the next POST (a stateless-era server session keeps nothing between requests). Stream
 * rules: a client that goes away cancels its request, and a plain-JSON answer's status follows its error code.
 */
import { rpcError, type Posted } from "./answers.ts";
import { connectOrForget, type EraCall, type EraServices, type HttpEra } from "./eras.ts";
import { checkStatelessRequest, statelessStatusOf } from "./stateless-checks.ts";
import { RequestTransport, type StatelessServeOptions } from "./request-transport.ts";
import { revisionEra } from "./versions.ts";
import type { HttpResponseOut } from "./types.ts";

/** Idle server sessions kept for the next POST; beyond this many they are closed. */
const MAX_IDLE = 64;

export class StatelessEra implements HttpEra {
  readonly era = "stateless";
  /** Server sessions idle and ready for the next request. */
  private readonly idle: RequestTransport[] = [];
  /** Server sessions serving a request now. */
  readonly running = new Set<RequestTransport>();
  private closed = false;
  private readonly park = (transport: RequestTransport): void => {
    if (this.idle.length < MAX_IDLE && !this.closed) this.idle.push(transport);
    else void transport.close();
  };

  /** The stream rules of this era, the same for every request. */
  private readonly serve: StatelessServeOptions;

  constructor(private readonly services: EraServices) {
    const { options } = services;
    this.serve = {
      mode: options.responseMode ?? "auto",
      keepAliveMs: options.keepAliveMs ?? 25_000,
      cancelOnClose: true,
      statusOf: statelessStatusOf,
    };
  }

  /** Not `async`: per request, so no extra promise; the caller awaits whatever this returns. */
  post(posted: Posted, call: EraCall): HttpResponseOut | Promise<HttpResponseOut> {
    const { options } = this.services;
    const failure = checkStatelessRequest(call.request, posted, options.headerParams, options.modernVersions);
    if (failure) return failure;
    const scope = this.services.scopeFailure([posted], call.authInfo);
    if (scope) return scope;
    const { serve } = this;
    const context = this.services.context(call);
    const idle = this.idle.pop();
    if (idle) return idle.run(posted, serve, context, call.request);
    const transport = new RequestTransport(this.park, this.running);
    return connectOrForget(this.services.host, transport).then(() =>
      transport.run(posted, serve, context, call.request),
    );
  }

  /** This era has no batches: the answer names the revision that says so. */
  postBatch(valid: readonly Posted[], _errors: readonly object[], call: EraCall): HttpResponseOut {
    const named = valid.find(
      (p) => p.metaVersion !== undefined && revisionEra(this.services.host.revisions, p.metaVersion) !== "handshake",
    )?.metaVersion;
    const revision = named ?? call.request.header("mcp-protocol-version") ?? "(none)";
    return rpcError(
      400,
      -32600,
      `Invalid Request: JSON-RPC batches do not exist in MCP revision ${revision}; send one message per POST`,
    );
  }

  /** Shutting down, the deadline passed: requests still running get their retryable error. */
  async giveUp(): Promise<void> {
    await Promise.all([...this.running].map((t) => t.giveUp()));
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.idle.splice(0), ...this.running].map((t) => t.close()));
  }
}
