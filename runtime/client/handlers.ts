/**
 * Client-side handlers for what a server asks of the client: sampling, roots, elicitation. The same handlers serve
 * both eras: JSON-RPC requests from the server (handshake era) and `inputRequests` of an `InputRequiredResult`
 * (stateless era).
 */
import type {
  Awaitable,
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  ListRootsResult,
} from "../protocol/types.ts";
import type { Era } from "../protocol/profiles.ts";

export interface ClientRequestContext {
  /** Aborted when the server cancels (handshake era) or the originating call is aborted (stateless era). */
  readonly signal: AbortSignal;
  readonly revision: string;
  readonly era: Era;
}

export interface ClientHandlers {
  /**
   * Narrow on `params.mode`: `"url"` (sent only when the client declared `elicitation.url`) carries the `url` to open
   * and, in 2025-11-25, an `elicitationId`; anything else is form mode, with the `requestedSchema` to fill in.
   */
  readonly elicitation?: (params: ElicitParams, context: ClientRequestContext) => Awaitable<ElicitResult>;
  readonly sampling?: (params: CreateMessageParams, context: ClientRequestContext) => Awaitable<CreateMessageResult>;
  readonly roots?: (context: ClientRequestContext) => Awaitable<ListRootsResult>;
  /**
   * SEP-1034: when a form elicitation is accepted, fields of `requestedSchema` that carry a `default` and that the
   * handler left out of `content` are filled with that default before the answer is sent (default true).
   */
  readonly applyElicitationDefaults?: boolean;
}

/** `result` with every omitted property of a form's `requestedSchema` that declares a `default` filled in. */
export function withElicitationDefaults(params: ElicitParams, result: ElicitResult): ElicitResult {
  if (result.action !== "accept" || params.mode === "url" || !("requestedSchema" in params)) return result;
  const properties = (params.requestedSchema as { properties?: unknown }).properties;
  if (typeof properties !== "object" || properties === null) return result;
  const content: Record<string, unknown> = { ...(result.content ?? {}) };
  let changed = false;
  for (const [name, schema] of Object.entries(properties)) {
    if (Object.hasOwn(content, name) || typeof schema !== "object" || schema === null || !("default" in schema)) continue;
    content[name] = (schema as { default: unknown }).default;
    changed = true;
  }
  return changed ? ({ ...result, content } as ElicitResult) : result;
}

/** The handler for a server→client method, if one is registered. */
export function handlerFor(
  handlers: ClientHandlers,
  method: string,
): ((params: unknown, context: ClientRequestContext) => Awaitable<unknown>) | undefined {
  switch (method) {
    case "elicitation/create":
      if (!handlers.elicitation) return undefined;
      if (handlers.applyElicitationDefaults === false) return (p, c) => handlers.elicitation!(p as ElicitParams, c);
      return async (p, c) => withElicitationDefaults(p as ElicitParams, await handlers.elicitation!(p as ElicitParams, c));
    case "sampling/createMessage":
      return handlers.sampling && ((p, c) => handlers.sampling!(p as CreateMessageParams, c));
    case "roots/list":
      return handlers.roots && ((_p, c) => handlers.roots!(c));
    default:
      return undefined;
  }
}

/** Capabilities implied by the registered handlers. */
export function handlerCapabilities(handlers: ClientHandlers): Record<string, unknown> {
  const caps: Record<string, unknown> = {};
  if (handlers.elicitation) caps["elicitation"] = { form: {} };
  if (handlers.sampling) caps["sampling"] = {};
  if (handlers.roots) caps["roots"] = { listChanged: true };
  return caps;
}
