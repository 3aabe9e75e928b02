/**
 * The server's two eras, one strategy object each (the era facts they follow are in `protocol/era.ts`). The
 * session finds the request's revision and method, then asks the era's strategy three things: how params are
 * checked (admission), what the request's scope is (who asks, with which capabilities, how input reaches the
 * client), and how the handler's outcome becomes the answer (result completion). Nothing else in the session
 * branches on the era.
 *
 * - handshake era: the scope is the session's (fixed by `initialize`); inputs are JSON-RPC requests to the client;
 *   results go out as the handler returned them.
 * - stateless era: the scope comes from the request's `_meta`; inputs are multi round-trip rounds whose earlier
 *   answers arrive HMAC-sealed in `requestState`; results get `resultType`, caching hints and the server's info.
 */
import type { IncomingRequest, JsonRpcEngine } from "../protocol/engine.ts";
import { ERA_RULES, type EraRules } from "../protocol/era.ts";
import type { Capabilities } from "../protocol/capabilities.ts";
import { LOG_LEVELS, logLevelRank, MetaKey, metaOf, type LogLevel, type MetaObject } from "../protocol/meta.ts";
import type { AnyRequestType } from "../protocol/method-type.ts";
import type { Era, RevisionProfile } from "../protocol/profiles.ts";
import { withRepeatedMeta } from "../protocol/repeated-meta.ts";
import type { Implementation } from "../protocol/builtin-types.ts";
import { parseParams, type Validator } from "../protocol/validation.ts";
import { ErrorCode, RpcError } from "../jsonrpc/errors.ts";
import type { Admitted, HandshakeState, InputChannel, RequestScope } from "./scope.ts";
import { HandshakeInput } from "./handshake-input.ts";
import { InputRounds } from "./mrtr.ts";
import { principalOf, type RequestBinding, type RequestStateSealer } from "./request-state.ts";

type Result = Record<string, unknown>;

/** What the strategies need from the session and server serving the request. */
export interface ServingPort {
  readonly engine: JsonRpcEngine;
  readonly handshake: HandshakeState | undefined;
  readonly sealer: RequestStateSealer;
  serverCapabilities(): Capabilities;
  /** The server's `serverInfo` (named in stateless-era results' `_meta`). */
  readonly serverInfo: object;
  readonly cache: { readonly ttlMs?: number; readonly scope?: "public" | "private" } | undefined;
}

export interface ServerEra {
  readonly rules: EraRules;
  /** The schema a request's params are validated with. */
  paramsSchema(token: AnyRequestType): Validator<unknown>;
  /** The request's scope; may wait (verifying a `requestState`). */
  scope(
    port: ServingPort,
    request: IncomingRequest,
    profile: RevisionProfile,
    admitted: Admitted,
  ): RequestScope | Promise<RequestScope>;
  /**
   * The answer to send, from running the handler. Not async: a method that answers synchronously is answered
   * without another promise and microtask hop.
   */
  finish(
    port: ServingPort,
    request: IncomingRequest,
    admitted: Admitted,
    scope: RequestScope,
    run: () => Result | Promise<Result>,
  ): Result | Promise<Result>;
}

/**
 * A handshake-era request's scope: the session's. A class rather than an object literal with a getter: V8 builds
 * such a literal on a slow path (about 2 µs and a dictionary-mode object per request, most of the stdio regression
 * after `dc2b2c2`), while the class keeps its getter on the prototype.
 */
class HandshakeScope implements RequestScope {
  readonly clientCapabilities: Capabilities;
  readonly clientInfo: Implementation | undefined;
  readonly serverCapabilities: Capabilities;

  constructor(
    readonly profile: RevisionProfile,
    private readonly state: HandshakeState,
    readonly input: InputChannel,
  ) {
    this.clientCapabilities = state.clientCapabilities;
    this.clientInfo = state.clientInfo;
    this.serverCapabilities = state.serverCapabilities;
  }

  /** Until the client sets a level, everything is sent (logging.mdx leaves the default to the server). */
  get logThreshold(): LogLevel | undefined {
    return this.state.logLevel ?? LOG_LEVELS[0];
  }
}

