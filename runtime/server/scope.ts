/**
 * The per-request and per-session state the server's parts share: the handshake era's negotiated state, a request's
 * scope (what the era says about who asks and how input reaches them), an admitted request, and the input channel.
 * A leaf: the session, the eras, the handler context and the input channels all read these, and none of them is
 * needed to describe them.
 */
import type { Implementation } from "../protocol/builtin-types.ts";
import type { Capabilities } from "../protocol/capabilities.ts";
import type { LogLevel } from "../protocol/meta.ts";
import type { AnyRequestType } from "../protocol/method-type.ts";
import type { RevisionProfile } from "../protocol/profiles.ts";

/** How `elicit`/`createMessage`/`listRoots` reach the client in the current era. */
export interface InputChannel {
  ask(method: string, params: unknown, key: string | undefined): Promise<unknown>;
}

/** The negotiated state of a handshake-era session. */
export interface HandshakeState {
  readonly profile: RevisionProfile;
  readonly clientCapabilities: Capabilities;
  /** What `initialize` declared: server→client notifications are gated on it, not on later registrations. */
  readonly serverCapabilities: Capabilities;
  readonly clientInfo: Implementation | undefined;
  initialized: boolean;
  logLevel: LogLevel | undefined;
  /** Resource URIs the client subscribed to; made by the first `resources/subscribe`. */
  subscriptions?: Set<string>;
}

/** What serving one request needs that depends on the era. */
export interface RequestScope {
  readonly profile: RevisionProfile;
  readonly clientCapabilities: Capabilities;
  readonly clientInfo: Implementation | undefined;
  /** The server capabilities notifications related to this request are gated on. */
  readonly serverCapabilities: Capabilities;
  /** Logs at or above this level go out; undefined: none. Read when logging (`logging/setLevel` may change it). */
  readonly logThreshold: LogLevel | undefined;
  readonly input: InputChannel;
}

/** A request admitted for serving: its method's token (core or extension; it states the facts) and valid params. */
export interface Admitted {
  readonly token: AnyRequestType;
  readonly params: Record<string, unknown>;
}
