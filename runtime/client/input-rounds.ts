/** Stateless era: answers the `inputRequests` of an `InputRequiredResult` with the client's handlers. */
import { ProtocolUsageError } from "../jsonrpc/errors.ts";
import { describeGate, elicitationModeAllowed, hasCapability, type Capabilities } from "../protocol/capabilities.ts";
import type { RevisionProfile } from "../protocol/profiles.ts";
import { parseParams, parseResult } from "../protocol/validation.ts";
import type { ClientRequestContext, HandlerRegistry } from "./handlers.ts";

export async function fulfilInputRequests(
  profile: RevisionProfile,
  handlers: HandlerRegistry,
  capabilities: Capabilities,
  requests: Readonly<Record<string, { method: string; params?: unknown }>>,
  context: ClientRequestContext,
  forMethod: string,
): Promise<Record<string, unknown>> {
  const entries = Object.entries(requests).map(async ([key, request]) => {
    const token = profile.embedded.get(request.method);
    const handler = handlers.get(request.method);
    if (!token || !handler)
      throw new ProtocolUsageError(
        `${forMethod}: the server asked for ${request.method}, which this client cannot answer`,
      );
    if (token.capability && !hasCapability(capabilities, token.capability.path)) {
      throw new ProtocolUsageError(
        `${forMethod}: the server asked for ${request.method} without the ${describeGate(token.capability)}`,
      );
    }
    const params = parseParams(token.params, request.params ?? {}, request.method);
    if (request.method === "elicitation/create" && !elicitationModeAllowed(capabilities, params)) {
      throw new ProtocolUsageError(
        `${forMethod}: the server asked for an elicitation mode this client did not declare`,
      );
    }
    const answer = await handler(params, context);
    return [key, parseResult(token.result, answer, `${request.method} answer from the client handler`)] as const;
  });
  return Object.fromEntries(await Promise.all(entries));
}
