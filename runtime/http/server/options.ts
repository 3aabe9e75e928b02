/** The options of the MCP HTTP endpoint (`McpHttpHandler`, and `serve()` on top of them). */
import type { RevisionFacts } from "../../protocol/preference.ts";
import type { Transport } from "../../transport/transport.ts";
import type { RegisteredTool } from "../../server/options.ts";
import type { BearerAuthOptions } from "../../auth/bearer.ts";
import type { EventStore } from "./event-store.ts";
import type { ResponseMode } from "./exchange.ts";
import type { HostGuardOptions } from "./guards.ts";
import type { HeaderParamsLookup } from "./stateless-checks.ts";
import type { HealthOptions } from "./probes.ts";
import type { Broadcast, StateStore } from "./shared-state.ts";

/**
 * A registered tool as the HTTP layer reads it: its definition (`x-mcp-header` annotations for `serve()`'s header
 * checks) and the OAuth scopes a caller needs (enforced with bearer auth). `McpServer`'s tools are such entries.
 */
export interface HostTool {
  readonly definition: Pick<RegisteredTool["definition"], "name" | "inputSchema">;
  readonly scopes?: RegisteredTool["scopes"];
}

/** What the HTTP layer needs from an MCP server (`McpServer` is one): start a server-side session on a transport. */
export interface SessionHost {
  connect(transport: Transport): Promise<unknown> | unknown;
  /**
   * The revisions the server serves (`McpServer.revisions`): the HTTP layer decides era and batching from these, and
   * names their versions when a client asks for another. A version outside them is unknown here.
   */
  readonly revisions: readonly RevisionFacts[];
  /** Shutting down: end `subscriptions/listen` streams gracefully, so their clients listen elsewhere (`McpServer`). */
  endListenStreams?(): void;
  /** The server's tools by name (`McpServer.tools`); without them only `auth.toolScopes` and `headerParams` apply. */
  readonly tools?: ReadonlyMap<string, HostTool>;
  /**
   * Hears the broadcasts the server raises (`list_changed`, `resources/updated`); an endpoint with a shared `store`
   * sets it to tell the other instances.
   */
  onBroadcast?: ((broadcast: Broadcast) => void) | undefined;
  /** A broadcast raised on another instance, for this process's sessions. */
  deliverBroadcast?(broadcast: Broadcast): void;
  /**
   * The most resource subscriptions one session may hold (`McpServer.maxSubscriptionsPerSession`): with a shared
   * `store`, each session's subscriptions there are bounded by it. Default 1,000.
   */
  readonly maxSubscriptionsPerSession?: number;
  /**
   * The endpoint shares `store` with other instances (`McpServer.shareState`): throws when the server keeps state
   * only this process sees, refusing the configuration at start-up.
   */
  shareState?(store: StateStore): void;
}

export interface McpHttpOptions extends HostGuardOptions {
  /** The MCP endpoint path. Default "/mcp". `null`: every path not claimed by another route. */
  readonly path?: string | null;
  /** Handshake era: mint `Mcp-Session-Id`s (default true). `false` serves every POST statelessly. */
  readonly sessions?: boolean;
  /** "auto" (default): plain JSON unless something is sent before the response; "sse"; "json". */
  readonly responseMode?: ResponseMode;
  /** Default 4 MiB; larger bodies get 413. */
  readonly maxBodyBytes?: number;
  /**
   * State shared by several instances of this server behind a load balancer (`redisStore({ url })` from
   * `@mcp-gen/runtime/redis`): handshake-era sessions, their resumable streams, broadcasts, and answers to
   * server→client requests then work on whichever instance a request lands. Default: none, everything stays in this
   * process. It replaces `eventStore`.
   */
  readonly store?: StateStore;
  /** Resumability store per session (default: in memory, bounded); `false` disables event ids. */
  readonly eventStore?: false | (() => EventStore);
  /** Sent as the SSE `retry` field with the priming event. */
  readonly retryMs?: number;
  /**
   * SSE polling (2025-11-25 sessions): close a POST's SSE connection this long after it opened when the response
   * is not there yet; the client comes back with GET + Last-Event-ID (after `retryMs`) for the rest. For proxies
   * and load balancers that cut long requests. Default: off.
   */
  readonly pollAfterMs?: number;
  /** Sessions idle (no open stream, nothing in flight) this long are closed. Default 15 minutes. */
  readonly sessionIdleTimeoutMs?: number;
  /** Default 10,000; beyond it new sessions get 503. */
  readonly maxSessions?: number;
  /**
   * Sessions one client may hold (the token's principal when authenticated, else the remote address); beyond it
   * new sessions get 429. Default 100. Behind a proxy every client has the proxy's address: raise it there.
   */
  readonly maxSessionsPerClient?: number;
  /** A session that has not sent `notifications/initialized` is closed after this long without traffic. Default 30 s. */
  readonly uninitializedSessionTimeoutMs?: number;
  /** SSE keep-alive comment interval. Default 25 s; 0 disables. */
  readonly keepAliveMs?: number;
  /** Request headers (lower-case) copied into every handler's context. Default: user-agent, x-request-id, traceparent, tracestate. */
  readonly forwardHeaders?: readonly string[];
  /** Bearer auth as an OAuth resource server. */
  readonly auth?: BearerAuthOptions;
  /** Legacy HTTP+SSE endpoints (default on, at /sse and /messages); `false` disables them. */
  readonly legacySse?: false | LegacyPaths;
  /** Stateless era: a tool's `x-mcp-header` annotations, to check `Mcp-Param-*` headers. */
  readonly headerParams?: HeaderParamsLookup;
  /** Stateless-era versions this server speaks; others get -32022. Default: left to the server. */
  readonly modernVersions?: readonly string[];
  /**
   * Opt-in probe endpoints: `true` serves liveness at `/health` and readiness at `/ready` (GET/HEAD, JSON, 200 or
   * 503; readiness checks the shared `store` and turns 503 once a graceful close begins). Default: none.
   */
  readonly health?: boolean | HealthOptions;
  readonly onError?: (error: unknown) => void;
}

export interface LegacyPaths {
  readonly ssePath: string;
  readonly messagesPath: string;
}
