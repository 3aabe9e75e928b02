/**
 * What the client answers to a server→client request: `ping`, else the handler of a method of the negotiated revision
 * (before negotiation: the most preferred handshake-era one) or of a negotiated extension, when the era lets servers
 * ask, the client declared the method's capability and, for elicitation, the mode; params validated first.
 */
import { ErrorCode, RpcError } from "../jsonrpc/errors.ts";
import { describeGate, elicitationModeAllowed, hasCapability } from "../protocol/capabilities.ts";
import type { IncomingRequest } from "../protocol/engine.ts";
import type { RevisionProfile } from "../protocol/profiles.ts";
import { parseParams } from "../protocol/validation.ts";
import { clientEra } from "./era.ts";
import type { ExtensionMethods } from "./extensions.ts";
import type { HandlerRegistry } from "./handlers.ts";

/** What answering reads of the client. */
export interface ServerRequestTarget {
  /** The negotiated revision's profile, undefined before negotiation completes. */
  readonly profile: RevisionProfile | undefined;
  /** The client's acceptable revisions, most preferred first. */
  readonly acceptable: readonly RevisionProfile[];
  readonly handlers: HandlerRegistry;
  readonly extensions: ExtensionMethods;
  readonly capabilities: Readonly<Record<string, unknown>>;
}

export async function answerServerRequest(client: ServerRequestTarget, request: IncomingRequest): Promise<unknown> {
  if (request.method === "ping") return {};
  // Before negotiation completes, a server may already ask (e.g. roots/list right after initialized).
  const profile = client.profile ?? client.acceptable.find((p) => p.era === "handshake");
  const handler = client.handlers.get(request.method);
  const core = profile?.requests.get(request.method);
  const token = core
    ? core.direction === "clientToServer"
      ? undefined
      : core
    : client.extensions.serverRequest(request.method);
  if (!profile || !clientEra(profile.era).rules.serverSendsRequests || !token || !handler) {
    throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
  }
  const gate = token.capability;
  if (gate?.side === "client" && !hasCapability(client.capabilities, gate.path)) {
    throw new RpcError(
      ErrorCode.MethodNotFound,
      `Method not found: ${request.method} (the client did not declare ${describeGate(gate)})`,
    );
  }
  const params = parseParams(token.params, request.params ?? {}, request.method);
  // client/elicitation.mdx: a mode the client did not declare is answered with -32602.
  if (request.method === "elicitation/create" && !elicitationModeAllowed(client.capabilities, params)) {
    const mode = (params as { mode?: string }).mode ?? "form";
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params: elicitation mode "${mode}" was not declared by the client`,
    );
  }
  return handler(params, { signal: request.signal, revision: profile.version, era: profile.era });
}
