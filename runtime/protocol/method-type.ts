/**
 * Typed method tokens, like LSP's `ProtocolRequestType`. Generated `methods.ts` files build one token per
 * JSON-RPC method of a revision and collect them in a method table; the runtime dispatches and validates
 * through these tables only. This module is a leaf: it imports nothing else from the runtime, so generated
 * protocol bindings can depend on it without a cycle.
 */
import type { z } from "zod";

export type MessageDirection = "clientToServer" | "serverToClient" | "both";

/** A capability flag that gates a method: whose capabilities object, and the property path in it. */
export interface CapabilityGate {
  readonly side: "client" | "server";
  readonly path: readonly string[];
}

/** `message`: a JSON-RPC message on the wire; `embedded`: only carried inside another result (MRTR). */
export type MethodDelivery = "message" | "embedded";

export class ProtocolRequestType<Method extends string, Params, Result> {
  readonly kind = "request" as const;
  constructor(
    readonly method: Method,
    readonly direction: MessageDirection,
    readonly params: z.ZodType<Params>,
    readonly result: z.ZodType<Result>,
    readonly paramsOptional: boolean,
    readonly delivery: MethodDelivery,
    readonly capability?: CapabilityGate,
  ) {}
}

export class ProtocolNotificationType<Method extends string, Params> {
  readonly kind = "notification" as const;
  constructor(
    readonly method: Method,
    readonly direction: MessageDirection,
    readonly params: z.ZodType<Params>,
    readonly paramsOptional: boolean,
    readonly capability?: CapabilityGate,
  ) {}
}

export type AnyRequestType = ProtocolRequestType<string, unknown, unknown>;
export type AnyNotificationType = ProtocolNotificationType<string, unknown>;
export type AnyMethodType = AnyRequestType | AnyNotificationType;

/** A revision's methods, keyed by method string. */
export type MethodTable = Readonly<Record<string, AnyMethodType>>;

export type ParamsOf<T> = T extends ProtocolRequestType<string, infer P, unknown>
  ? P
  : T extends ProtocolNotificationType<string, infer P>
    ? P
    : never;
export type ResultOf<T> = T extends ProtocolRequestType<string, unknown, infer R> ? R : never;
