/**
 * How a session finds what serves a message: a request's revision and era (`routeRequest`), then its method, the
 * implementation and valid params (`admitRequest`); a notification's token (`methodToken`). `SessionDefinition` is what
 * that reads of the server definition.
 */
import { ErrorCode, RpcError } from "../jsonrpc/errors.ts";
import { describeGate, hasCapability, type Capabilities } from "../protocol/capabilities.ts";
import type { IncomingRequest } from "../protocol/engine.ts";
import { MetaKey, metaOf } from "../protocol/meta.ts";
import type { AnyMethodType, AnyRequestType } from "../protocol/method-type.ts";
import type { RevisionProfile } from "../protocol/profiles.ts";
import { parseParams } from "../protocol/validation.ts";
import { missingExtensionError } from "../protocol/extensions.ts";
import type { ServerSession } from "./context.ts";
import { serverEra, type HandshakeOffer, type ServerEra } from "./eras.ts";
import type { MethodImpl, MethodServer } from "./method-env.ts";
import type { ServerOptions } from "./options.ts";
import type { RequestStateSealer } from "./request-state.ts";
import type { Admitted, HandshakeState } from "./scope.ts";

/** Where a request goes: its revision's profile and era strategy. */
export interface Route {
  readonly profile: RevisionProfile;
  readonly era: ServerEra;
}

/** What a session needs from the server definition it serves (`ServerDefinition`, which `McpServer` holds). */
export interface SessionDefinition extends HandshakeOffer, MethodServer {
  readonly options: ServerOptions;
  readonly sealer: RequestStateSealer;
  readonly statelessByRevision: ReadonlyMap<string, RevisionProfile>;
  /** The most preferred revision served (client notifications are read with it before any negotiation). */
  readonly newestProfile: RevisionProfile;
  /**
   * The implementation of a client→server request: a registered handler, else the built-in one of the revision or
   * of the extension that defines the method here (a method a revision defines itself is not an extension's of the same name).
   */
  implementationOf(method: string, definedBy: "revision" | "extension"): MethodImpl | undefined;
  /** The token of an extension method / request, when the client's capabilities declare its extension. */
  extensionToken(method: string, clientCapabilities: Capabilities, version?: string): AnyMethodType | undefined;
  extensionRequest(method: string, clientCapabilities: Capabilities, version?: string): AnyRequestType | undefined;
  /** The extension defining `method` under `version` that the client did not declare. */
  undeclaredExtension(method: string, clientCapabilities: Capabilities, version: string): string | undefined;
  notificationHandlerOf(
    method: string,
  ): ((params: unknown, session: ServerSession) => void | Promise<void>) | undefined;
}

/**
 * A request naming its revision in `_meta` is stateless-era, `initialize` too: that era has no `initialize` (its
 * method table lacks it), so it gets -32601 there instead of starting a handshake.
 */
export function routeRequest(
  server: SessionDefinition,
  handshake: HandshakeState | undefined,
  request: IncomingRequest,
): Route | "initialize" | "ping" {
  const requested = metaOf(request.params)?.[MetaKey.protocolVersion];
  if (typeof requested === "string" && (!handshake || server.statelessByRevision.has(requested))) {
    const profile = server.statelessByRevision.get(requested);
    if (!profile) {
      throw new RpcError(ErrorCode.UnsupportedProtocolVersion, "Unsupported protocol version", {
        supported: [...server.versions],
        requested,
      });
    }
    return { profile, era: serverEra(profile.era) };
  }
  if (request.method === "initialize" && !handshake) return "initialize";
  if (handshake) {
    if (request.method === "initialize")
      throw new RpcError(ErrorCode.InvalidRequest, "Invalid request: the session is already initialized");
    return { profile: handshake.profile, era: serverEra(handshake.profile.era) };
  }
  if (request.method === "ping") return "ping";
  throw new RpcError(
    ErrorCode.InvalidParams,
    `Invalid params: _meta["${MetaKey.protocolVersion}"] is required (or open a session with initialize); supported versions: ${server.versions.join(", ")}`,
  );
}

/**
 * Finds the method (of the revision, or of an extension both sides declared) and its implementation, checks the
 * server capability gate and validates params as the era requires.
 */
export function admitRequest(
  server: SessionDefinition,
  handshake: HandshakeState | undefined,
  era: ServerEra,
  profile: RevisionProfile,
  request: IncomingRequest,
): { admitted: Admitted; impl: MethodImpl } {
  const { method } = request;
  const declared = era.rules.requestsCarryMeta
    ? ((metaOf(request.params)?.[MetaKey.clientCapabilities] ?? {}) as Capabilities)
    : (handshake?.clientCapabilities ?? {});
  const revisionToken = profile.requests.get(method);
  const token = revisionToken ?? server.extensionRequest(method, declared, profile.version);
  const undeclared = token ? undefined : server.undeclaredExtension(method, declared, profile.version);
  if (undeclared !== undefined) throw missingExtensionError(undeclared, `${method} is one of its methods`);
  const impl = server.implementationOf(method, revisionToken ? "revision" : "extension");
  if (!token || token.direction === "serverToClient" || !impl) {
    throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
  }
  const gate = token.capability;
  if (gate?.side === "server" && !hasCapability(server.capabilities(), gate.path)) {
    throw new RpcError(
      ErrorCode.MethodNotFound,
      `Method not found: ${method} (this server does not declare ${describeGate(gate)})`,
    );
  }
  const params = parseParams(era.paramsSchema(token), request.params ?? {}, method) as Record<string, unknown>;
  return { admitted: { token, params }, impl };
}

/** A method's token in `profile`, else in an extension the client declared. */
export function methodToken(
  server: SessionDefinition,
  profile: RevisionProfile,
  method: string,
  declared: Capabilities,
): AnyMethodType | undefined {
  // Own keys only: a method named "constructor" or "toString" must not find Object.prototype's members.
  const own = Object.hasOwn(profile.methods, method) ? profile.methods[method] : undefined;
  return own ?? server.extensionToken(method, declared, profile.version);
}
