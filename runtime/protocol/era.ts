/**
 * The two eras of MCP, stated once for server, client and HTTP. A revision's era is a fact of its descriptor (the
 * generator reads it from the schema: `initialize` → handshake era, `server/discover` → stateless era), never of its
 * name; what follows from the era is written here, so no other module needs to compare revision names or dates.
 *
 * - handshake era: a connection opens with `initialize`, which fixes the revision, client info and capabilities
 *   for the connection's lifetime (a session); the server asks the client for input with JSON-RPC requests.
 * - stateless era: every request names its revision and carries the client's info, capabilities and log level in
 *   `_meta`; results declare `resultType`; the server asks for input by answering with an `InputRequiredResult`
 *   and the client retries (multi round-trip).
 */
import type { Era } from "./method-type.ts";
import { ErrorCode } from "../jsonrpc/errors.ts";

export type { Era };

export interface EraRules {
  readonly era: Era;
  /** The request that starts talking to a server: `initialize` (opens a session) or `server/discover` (a probe). */
  readonly openingMethod: "initialize" | "server/discover";
  /** Requests carry the revision, client info, capabilities and log level in `_meta`. */
  readonly requestsCarryMeta: boolean;
  /** A connection holds negotiated state (revision, capabilities, log level, subscriptions). */
  readonly sessions: boolean;
  /** The server sends JSON-RPC requests to the client (else it asks through `InputRequiredResult` rounds). */
  readonly serverSendsRequests: boolean;
  /** The error code of `resources/read` for an unknown URI (-32002 in the handshake era; that era's own code). */
  readonly resourceNotFoundCode: number;
}

export const ERA_RULES: Readonly<Record<Era, EraRules>> = {
  handshake: {
    era: "handshake",
    openingMethod: "initialize",
    requestsCarryMeta: false,
    sessions: true,
    serverSendsRequests: true,
    resourceNotFoundCode: -32002,
  },
  stateless: {
    era: "stateless",
    openingMethod: "server/discover",
    requestsCarryMeta: true,
    sessions: false,
    serverSendsRequests: false,
    resourceNotFoundCode: ErrorCode.InvalidParams,
  },
};
