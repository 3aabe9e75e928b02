/**
 * Everything the generator knows about MCP that `schema.ts` does not say structurally. It is one table on purpose:
 * every entry is checked by test/generator/lower/quirks.test.ts against the five released schemas (an entry that no longer
 * matches a declaration, or that naming alone would already cover, fails the test).
 *
 * Nothing here is keyed on a revision string.
 */
import type { IrCapabilityGate, IrMessageDirection, IrMethod } from "../ir/model.ts";

/** The schema's own vocabulary for "who sends what": union aliases whose members are the method types. */
export const DIRECTION_UNIONS: Readonly<
  Record<
    string,
    { readonly sender: "client" | "server"; readonly kind: IrMethod["kind"]; readonly delivery: IrMethod["delivery"] }
  >
> = {
  ClientRequest: { sender: "client", kind: "request", delivery: "message" },
  ServerRequest: { sender: "server", kind: "request", delivery: "message" },
  ClientNotification: { sender: "client", kind: "notification", delivery: "message" },
  ServerNotification: { sender: "server", kind: "notification", delivery: "message" },
  /** Multi round-trip: server requests carried inside `InputRequiredResult.inputRequests`. */
  InputRequest: { sender: "server", kind: "request", delivery: "embedded" },
};

/** The declarations that list each side's capabilities; gates are derived from their property names. */
export const CAPABILITY_DECLARATIONS = { client: "ClientCapabilities", server: "ServerCapabilities" } as const;

/**
 * Naming conventions for pairing a request with its result: `<Base>Request` → the `result` property of
 * `<Base><envelope suffix>` when that envelope exists, else `<Base><result suffix>`.
 */
export const RESULT_NAMING = {
  requestSuffix: "Request",
  envelopeSuffix: "ResultResponse",
  resultSuffix: "Result",
  /** What a request none of the rules pair is answered with (and a warning). */
  baseResult: "Result",
} as const;

/** Requests whose result the naming convention cannot find (request type name → result type name). */
export const RESULT_QUIRKS: Readonly<Record<string, string>> = {
  PingRequest: "EmptyResult",
  SetLevelRequest: "EmptyResult",
  SubscribeRequest: "EmptyResult",
  UnsubscribeRequest: "EmptyResult",
};

/**
 * Capability gates the property-name rule cannot derive (method → gate). An entry applies only where its path exists
 * in that revision's capabilities declaration; elsewhere the method is ungated.
 */
export const CAPABILITY_QUIRKS: Readonly<Record<string, IrCapabilityGate>> = {
  /** The capability is spelled `completions`, the method prefix `completion/`. */
  "completion/complete": { side: "server", path: ["completions"] },
  /** Unsubscribing needs the same capability as subscribing. */
  "resources/unsubscribe": { side: "server", path: ["resources", "subscribe"] },
  /** Updates are only sent for subscriptions. */
  "notifications/resources/updated": { side: "server", path: ["resources", "subscribe"] },
  /** Log messages are gated by `logging`, their method is `notifications/message`. */
  "notifications/message": { side: "server", path: ["logging"] },
};

/** Which side's capabilities gate a message: a request needs the receiver's, a notification is announced by its sender. */
export function gateSide(kind: IrMethod["kind"], direction: IrMessageDirection): "client" | "server" | undefined {
  if (direction === "both") return undefined;
  const sender = direction === "clientToServer" ? "client" : "server";
  const receiver = sender === "client" ? "server" : "client";
  return kind === "request" ? receiver : sender;
}

/** Names of the schema's own protocol vocabulary that revision-wide facts are read from (never revision strings). */
export const PROTOCOL_VOCABULARY = {
  /** A revision with this method negotiates with a handshake. */
  handshakeMethod: "initialize",
  /** A revision with this method (and no handshake) is stateless. */
  statelessMethod: "server/discover",
  /** The constant holding the on-the-wire protocol version. */
  versionConstant: "LATEST_PROTOCOL_VERSION",
  /** The union of every JSON-RPC message; an array member means batches. */
  messageUnion: "JSONRPCMessage",
  /** The multi round-trip result a request's result union may include. */
  inputRequiredResult: "InputRequiredResult",
} as const;
