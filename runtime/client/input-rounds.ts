/**
 * Stateless era: answers the `inputRequests` of an `InputRequiredResult`, or of an `input_required` task (Tasks
 * extension), with the client's handlers: the same handlers, checks and validation either way.
 */
import { ProtocolUsageError } from "../jsonrpc/errors.ts";
import { describeGate, elicitationModeAllowed, hasCapability, type Capabilities } from "../protocol/capabilities.ts";
import type { RevisionProfile } from "../protocol/profiles.ts";
import { parseParams, parseResult } from "../protocol/validation.ts";
import type { InputRequired } from "./era.ts";
import type { ClientRequestContext, HandlerRegistry } from "./handlers.ts";

export async function fulfilInputRequests(
  profile: RevisionProfile,
  handlers: HandlerRegistry,
  capabilities: Capabilities,
  requests: Readonly<Record<string, { method: string; params?: unknown }>>,
  signal: AbortSignal | undefined,
  forMethod: string,
): Promise<Record<string, unknown>> {
  const context: ClientRequestContext = {
    signal: signal ?? new AbortController().signal,
    revision: profile.version,
    era: profile.era,
  };
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

/** The retry of request params `original` that answers `asked`: its answers, and the server's state echoed. */
export function withAnswers(
  original: unknown,
  asked: InputRequired,
  inputResponses: Record<string, unknown>,
): Record<string, unknown> {
  const retry: Record<string, unknown> = { ...(original as Record<string, unknown> | undefined), inputResponses };
  if (asked.requestState !== undefined) retry["requestState"] = asked.requestState;
  return retry;
}
