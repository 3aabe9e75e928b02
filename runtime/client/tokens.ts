/**
 * What a method token means to a caller of the client: the params a caller writes (the client adds the fields it
 * owns). A call resolves to the token's complete result (`CompleteResultOf`): multi round-trip rounds are answered
 * by the client.
 */
import type { AnyNotificationType, AnyRequestType, ParamsOf } from "../protocol/method-type.ts";
import type { RequestOptions } from "../protocol/engine.ts";

export interface CallOptions extends RequestOptions {
  /** Extra `_meta` for this request. */
  readonly meta?: Readonly<Record<string, unknown>>;
}

/** Params fields the client fills in: the stateless era's per-request `_meta`, and a retry's answers and state. */
type ClientOwnedKey = "_meta" | "inputResponses" | "requestState";

/** One params variant without the client's fields; `_meta` stays allowed (it is merged with the client's). */
type CallerParams<P> = P extends object
  ? { [K in keyof P as K extends ClientOwnedKey ? never : K]: P[K] } & {
      readonly _meta?: Readonly<Record<string, unknown>>;
    }
  : P;

/** The params a caller passes for request or notification token `T`. */
export type CallerParamsOf<T> = ParamsOf<T> extends infer P ? (P extends unknown ? CallerParams<P> : never) : never;

/** The empty params object: when it is valid params, `params` may be left out. */
type Empty = Record<never, never>;

/** `params` may be left out when every field of it is optional. */
export type RequestArgs<T extends AnyRequestType> =
  Empty extends CallerParamsOf<T>
    ? [params?: CallerParamsOf<T>, options?: CallOptions]
    : [params: CallerParamsOf<T>, options?: CallOptions];

export type NotificationArgs<T extends AnyNotificationType> =
  Empty extends CallerParamsOf<T> ? [params?: CallerParamsOf<T>] : [params: CallerParamsOf<T>];
