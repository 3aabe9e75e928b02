/**
 * The context every server handler receives. It is the same in both eras: `elicit`, `createMessage` and `listRoots`
 * become JSON-RPC requests to the client in the handshake era and multi round-trip input requests in the stateless
 * era (the handler is then re-run on the client's retry, and earlier answers are replayed in call order).
 */
import type { IncomingRequest } from "../protocol/engine.ts";
import type { JsonRpcId } from "../jsonrpc/messages.ts";
import type {
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  Implementation,
  ListRootsResult,
} from "../protocol/builtin-types.ts";
import type { Capabilities } from "../protocol/capabilities.ts";
import type { MetaObject, LogLevel } from "../protocol/meta.ts";
import type { AnyNotificationType, ParamsOf } from "../protocol/method-type.ts";
import type { Era } from "../protocol/profiles.ts";
import type { RequestScope } from "./scope.ts";
import type { AuthInfo } from "../transport/transport.ts";

export interface RequestLogger {
  /** Sends `notifications/message` when the client asked for this level (or lower); otherwise a no-op. */
  log(level: LogLevel, data: unknown, logger?: string): Promise<void>;
  debug(data: unknown, logger?: string): Promise<void>;
  info(data: unknown, logger?: string): Promise<void>;
  warning(data: unknown, logger?: string): Promise<void>;
  error(data: unknown, logger?: string): Promise<void>;
}

/** Options of `elicit`/`createMessage`/`listRoots`. */
export interface InputOptions {
  /**
   * Stateless era: the key of this input in `inputRequests`/`inputResponses` (e.g. `"user_name"`); unique among
   * the handler's inputs. Default: `input-<n>`, numbered in call order among the calls without a key. Ignored in the
   * handshake era, where the input is a JSON-RPC request with its own id.
   */
  readonly key?: string;
}

export interface RequestContext {
  readonly requestId: JsonRpcId;
  readonly method: string;
  /** Aborted when the client cancels the request or the connection closes. */
  readonly signal: AbortSignal;
  /** The revision this request is served under. */
  readonly revision: string;
  readonly era: Era;
  readonly clientInfo: Implementation | undefined;
  readonly clientCapabilities: Capabilities;
  /** The verified bearer identity, when an HTTP transport authenticated the request. */
  readonly authInfo: AuthInfo | undefined;
  /** Allow-listed HTTP request headers (lower-case), when the request came over HTTP. */
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** The request's `_meta`. */
  readonly meta: MetaObject | undefined;
  /** Sends `notifications/progress` if the client asked for progress; otherwise a no-op. */
  reportProgress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Streamable HTTP sessions with resumable streams (2025-11-25 on): ends the SSE connection carrying this
   * request's answer now; the client reconnects with Last-Event-ID and gets the rest (SSE polling, SEP-1699).
   * Returns false, doing nothing, on other transports and revisions.
   */
  closeSseStream(): boolean;
  readonly log: RequestLogger;
  /**
   * Asks the user through the client: form mode, or `mode: "url"` (the client must declare `elicitation.url`;
   * 2025-11-25 needs an `elicitationId`, 2026-07-28 has none). Requires the client's `elicitation` capability.
   */
  elicit(params: ElicitParams, options?: InputOptions): Promise<ElicitResult>;
  /**
   * Tells the client that the out-of-band interaction of URL-mode elicitation `elicitationId` finished. Handshake era
   * (2025-11-25): sends `notifications/elicitation/complete`, and resolves true, when the client declared
   * `elicitation.url`; usable after the request ended (e.g. once the user returns from an OAuth flow started by a
   * -32042 error). Resolves false, sending nothing, otherwise: the notification is optional, older revisions lack
   * it, and 2026-07-28 removed it because the client learns the outcome by retrying the request. A non-string id
   * rejects with `ProtocolUsageError`.
   */
  completeElicitation(elicitationId: string): Promise<boolean>;
  /** Asks the client's model. Requires the client's `sampling` capability. */
  createMessage(params: CreateMessageParams, options?: InputOptions): Promise<CreateMessageResult>;
  /** Asks the client for its roots. Requires the client's `roots` capability. */
  listRoots(options?: InputOptions): Promise<ListRootsResult>;
}

