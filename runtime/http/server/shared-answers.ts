/**
 * How a POSTed answer that another instance waits for is routed there through the store, and the HTTP answers of a
 * shared deployment whose store refuses or cannot be reached.
 */
import { rpcError } from "./answers.ts";
import type { RequestId } from "./exchange.ts";
import type { AnswerRoute, StateStore } from "./shared-state.ts";
import type { HttpResponseOut } from "./types.ts";

/** 503 while the shared state store cannot be reached: never 404, which would make the client start over. */
export function storeUnavailable(replyId: RequestId | null): HttpResponseOut {
  const answer = rpcError(503, -32603, "Service Unavailable: state store unavailable", replyId);
  return { ...answer, headers: { ...answer.headers, "retry-after": "1" } };
}

/** How the POST of an answer that could not be routed is answered (undefined: it was routed, 202). */
function answerRefusal(route: AnswerRoute): HttpResponseOut | undefined {
  switch (route) {
    case "routed":
      return undefined;
    case "unknown":
      return rpcError(400, -32600, "Invalid Request: no request of this session awaits this answer", null);
    case "too-large":
      return rpcError(
        413,
        -32600,
        "Content Too Large: the answer exceeds what can be routed to the instance waiting for it",
        null,
      );
    case "full": {
      const answer = rpcError(
        503,
        -32603,
        "Service Unavailable: the instance waiting for this answer has too many undelivered",
        null,
      );
      return { ...answer, headers: { ...answer.headers, "retry-after": "1" } };
    }
  }
}

/**
 * An answer to a request this instance did not send: routed to the instance waiting for it, if one does. The refusal
 * the POST gets otherwise (the spec: an HTTP error, with a JSON-RPC error without id), else undefined (202).
 */
export async function routeAnswer(
  store: StateStore,
  session: string,
  message: Record<string, unknown>,
  report: (error: unknown) => void,
): Promise<HttpResponseOut | undefined> {
  const id = message["id"];
  if (typeof id !== "string") return answerRefusal("unknown");
  try {
    return answerRefusal(
      await store.routeAnswer(session, id, { type: "answer", origin: store.instanceId, session, message }),
    );
  } catch (error) {
    report(error);
    return storeUnavailable(null);
  }
}
