/**
 * Types of a core method across the built-in revisions: for each method, the union of what the revisions that have
 * it define, so a value is typed exactly as one of the revisions a peer may negotiate. Derived from the generated
 * method tables; nothing here is written by hand.
 */
import type { revisions } from "../../generated/protocol/revisions.ts";
import type { CompleteResultOf, ParamsOf } from "../protocol/method-type.ts";

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
