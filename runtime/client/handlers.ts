/**
 * Client-side handlers for what a server asks of the client. The same handlers serve both eras: JSON-RPC requests
 * from the server (handshake era) and `inputRequests` of an `InputRequiredResult` (stateless era). Handlers are
 * registered by method token (`client.handle(methods["roots/list"], …)`, extension methods too); `ClientHandlers`
 * (sampling, elicitation, roots) is the convenience form of the same registry.
 */
import type { AnyRequestType, ParamsOf, ResultOf } from "../protocol/method-type.ts";
import type { Era } from "../protocol/profiles.ts";
import type { Awaitable } from "../protocol/helper-types.ts";
// The convenience handlers take what any built-in revision sends (`handle(token, …)` types exactly one revision's).
import type {
  CreateMessageParams,
  CreateMessageResult,
  ElicitParams,
  ElicitResult,
  ListRootsResult,
} from "../protocol/builtin-types.ts";

export interface ClientRequestContext {
  /** Aborted when the server cancels (handshake era) or the originating call is aborted (stateless era). */
  readonly signal: AbortSignal;
  readonly revision: string;
  readonly era: Era;
}

/** A handler of server→client request `T`, typed by its token. */
export type RequestHandler<T extends AnyRequestType> = (
  params: ParamsOf<T>,
  context: ClientRequestContext,
) => Awaitable<ResultOf<T>>;

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

type AnyHandler = (params: unknown, context: ClientRequestContext) => Awaitable<unknown>;

/** `result` with every omitted property of a form's `requestedSchema` that declares a `default` filled in. */
export function withElicitationDefaults(params: unknown, result: unknown): unknown {
  const p = params as { mode?: unknown; requestedSchema?: { properties?: unknown } };
  const r = result as { action?: unknown; content?: Record<string, unknown> };
  if (r.action !== "accept" || p.mode === "url" || typeof p.requestedSchema !== "object" || p.requestedSchema === null)
    return result;
  const properties = p.requestedSchema.properties;
  if (typeof properties !== "object" || properties === null) return result;
  const content: Record<string, unknown> = { ...(r.content ?? {}) };
  let changed = false;
  for (const [name, schema] of Object.entries(properties)) {
    if (Object.hasOwn(content, name) || typeof schema !== "object" || schema === null || !("default" in schema))
      continue;
    content[name] = (schema as { default: unknown }).default;
    changed = true;
  }
  return changed ? { ...r, content } : result;
}

/** The server→client request handlers of one client, by method. */
export class HandlerRegistry {
  private readonly byMethod = new Map<string, AnyHandler>();
  /** Capability objects the registered handlers imply (e.g. `{ sampling: {} }`). */
  readonly implied: Record<string, unknown>[] = [];

  constructor(private readonly applyElicitationDefaults: boolean) {}

  static from(handlers: ClientHandlers): HandlerRegistry {
    const registry = new HandlerRegistry(handlers.applyElicitationDefaults !== false);
    const { elicitation, sampling, roots } = handlers;
    if (elicitation) registry.add("elicitation/create", elicitation, { elicitation: { form: {} } });
    if (sampling) registry.add("sampling/createMessage", sampling, { sampling: {} });
    if (roots) registry.add("roots/list", (_p: unknown, c) => roots(c), { roots: { listChanged: true } });
    return registry;
  }

  /**
   * Registers `handler` for `method`. The connection calls it only with params the negotiated revision's token of
   * `method` has parsed, so `P` is that token's params type: this is where the registry forgets it.
   */
  add<P>(
    method: string,
    typed: (params: P, context: ClientRequestContext) => Awaitable<unknown>,
    capability: Record<string, unknown> | undefined,
  ): void {
    const handler = typed as AnyHandler;
    const fillDefaults = method === "elicitation/create" && this.applyElicitationDefaults;
    this.byMethod.set(method, fillDefaults ? async (p, c) => withElicitationDefaults(p, await handler(p, c)) : handler);
    if (capability) this.implied.push(capability);
  }

  get(method: string): AnyHandler | undefined {
    return this.byMethod.get(method);
  }
}