/**
 * One connection to a client as user code sees it (`McpServer.connect`'s result, `McpServer.sessions`, the session a
 * client notification arrived on): a stdio process, an HTTP session, or a single stateless HTTP request.
 */
export interface ServerSession {
  /** The handshake-era revision (wire version) negotiated by `initialize`; undefined until then and for stateless use. */
  readonly revision: string | undefined;
  /** `handshake` once initialized; `stateless` once a stateless request was served; undefined before. */
  readonly era: Era | undefined;
  readonly clientInfo: Implementation | undefined;
  readonly clientCapabilities: Capabilities | undefined;
  readonly closed: boolean;
  /** Handshake era: checks the client is alive. */
  ping(timeoutMs?: number): Promise<void>;
  /**
   * Handshake era: sends a server→client notification of the negotiated revision (e.g.
   * `notifications/elicitation/complete`), or of an extension both sides declared, by token or method. Throws
   * `ProtocolUsageError` for a method the session cannot send or whose capability gate is not declared.
   */
  notify<T extends AnyNotificationType>(
    token: T | string,
    params?: ParamsOf<T> & Readonly<Record<string, unknown>>,
  ): Promise<void>;
  /** Ends `subscriptions/listen` streams with their graceful result, then closes the transport. */
  close(): Promise<void>;
}

/** What a context needs from the session serving it. */
export interface ContextHost {
  sendProgress(context: HandlerContext, progress: number, total?: number, message?: string): Promise<void>;
  sendLog(context: HandlerContext, level: LogLevel, data: unknown, logger?: string): Promise<void>;
  sendElicitationComplete(context: HandlerContext, elicitationId: string): Promise<boolean>;
}

/** The `RequestContext` implementation: one per request, no per-request closures. */
export class HandlerContext implements RequestContext {
  /** The last progress value sent (progress must increase). */
  lastProgress = -Infinity;
  private logger: RequestLogger | undefined;

  constructor(
    private readonly request: IncomingRequest,
    /** What the era says about this request: revision, client, capabilities, log threshold, input channel. */
    readonly scope: RequestScope,
    readonly meta: MetaObject | undefined,
    private readonly host: ContextHost,
  ) {}

  /** The wire version of the revision this request is served under. */
  get revision(): string {
    return this.scope.profile.version;
  }
  get era(): Era {
    return this.scope.profile.era;
  }
  get clientInfo(): Implementation | undefined {
    return this.scope.clientInfo;
  }
  get clientCapabilities(): Capabilities {
    return this.scope.clientCapabilities;
  }

  get requestId(): JsonRpcId {
    return this.request.id;
  }
  get method(): string {
    return this.request.method;
  }
  get signal(): AbortSignal {
    return this.request.signal;
  }
  get authInfo(): AuthInfo | undefined {
    return this.request.context?.authInfo;
  }
  get headers(): Readonly<Record<string, string>> | undefined {
    return this.request.context?.headers;
  }

  reportProgress(progress: number, total?: number, message?: string): Promise<void> {
    return this.host.sendProgress(this, progress, total, message);
  }

  closeSseStream(): boolean {
    return this.request.context?.closeStream?.() ?? false;
  }

  get log(): RequestLogger {
    if (!this.logger) {
      const log = (level: LogLevel, data: unknown, logger?: string) => this.host.sendLog(this, level, data, logger);
      this.logger = {
        log,
        debug: (data, logger) => log("debug", data, logger),
        info: (data, logger) => log("info", data, logger),
        warning: (data, logger) => log("warning", data, logger),
        error: (data, logger) => log("error", data, logger),
      };
    }
    return this.logger;
  }

  elicit(params: ElicitParams, options?: InputOptions): Promise<ElicitResult> {
    return this.scope.input.ask("elicitation/create", params, options?.key) as Promise<ElicitResult>;
  }
  completeElicitation(elicitationId: string): Promise<boolean> {
    return this.host.sendElicitationComplete(this, elicitationId);
  }
  createMessage(params: CreateMessageParams, options?: InputOptions): Promise<CreateMessageResult> {
    return this.scope.input.ask("sampling/createMessage", params, options?.key) as Promise<CreateMessageResult>;
  }
  listRoots(options?: InputOptions): Promise<ListRootsResult> {
    return this.scope.input.ask("roots/list", {}, options?.key) as Promise<ListRootsResult>;
  }
}
