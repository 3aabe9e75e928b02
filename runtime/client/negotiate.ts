/**
 * Picking the revision with a server (basic/versioning.mdx, basic/transports/stdio.mdx#backward-compatibility):
 * when a stateless revision is acceptable, probe with `server/discover`; a `DiscoverResult` or a recognized stateless-era
 * error (-32022 with `data.supported`) means a stateless server; a refused credential (HTTP 401/403) is reported as
 * it is; any other error or silence means a handshake-era server, which gets `initialize` with the most preferred acceptable
 * handshake revision (the profiles arrive in preference order, `rankProfiles` in protocol/preference.ts; nothing
 * here compares versions as dates).
 */
import type { JsonRpcEngine } from "../protocol/engine.ts";
import { ConnectionClosedError, ErrorCode, RpcError, TransportRefusalError } from "../jsonrpc/errors.ts";
import type { Capabilities as CapabilitiesObject } from "../protocol/capabilities.ts";
import type { Implementation } from "../protocol/builtin-types.ts";
import { MetaKey, withMeta } from "../protocol/meta.ts";
import { ERA_RULES } from "../protocol/era.ts";
import type { RevisionProfile } from "../protocol/profiles.ts";
import { parseResult, type Validator } from "../protocol/validation.ts";

export interface Negotiated {
  readonly profile: RevisionProfile;
  readonly serverCapabilities: CapabilitiesObject;
  readonly serverInfo: Implementation | undefined;
  readonly instructions: string | undefined;
  /** Stateless era: the versions `server/discover` listed. */
  readonly supportedVersions: readonly string[] | undefined;
}

export interface NegotiationInput {
  readonly engine: JsonRpcEngine;
  /** Acceptable revisions, newest first. */
  readonly profiles: readonly RevisionProfile[];
  /** The capabilities the client declares under a revision (by wire version). */
  readonly capabilities: (version: string) => CapabilitiesObject;
  readonly info: Implementation;
  readonly probeTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly signal: AbortSignal | undefined;
  /** Go straight to `initialize` (the server is known to be handshake-era). */
  readonly skipProbe?: boolean;
  /**
   * The server can be started again (stdio): a `DiscoverResult` that arrives after the probe timed out, while
   * `initialize` is under way, then rejects with `LateDiscoverAnswerError` instead of keeping the handshake era.
   */
  readonly restartable?: boolean;
  readonly onDiagnostic?: ((message: string) => void) | undefined;
}

/** The connection closed during the `server/discover` probe: some handshake-era servers exit on any pre-`initialize` request. */
export class ProbeConnectionLostError extends Error {
  constructor(cause: Error) {
    super(`the server closed the connection on the server/discover probe: ${cause.message}`, { cause });
    this.name = "ProbeConnectionLostError";
  }
}

/**
 * The server answered the `server/discover` probe with a `DiscoverResult` only after the probe had timed out (a slow
 * start: `npx` fetching, `tsx` compiling) and `initialize` had gone out: it speaks the stateless era, so the caller
 * starts it again and probes patiently rather than keep the older era.
 */
export class LateDiscoverAnswerError extends Error {
  constructor(readonly waitedMs: number) {
    super(`the server answered server/discover only after the ${waitedMs} ms probe timeout`);
    this.name = "LateDiscoverAnswerError";
  }
}

export class NegotiationError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "NegotiationError";
  }
}

/** The `_meta` every stateless-era request carries. */
export function statelessMeta(
  revision: string,
  capabilities: CapabilitiesObject,
  info: Implementation,
): Record<string, unknown> {
  return {
    [MetaKey.protocolVersion]: revision,
    [MetaKey.clientCapabilities]: capabilities,
    [MetaKey.clientInfo]: info,
  };
}

