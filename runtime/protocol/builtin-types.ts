/**
 * Types of a core method across the built-in revisions, for the code that serves or calls any of them: for each
 * method, the union of what the revisions that have it define, so a value is typed exactly as one of the revisions
 * a peer may negotiate. Derived from the generated method tables; nothing here is written by hand. Server and
 * client both read them here (neither may import the other).
 */
import type { revisions } from "../../generated/protocol/revisions.ts";
import type { CompleteResultOf, ParamsOf, ResultOf } from "./method-type.ts";

type BuiltinTable = (typeof revisions)[keyof typeof revisions]["methods"];

/** A method of any built-in revision. */
export type BuiltinMethod = BuiltinTable extends infer Table
  ? Table extends unknown
    ? keyof Table & string
    : never
  : never;

/** The token of `method` in each built-in revision that has it (a union). */
export type BuiltinToken<M extends string> = BuiltinTable extends infer Table
  ? Table extends { readonly [K in M]: infer Token }
    ? Token
    : never
  : never;

/** A method's complete result in any built-in revision. */
export type BuiltinResult<M extends string> =
  BuiltinToken<M> extends infer Token ? (Token extends unknown ? CompleteResultOf<Token> : never) : never;
/** A method's params in any built-in revision. */
export type BuiltinParams<M extends string> =
  BuiltinToken<M> extends infer Token ? (Token extends unknown ? ParamsOf<Token> : never) : never;
/** A method's full result (with an `InputRequiredResult` member where the revision has one) in any built-in revision. */
export type BuiltinAnswer<M extends string> =
  BuiltinToken<M> extends infer Token ? (Token extends unknown ? ResultOf<Token> : never) : never;

/** A peer's name and version (`clientInfo`, `serverInfo`) in any built-in revision. */
export type Implementation = BuiltinParams<"initialize">["clientInfo"];
/** Which notifications a stateless-era `subscriptions/listen` stream carries. */
export type SubscriptionFilter = BuiltinParams<"subscriptions/listen">["notifications"];
export type CompleteParams = BuiltinParams<"completion/complete">;
