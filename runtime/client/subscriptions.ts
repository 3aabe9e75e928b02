/**
 * `subscriptions/listen` (stateless era) on the client: a stream opened by one long-lived request, acknowledged by a
 * `notifications/subscriptions/acknowledged` that names the request's id; the stream's notifications carry that id
 * as `_meta["io.modelcontextprotocol/subscriptionId"]` and reach the connection's listeners like any other.
 */
import { RequestCancelledError } from "../jsonrpc/errors.ts";
import type { JsonRpcId } from "../jsonrpc/messages.ts";
import type { BuiltinParams, BuiltinToken, SubscriptionFilter } from "../protocol/builtin-types.ts";
import { MetaKey } from "../protocol/meta.ts";
import type { ClientConnection } from "./connection.ts";
import type { CallerParamsOf } from "./tokens.ts";

/** An open `subscriptions/listen` stream. */
export interface Subscription {
  /** The listen request's id; notifications of this stream carry it as `_meta["io.modelcontextprotocol/subscriptionId"]`. */
  readonly id: JsonRpcId;
  /** What the server agreed to send. */
  readonly filter: SubscriptionFilter;
  /** Settles when the stream ends (resolves on a graceful end or `close()`, rejects when the connection drops). */
  readonly ended: Promise<void>;
  /** Cancels the stream. */
  close(): void;
}

/** Opens a stream over `connection`; resolves once the server acknowledged it. */
export function openSubscription(
  connection: ClientConnection,
  filter: SubscriptionFilter,
  options: { readonly signal?: AbortSignal },
): Promise<Subscription> {
  const controller = new AbortController();
  options.signal?.addEventListener("abort", () => controller.abort(options.signal?.reason), { once: true });
  let subscriptionId: JsonRpcId | undefined;
  return new Promise<Subscription>((resolve, reject) => {
    const stop = connection.on("notifications/subscriptions/acknowledged", (params) => {
      // Parsed by the negotiated revision's token of this notification (its params type in a built-in revision).
      const p = params as BuiltinParams<"notifications/subscriptions/acknowledged">;
      if (subscriptionId === undefined || p._meta?.[MetaKey.subscriptionId] !== subscriptionId) return;
      stop();
      resolve({ id: subscriptionId, filter: p.notifications, ended, close: () => controller.abort("unsubscribed") });
    });
    const params: CallerParamsOf<BuiltinToken<"subscriptions/listen">> = { notifications: filter };
    const ended = connection
      .request("subscriptions/listen", params, {
        timeoutMs: 0,
        signal: controller.signal,
        onRequestId: (id) => (subscriptionId = id),
      })
      .then(
        () => undefined,
        (error: unknown) => {
          stop();
          reject(error);
          // Ended by us (close) or by the server (notifications/cancelled): an ordinary end of the stream.
          if (!controller.signal.aborted && !(error instanceof RequestCancelledError)) throw error;
        },
      );
    ended.catch(() => undefined);
  });
}