export async function negotiate(input: NegotiationInput): Promise<Negotiated> {
  const stateless = input.profiles.filter((p) => p.era === "stateless");
  const handshake = input.profiles.filter((p) => p.era === "handshake");
  let serverVersions: readonly string[] | undefined;
  let late: LateAnswer | undefined;
  const first = input.skipProbe ? undefined : stateless[0];
  if (first) {
    let outcome = await probe(input, first, input.probeTimeoutMs);
    // A client that speaks no handshake-era revision has no fallback to send: it waits for the probe's own answer
    // (up to the request timeout) rather than fail a slow server as one it cannot talk to.
    if (outcome.kind === "silent" && handshake.length === 0) outcome = await outcome.late;
    if (outcome.kind === "stateless") return outcome.negotiated;
    if (outcome.kind === "silent") late = watchLateAnswer(input, outcome);
    if (outcome.kind === "unsupported") {
      serverVersions = outcome.supported;
      const retry = stateless.find((p) => outcome.supported.includes(p.version));
      if (retry) {
        const again = await probe(input, retry, input.requestTimeoutMs);
        if (again.kind === "stateless") return again.negotiated;
        throw new NegotiationError(
          `server/discover with ${retry.version} failed after the server listed it as supported`,
        );
      }
    }
  }
  const usable = serverVersions ? handshake.filter((p) => serverVersions!.includes(p.version)) : handshake;
  const best = usable[0];
  if (!best) throw noCommonRevision(input, serverVersions, undefined);
  try {
    const negotiated = await initialize(input, best, handshake).finally(() => late?.checkRestart());
    late?.reportLater(negotiated.profile.version);
    return negotiated;
  } catch (error) {
    if (error instanceof LateDiscoverAnswerError) throw error;
    // The probe went unanswered, then the connection closed with initialize pending: a slow-starting server that exits
    // on any request before initialize read the probe first. Started again, it gets initialize alone.
    if (late && input.restartable && error instanceof ConnectionClosedError) throw new ProbeConnectionLostError(error);
    // A stateless-era server refusing `initialize` names the versions it supports (versioning.mdx): after a probe that timed
    // out (a slow server), that answer identifies its era, so probe again with a version it listed.
    const listed = unsupportedVersions(error);
    const retry = listed && !serverVersions ? stateless.find((p) => listed.includes(p.version)) : undefined;
    if (listed && !retry) throw noCommonRevision(input, listed, error);
    if (!retry) throw error;
    const again = await probe(input, retry, input.requestTimeoutMs);
    if (again.kind === "stateless") return again.negotiated;
    throw error;
  }
}

function noCommonRevision(
  input: NegotiationInput,
  serverVersions: readonly string[] | undefined,
  cause: unknown,
): NegotiationError {
  const theirs = serverVersions ? ` (the server supports ${serverVersions.join(", ")})` : "";
  const ours = input.profiles.map((p) => p.version).join(", ");
  return new NegotiationError(
    `no mutually supported protocol revision; this client accepts ${ours}${theirs}`,
    cause === undefined ? undefined : { cause },
  );
}

/** The `supported` list of an UnsupportedProtocolVersion (-32022) error, else undefined. */
function unsupportedVersions(error: unknown): readonly string[] | undefined {
  if (!(error instanceof RpcError) || error.code !== ErrorCode.UnsupportedProtocolVersion) return undefined;
  const supported = (error.data as { supported?: unknown } | undefined)?.supported;
  return Array.isArray(supported) ? supported.filter((v): v is string => typeof v === "string") : undefined;
}

/** Errors only a stateless-era server sends (besides -32022, handled as a version list): HeaderMismatch, MissingRequiredClientCapability. */
const STATELESS_ERA_REFUSALS: ReadonlySet<number> = new Set([-32020, -32021]);

type ProbeOutcome =
  | { readonly kind: "stateless"; readonly negotiated: Negotiated }
  | { readonly kind: "unsupported"; readonly supported: readonly string[] }
  | { readonly kind: "handshake" }
  /** No answer within the probe timeout; `late` is the probe itself, still waiting (up to the request timeout). */
  | { readonly kind: "silent"; readonly waitedMs: number; readonly late: Promise<ProbeOutcome> };

interface LateAnswer {
  /** After `initialize` settled: throws `LateDiscoverAnswerError` when a `DiscoverResult` came first and a restart can use it. */
  checkRestart(): void;
  /** After the handshake era was kept: a `DiscoverResult` arriving later is reported, not silently dropped. */
  reportLater(version: string): void;
}

/** Says that the probe went unanswered, and keeps listening for its answer (a slow server is not a legacy one). */
function watchLateAnswer(
  input: NegotiationInput,
  outcome: { waitedMs: number; late: Promise<ProbeOutcome> },
): LateAnswer {
  const diagnose = input.onDiagnostic;
  diagnose?.(
    `server/discover got no answer within ${outcome.waitedMs} ms (probeTimeoutMs): assuming a handshake-era server and sending initialize`,
  );
  let answered = false;
  let kept: string | undefined;
  void outcome.late.then((later) => {
    if (later.kind !== "stateless") return;
    answered = true;
    if (kept !== undefined)
      diagnose?.(
        `server/discover was answered after the probe timeout: the server speaks ${later.negotiated.profile.version}, but this connection keeps ${kept}; raise probeTimeoutMs for a slow-starting server`,
      );
  });
  return {
    checkRestart: () => {
      if (answered && input.restartable) throw new LateDiscoverAnswerError(outcome.waitedMs);
    },
    reportLater: (version) => void (kept = version),
  };
}