const handshake: ServerEra = {
  rules: ERA_RULES.handshake,
  paramsSchema: (token) => token.params,
  scope(port, request, profile) {
    const state = port.handshake;
    if (!state) throw new Error("a handshake-era request outside a handshake session");
    return new HandshakeScope(
      profile,
      state,
      new HandshakeInput(port.engine, request, profile, state.clientCapabilities),
    );
  },
  finish: (_port, _request, _admitted, _scope, run) => run(),
};

/** What opening a handshake-era session needs from the server definition (`ServerDefinition` is one). */
export interface HandshakeOffer {
  /** Handshake-era profiles served, newest first. */
  readonly handshakeProfiles: readonly RevisionProfile[];
  readonly handshakeByRevision: ReadonlyMap<string, RevisionProfile>;
  /** Every wire version served (named when none of them speaks `initialize`). */
  readonly versions: readonly string[];
  /** The server's capabilities (under the revision of wire version `version`, when given). */
  capabilities(version?: string): Capabilities;
  readonly options: { readonly info: Implementation; readonly instructions?: string };
}

/**
 * Opens a handshake-era session (`initialize`): the client's version when served, else the most preferred one
 * (basic/lifecycle.mdx); the client's capabilities and info, and the server's capabilities as declared now.
 */
export function openHandshake(
  server: HandshakeOffer,
  request: IncomingRequest,
): { readonly state: HandshakeState; readonly result: Result } {
  const requested = (request.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
  const newest = server.handshakeProfiles[0];
  if (!newest) {
    throw new RpcError(
      ErrorCode.UnsupportedProtocolVersion,
      `Unsupported protocol version; this server speaks ${server.versions.join(", ")} without initialize`,
      { supported: [...server.versions], requested: typeof requested === "string" ? requested : "" },
    );
  }
  const profile = (typeof requested === "string" && server.handshakeByRevision.get(requested)) || newest;
  const token = profile.requests.get("initialize");
  if (!token) throw new RpcError(ErrorCode.MethodNotFound, "Method not found: initialize");
  const params = parseParams(token.params, request.params, "initialize") as {
    capabilities?: Capabilities;
    clientInfo?: Implementation;
  };
  const capabilities = server.capabilities(profile.version);
  const state: HandshakeState = {
    profile,
    clientCapabilities: params.capabilities ?? {},
    serverCapabilities: capabilities,
    clientInfo: params.clientInfo,
    initialized: false,
    logLevel: undefined,
  };
  const result: Result = { protocolVersion: profile.version, capabilities, serverInfo: server.options.info };
  if (server.options.instructions !== undefined) result["instructions"] = server.options.instructions;
  return { state, result };
}

const NO_ANSWERS: Readonly<Record<string, unknown>> = Object.freeze({});

/** What a `requestState` is bound to: the method, the salient params and the caller. */
function bindingOf(request: IncomingRequest, params: Result): RequestBinding {
  return { method: request.method, params, principal: principalOf(request.context?.authInfo) };
}

function statelessScope(
  port: ServingPort,
  profile: RevisionProfile,
  admitted: Admitted,
  answers: Readonly<Record<string, unknown>>,
): RequestScope {
  const meta = metaOf(admitted.params) ?? {};
  const clientCapabilities = (meta[MetaKey.clientCapabilities] ?? {}) as Capabilities;
  const level = meta[MetaKey.logLevel];
  return {
    profile,
    clientCapabilities,
    clientInfo: meta[MetaKey.clientInfo] as Implementation | undefined,
    serverCapabilities: port.serverCapabilities(),
    // No logs unless the request asked for a level.
    logThreshold: logLevelRank(level) >= 0 ? (level as LogLevel) : undefined,
    input: new InputRounds(profile, clientCapabilities, answers, admitted.token.inputRequired),
  };
}

const stateless: ServerEra = {
  rules: ERA_RULES.stateless,
  paramsSchema: (token) => withRepeatedMeta(token.params),
  scope(port, request, profile, admitted) {
    const { params, token } = admitted;
    const state = params["requestState"];
    const responses = params["inputResponses"] as Record<string, unknown> | undefined;
    if (!token.inputRequired || (typeof state !== "string" && !responses))
      return statelessScope(port, profile, admitted, NO_ANSWERS);
    if (typeof state !== "string") return statelessScope(port, profile, admitted, { ...responses });
    return port.sealer
      .open(bindingOf(request, params), state)
      .then((opened) => statelessScope(port, profile, admitted, { ...opened.answers, ...responses }));
  },
  finish(port, request, admitted, scope, run) {
    const rounds = scope.input instanceof InputRounds ? scope.input : undefined;
    if (!rounds) return run();
    let outcome: Result | Promise<Result>;
    try {
      outcome = run();
    } catch (error) {
      return roundFailed(port, request, admitted, rounds, error);
    }
    // Inline arrows calling module functions, not named closures: tsx/esbuild's keepNames wraps every named
    // closure in a defineProperty call, which cost ~1 µs per stateless request in the stdio bench.
    return outcome instanceof Promise
      ? outcome.then(
          (result) => roundDone(port, request, admitted, rounds, result),
          (error: unknown) => roundFailed(port, request, admitted, rounds, error),
        )
      : roundDone(port, request, admitted, rounds, outcome);
  },
};

/** The handler returned: the answer is an `InputRequiredResult` while inputs are missing, else the complete result. */
function roundDone(
  port: ServingPort,
  request: IncomingRequest,
  admitted: Admitted,
  rounds: InputRounds,
  result: Result,
): Result | Promise<Result> {
  return rounds.missingCount > 0
    ? inputRequired(port, request, admitted, rounds)
    : completeResult(port, request, admitted.token, result);
}

/** A method that failed because it asked for input ends the round like one that returned. */
function roundFailed(
  port: ServingPort,
  request: IncomingRequest,
  admitted: Admitted,
  rounds: InputRounds,
  error: unknown,
): Result | Promise<Result> {
  if (rounds.missingCount === 0) throw error;
  return roundDone(port, request, admitted, rounds, {});
}

async function inputRequired(
  port: ServingPort,
  request: IncomingRequest,
  admitted: Admitted,
  rounds: InputRounds,
): Promise<Result> {
  await new Promise((resolve) => setTimeout(resolve, 0)); // let concurrent asks of the same round register
  const requestState = await port.sealer.seal(bindingOf(request, admitted.params), { answers: rounds.answers });
  return { resultType: "input_required", inputRequests: rounds.missing, requestState };
}

const serverInfoMetas = new WeakMap<object, MetaObject>();

/** The token states what a complete result declares: `resultType`, caching hints. */
function completeResult(port: ServingPort, request: IncomingRequest, token: AnyRequestType, result: Result): Result {
  const out: Result = Object.assign({}, result);
  if (token.resultType && out["resultType"] === undefined) out["resultType"] = "complete";
  if (token.cacheable) {
    const authenticated = request.context?.authInfo !== undefined;
    if (out["ttlMs"] === undefined) out["ttlMs"] = port.cache?.ttlMs ?? 0;
    if (out["cacheScope"] === undefined)
      out["cacheScope"] = port.cache?.scope ?? (authenticated ? "private" : "public");
  }
  // `_meta` naming this server (shared, never mutated).
  let serverMeta = serverInfoMetas.get(port.serverInfo);
  if (!serverMeta) {
    serverMeta = Object.freeze({ [MetaKey.serverInfo]: port.serverInfo });
    serverInfoMetas.set(port.serverInfo, serverMeta);
  }
  const meta = out["_meta"] as MetaObject | undefined;
  out["_meta"] = meta === undefined ? serverMeta : Object.assign({}, meta, serverMeta);
  return out;
}

const SERVER_ERAS: Readonly<Record<Era, ServerEra>> = { handshake, stateless };

export function serverEra(era: Era): ServerEra {
  return SERVER_ERAS[era];
}
