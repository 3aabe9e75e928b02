/**
 * The context every server handler receives. It is the same in both eras: `elicit`, `createMessage` and `listRoots`
 * become JSON-RPC requests to the client in the handshake era and multi round-trip input requests in the stateless
 * era (the handler is then re-run on the client's retry, and earlier answers are replayed in call order).
 */
import type { JsonRpcId } from "../jsonrpc/messages.ts";
import type {
  CapabilitiesObject,
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  Implementation,
  ListRootsResult,
} from "../protocol/types.ts";
import type { MetaObject, LogLevel } from "../session/meta.ts";
import type { Era } from "../session/profiles.ts";
import type { AuthInfo } from "../transport/transport.ts";

export interface RequestLogger {
  /** Sends `notifications/message` when the client asked for this level (or lower); otherwise a no-op. */
  log(level: LogLevel, data: unknown, logger?: string): Promise<void>;
  debug(data: unknown, logger?: string): Promise<void>;
  info(data: unknown, logger?: string): Promise<void>;
  warning(data: unknown, logger?: string): Promise<void>;
  error(data: unknown, logger?: string): Promise<void>;
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
  readonly clientCapabilities: CapabilitiesObject;
  /** The verified bearer identity, when an HTTP transport authenticated the request. */
  readonly authInfo: AuthInfo | undefined;
  /** Allow-listed HTTP request headers (lower-case), when the request came over HTTP. */
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** The request's `_meta`. */
  readonly meta: MetaObject | undefined;
  /** Sends `notifications/progress` if the client asked for progress; otherwise a no-op. */
  reportProgress(progress: number, total?: number, message?: string): Promise<void>;
  readonly log: RequestLogger;
  /** Asks the user through the client (form or URL mode). Requires the client's `elicitation` capability. */
  elicit(params: ElicitParams): Promise<ElicitResult>;
  /** Asks the client's model. Requires the client's `sampling` capability. */
  createMessage(params: CreateMessageParams): Promise<CreateMessageResult>;
  /** Asks the client for its roots. Requires the client's `roots` capability. */
  listRoots(): Promise<ListRootsResult>;
}

/** How `elicit`/`createMessage`/`listRoots` reach the client in the current era. */
export interface InputChannel {
  ask(method: string, params: unknown): Promise<unknown>;
}

export interface ContextParts {
  readonly requestId: JsonRpcId;
  readonly method: string;
  readonly signal: AbortSignal;
  readonly revision: string;
  readonly era: Era;
  readonly clientInfo: Implementation | undefined;
  readonly clientCapabilities: CapabilitiesObject;
  readonly authInfo: AuthInfo | undefined;
  readonly headers: Readonly<Record<string, string>> | undefined;
  readonly meta: MetaObject | undefined;
  readonly progress: (progress: number, total?: number, message?: string) => Promise<void>;
  readonly log: (level: LogLevel, data: unknown, logger?: string) => Promise<void>;
  readonly input: InputChannel;
}

export function createContext(parts: ContextParts): RequestContext {
  const log = parts.log;
  return {
    requestId: parts.requestId,
    method: parts.method,
    signal: parts.signal,
    revision: parts.revision,
    era: parts.era,
    clientInfo: parts.clientInfo,
    clientCapabilities: parts.clientCapabilities,
    authInfo: parts.authInfo,
    headers: parts.headers,
    meta: parts.meta,
    reportProgress: parts.progress,
    log: {
      log,
      debug: (data, logger) => log("debug", data, logger),
      info: (data, logger) => log("info", data, logger),
      warning: (data, logger) => log("warning", data, logger),
      error: (data, logger) => log("error", data, logger),
    },
    elicit: (params) => parts.input.ask("elicitation/create", params) as Promise<ElicitResult>,
    createMessage: (params) => parts.input.ask("sampling/createMessage", params) as Promise<CreateMessageResult>,
    listRoots: () => parts.input.ask("roots/list", {}) as Promise<ListRootsResult>,
  };
}
