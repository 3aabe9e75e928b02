/**
 * The per-session cap on resource subscriptions (`ServerOptions.maxSubscriptionsPerSession`): a session's own set in
 * memory, and with a shared store each session's set there (http/server/shared-sessions.ts), answer one more
 * `resources/subscribe` with the same error.
 */
import { RpcError, RuntimeErrorCode } from "../jsonrpc/errors.ts";

export const DEFAULT_MAX_SUBSCRIPTIONS_PER_SESSION = 1_000;

/** The cap of a server's options (`maxSubscriptionsPerSession`, else the default); throws for one that is no positive integer. */
export function subscriptionLimit(options: { readonly maxSubscriptionsPerSession?: number | undefined }): number {
  const limit = options.maxSubscriptionsPerSession ?? DEFAULT_MAX_SUBSCRIPTIONS_PER_SESSION;
  if (!(Number.isSafeInteger(limit) && limit > 0))
    throw new Error("maxSubscriptionsPerSession must be a positive integer");
  return limit;
}

/** The answer to a `resources/subscribe` beyond the cap: -31431 with `data.limit`. */
export function tooManySubscriptions(limit: number): RpcError {
  return new RpcError(
    RuntimeErrorCode.TooManySubscriptions,
    `Too many subscriptions: this session holds at most ${limit}; unsubscribe from one first`,
    { limit },
  );
}
