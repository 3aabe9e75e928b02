/**
 * Typed method tokens, like LSP's `ProtocolRequestType`, and the per-revision descriptor. Generated `methods.ts`
 * files build one token per JSON-RPC method of a revision and collect them in a method table; generated
 * `revision.ts` files wrap that table with the revision's facts. Every fact here was decided by the generator from
 * the schema (never from a method, type or revision name), so the runtime reads them instead of inspecting zod
 * schemas. This module is a leaf: it imports nothing else from the runtime, so generated protocol bindings can
 * depend on it without a cycle.
 */
import type * as z from "zod/mini";

export type MessageDirection = "clientToServer" | "serverToClient" | "both";

/** A capability flag that gates a method: whose capabilities object, and the property path in it. */
export interface CapabilityGate {
  readonly side: "client" | "server";
  readonly path: readonly string[];
}

/** `message`: a JSON-RPC message on the wire; `embedded`: only carried inside another result (MRTR). */
export type MethodDelivery = "message" | "embedded";

/** `handshake`: the revision has `initialize`; `stateless`: it has `server/discover` instead. */
export type Era = "handshake" | "stateless";

export interface RequestTypeInit<Method extends string, Params, Result, CompleteResult> {
  readonly method: Method;
  readonly direction: MessageDirection;
  readonly params: z.ZodMiniType<Params>;
  readonly result: z.ZodMiniType<Result>;
  readonly paramsOptional: boolean;
  readonly delivery: MethodDelivery;
  readonly capability?: CapabilityGate;
  /** The complete result declares `resultType` (the runtime fills in `"complete"`). */
  readonly resultType: boolean;
  /** The complete result declares `ttlMs` and `cacheScope` (caching hints are required). */
  readonly cacheable: boolean;
  /** The result may be the revision's `InputRequiredResult` (multi round-trip). */
  readonly inputRequired: boolean;
  /** The result without its `InputRequiredResult` member; absent: the result itself. */
  readonly completeResult?: z.ZodMiniType<CompleteResult>;
}

export class ProtocolRequestType<Method extends string, Params, Result, CompleteResult = Result> {
  readonly kind = "request" as const;
  readonly method: Method;
  readonly direction: MessageDirection;
  readonly params: z.ZodMiniType<Params>;
  readonly result: z.ZodMiniType<Result>;
  readonly paramsOptional: boolean;
  readonly delivery: MethodDelivery;
  /** Absent (not even an own property) when the method is ungated. */
  declare readonly capability?: CapabilityGate;
  readonly resultType: boolean;
  readonly cacheable: boolean;
  readonly inputRequired: boolean;
  /** The schema of a complete (final) result: `result` without its `InputRequiredResult` member. */
  readonly completeResult: z.ZodMiniType<CompleteResult>;

  constructor(init: RequestTypeInit<Method, Params, Result, CompleteResult>) {
    this.method = init.method;
    this.direction = init.direction;
    this.params = init.params;
    this.result = init.result;
    this.paramsOptional = init.paramsOptional;
    this.delivery = init.delivery;
    if (init.capability) this.capability = init.capability;
    this.resultType = init.resultType;
    this.cacheable = init.cacheable;
    this.inputRequired = init.inputRequired;
    // Without an InputRequiredResult member the complete result is the result (CompleteResult defaults to Result).
    this.completeResult = init.completeResult ?? (init.result as unknown as z.ZodMiniType<CompleteResult>);
  }
}

export interface NotificationTypeInit<Method extends string, Params> {
  readonly method: Method;
  readonly direction: MessageDirection;
  readonly params: z.ZodMiniType<Params>;
  readonly paramsOptional: boolean;
  readonly capability?: CapabilityGate;
}

export class ProtocolNotificationType<Method extends string, Params> {
  readonly kind = "notification" as const;
  readonly method: Method;
  readonly direction: MessageDirection;
  readonly params: z.ZodMiniType<Params>;
  readonly paramsOptional: boolean;
  /** Absent (not even an own property) when the method is ungated. */
  declare readonly capability?: CapabilityGate;

  constructor(init: NotificationTypeInit<Method, Params>) {
    this.method = init.method;
    this.direction = init.direction;
    this.params = init.params;
    this.paramsOptional = init.paramsOptional;
    if (init.capability) this.capability = init.capability;
  }
}

export type AnyRequestType = ProtocolRequestType<string, unknown, unknown, unknown>;
export type AnyNotificationType = ProtocolNotificationType<string, unknown>;
export type AnyMethodType = AnyRequestType | AnyNotificationType;

/** A revision's methods, keyed by method string. */
export type MethodTable = Readonly<Record<string, AnyMethodType>>;

/** What one revision's generated bindings tell the runtime, decided by the generator from its schema.ts. */
export interface RevisionDescriptor<Methods extends MethodTable = MethodTable> {
  /** The revision name given to the generator (`--revision`), e.g. a folder name. */
  readonly name: string;
  /** The on-the-wire protocol version: the schema's `LATEST_PROTOCOL_VERSION`. */
  readonly version: string;
  readonly era: Era;
  /** JSON-RPC batches are part of the revision (its `JSONRPCMessage` has an array member). */
  readonly batches: boolean;
  readonly methods: Methods;
  /** The revision's `InputRequiredResult` schema, when it has multi round-trip results. */
  readonly inputRequiredResult?: z.ZodMiniType;
}

export type ParamsOf<T> =
  T extends ProtocolRequestType<string, infer P, unknown, unknown>
    ? P
    : T extends ProtocolNotificationType<string, infer P>
      ? P
      : never;
export type ResultOf<T> = T extends ProtocolRequestType<string, unknown, infer R, unknown> ? R : never;
/** The complete (final) result of a request: its result without the `InputRequiredResult` member. */
export type CompleteResultOf<T> = T extends ProtocolRequestType<string, unknown, unknown, infer C> ? C : never;
/** The params of a notification token (never for a request token). */
export type NotificationParamsOf<T> = T extends ProtocolNotificationType<string, infer P> ? P : never;
