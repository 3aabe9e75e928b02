/**
 * What a server handler throws to answer with a protocol error instead of a result. Any `RpcError` passes through as
 * the JSON-RPC error it describes; `ResourceNotFoundError` is the spec's resource-not-found error, whose code depends
 * on the revision the request was made in (`ERA_RULES[era].resourceNotFoundCode`: -32002 in the handshake era,
 * -32602 in the stateless era), so a handler need not know which revision asked.
 */

/** Thrown by a resource or template handler that has nothing at `uri`: answered as the revision's not-found error. */
export class ResourceNotFoundError extends Error {
  constructor(
    readonly uri: string,
    message = `Resource not found: ${uri}`,
  ) {
    super(message);
    this.name = "ResourceNotFoundError";
  }
}