async function probe(input: NegotiationInput, profile: RevisionProfile, timeoutMs: number): Promise<ProbeOutcome> {
  const opening = ERA_RULES.stateless.openingMethod;
  const rp = profile.requests.get(opening);
  if (!rp) return { kind: "handshake" };
  const params = withMeta({}, statelessMeta(profile.version, input.capabilities(profile.version), input.info));
  // The probe's own timeout is a race, not the request's: a slow server's answer still counts when it comes (up to the
  // request timeout), and nothing cancels it, so a slow server does not drop it.
  const request = input.engine
    .request(opening, params, {
      timeoutMs: Math.max(timeoutMs, input.requestTimeoutMs),
      cancellable: false,
      ...(input.signal ? { signal: input.signal } : {}),
    })
    .then(
      (raw) => readDiscoverResult(rp.completeResult, profile, raw),
      (error: unknown) => probeFailure(input, error),
    );
  let timer: ReturnType<typeof setTimeout> | undefined;
  const silence = new Promise<"silent">((resolve) => (timer = setTimeout(() => resolve("silent"), timeoutMs)));
  const first = await Promise.race([request, silence]).finally(() => clearTimeout(timer));
  if (first !== "silent") return first;
  return { kind: "silent", waitedMs: timeoutMs, late: request.catch(() => ({ kind: "handshake" }) as const) };
}

function probeFailure(input: NegotiationInput, error: unknown): ProbeOutcome {
  const supported = unsupportedVersions(error);
  if (supported) return { kind: "unsupported", supported };
  if (error instanceof ConnectionClosedError) throw new ProbeConnectionLostError(error);
  // A refused credential (after the OAuth client, if any, gave up) is no answer of an era: `initialize` would be
  // refused too, or answered by a stateless-era server with an error that hides the refusal.
  if (error instanceof TransportRefusalError && error.accessDenied) throw error;
  if (error instanceof RpcError && STATELESS_ERA_REFUSALS.has(error.code)) {
    // A stateless-era server refused the probe itself (header mismatch, a capability it requires): falling back to
    // `initialize` would only hide why.
    throw new NegotiationError(`the server refused server/discover (${error.code}): ${error.message}`, {
      cause: error,
    });
  }
  if (input.signal?.aborted) throw error;
  // Anything that is not a recognized stateless-era error identifies a handshake-era server (versioning.mdx): a JSON-RPC error,
  // silence, or a transport-level refusal such as HTTP 400/404/405 with a body that is not such an error (streamable-http.mdx).
  // A stateless-era server's errors arrive as RpcError (the HTTP transport delivers a JSON-RPC error body answering the
  // request as such), so whatever else the transport throws here is a handshake-era answer.
  return { kind: "handshake" };
}

function readDiscoverResult(type: Validator<unknown>, profile: RevisionProfile, raw: unknown): ProbeOutcome {
  let result: {
    supportedVersions: string[];
    capabilities: CapabilitiesObject;
    instructions?: string;
    _meta?: Record<string, unknown>;
  };
  try {
    result = parseResult(type, raw, "server/discover result") as typeof result;
  } catch {
    return { kind: "handshake" }; // a result that is not a DiscoverResult: some handshake-era servers answer unknown methods with `{}`
  }
  if (!result.supportedVersions.includes(profile.version)) {
    return { kind: "unsupported", supported: result.supportedVersions };
  }
  return {
    kind: "stateless",
    negotiated: {
      profile,
      serverCapabilities: result.capabilities,
      serverInfo: result._meta?.[MetaKey.serverInfo] as Implementation | undefined,
      instructions: result.instructions,
      supportedVersions: result.supportedVersions,
    },
  };
}

async function initialize(
  input: NegotiationInput,
  best: RevisionProfile,
  acceptable: readonly RevisionProfile[],
): Promise<Negotiated> {
  const opening = ERA_RULES.handshake.openingMethod;
  const rp = best.requests.get(opening);
  if (!rp) throw new NegotiationError(`revision ${best.version} has no initialize`);
  const raw = await input.engine.request(
    opening,
    { protocolVersion: best.version, capabilities: input.capabilities(best.version), clientInfo: input.info },
    { timeoutMs: input.requestTimeoutMs, cancellable: false, ...(input.signal ? { signal: input.signal } : {}) },
  );
  const answer = parseResult(rp.result, raw, "initialize result") as { protocolVersion: string };
  const profile = acceptable.find((p) => p.version === answer.protocolVersion);
  if (!profile) {
    throw new NegotiationError(
      `the server chose protocol version ${answer.protocolVersion}, which this client does not accept (${acceptable.map((p) => p.version).join(", ")})`,
    );
  }
  const token = profile.requests.get(opening) ?? rp;
  const result = parseResult(token.result, raw, "initialize result") as {
    capabilities: CapabilitiesObject;
    serverInfo: Implementation;
    instructions?: string;
  };
  await input.engine.notify("notifications/initialized", undefined);
  return {
    profile,
    serverCapabilities: result.capabilities,
    serverInfo: result.serverInfo,
    instructions: result.instructions,
    supportedVersions: undefined,
  };
}
