/**
 * The request utilities' notifications, routed in one place for both sides: `notifications/progress` to the request
 * that asked for it, `notifications/cancelled` to the request it names. The session (server) and the connection
 * (client) call this after validating the params against the revision's token.
 */
import type { JsonRpcEngine } from "./engine.ts";
import { CANCELLED_NOTIFICATION, PROGRESS_NOTIFICATION, type ProgressUpdate } from "./engine-contract.ts";

/**
 * Routes `method` when it is one of the two; returns which it was, undefined for any other. The cancelled request is
 * one of the peer's (`cancels: "peer"`, every revision) or one this side sent (`"ours"`: a 2026-07-28 server ending a
 * listen stream it was asked for).
 */
export function routeUtilityNotification(
  engine: Pick<JsonRpcEngine, "deliverProgress" | "cancelIncoming" | "cancelOutgoing">,
  method: string,
  params: Readonly<Record<string, unknown>>,
  cancels: "peer" | "ours",
): "progress" | "cancelled" | undefined {
  if (method === PROGRESS_NOTIFICATION) {
    engine.deliverProgress(params["progressToken"], params as unknown as ProgressUpdate);
    return "progress";
  }
  if (method !== CANCELLED_NOTIFICATION) return undefined;
  const id = params["requestId"];
  const reason = typeof params["reason"] === "string" ? params["reason"] : undefined;
  if (typeof id === "string" || typeof id === "number") {
    if (cancels === "ours") engine.cancelOutgoing(id, reason);
    else engine.cancelIncoming(id, reason);
  }
  return "cancelled";
}
