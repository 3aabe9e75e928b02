/**
 * What the runtime needs to know about one revision, derived from its generated bindings (never from the revision
 * string): the method table, the era (a table with `initialize` is the handshake era, one with `server/discover`
 * the stateless era), whether batches exist, and per request method whether its result carries `resultType`,
 * caching hints, or may be an `InputRequiredResult`.
 */
import type { z } from "zod";
import type { AnyMethodType, AnyRequestType, MethodTable } from "./method-type.ts";
import { objectKeys, unionMembers } from "./schema-shape.ts";

export type Era = "handshake" | "stateless";

/** The part of a generated `generated/protocol/<rev>/index.ts` module the runtime reads. */
export interface RevisionBindings {
  readonly methods: MethodTable;
  readonly [name: string]: unknown;
}

export interface RequestProfile {
  readonly token: AnyRequestType;
  /** The result schema declares `resultType` (the runtime fills in `"complete"`). */
  readonly hasResultType: boolean;
  /** The result schema declares `ttlMs`/`cacheScope` (caching hints are required). */
  readonly cacheable: boolean;
  /** The result may be an `InputRequiredResult` (multi round-trip). */
  readonly inputRequired: boolean;
  /** The schema of a complete (final) result: the result schema without its `InputRequiredResult` member. */
  readonly completeResult: z.ZodType;
}

export interface RevisionProfile {
  readonly revision: string;
  readonly era: Era;
  readonly methods: MethodTable;
  readonly acceptsBatches: boolean;
  /** Requests that travel as JSON-RPC messages, by method. */
  readonly requests: ReadonlyMap<string, RequestProfile>;
  /** Requests only ever carried inside an `InputRequiredResult` (stateless era), by method. */
  readonly embedded: ReadonlyMap<string, AnyRequestType>;
  /** The `InputRequiredResult` schema, when the revision has one. */
  readonly inputRequiredResult: z.ZodType | undefined;
}

export function profileOf(revision: string, bindings: RevisionBindings): RevisionProfile {
  const { methods } = bindings;
  const era: Era | undefined = "initialize" in methods ? "handshake" : "server/discover" in methods ? "stateless" : undefined;
  if (!era) throw new Error(`revision ${revision}: its method table has neither initialize nor server/discover`);
  const inputRequiredResult = findSchema(bindings, "InputRequiredResult");
  const inputRequired = new InputRequiredShape(inputRequiredResult);
  const requests = new Map<string, RequestProfile>();
  const embedded = new Map<string, AnyRequestType>();
  for (const token of Object.values(methods) as AnyMethodType[]) {
    if (token.kind !== "request") continue;
    if (token.delivery === "embedded") embedded.set(token.method, token);
    else requests.set(token.method, new LazyRequestProfile(token, inputRequired));
  }
  const acceptsBatches = findSchema(bindings, "JSONRPCBatchRequest") !== undefined;
  return { revision, era, methods, acceptsBatches, requests, embedded, inputRequiredResult };
}

/** Recognizes a revision's `InputRequiredResult` among union members (by identity, else by its keys). */
class InputRequiredShape {
  private keys: Set<string> | undefined;

  constructor(private readonly schema: z.ZodType | undefined) {}

  matches(member: z.ZodType): boolean {
    if (!this.schema) return false;
    if (member === this.schema) return true;
    this.keys ??= objectKeys(this.schema);
    return sameKeys(objectKeys(member), this.keys);
  }
}

/**
 * Derives a method's result facts on first use: walking the zod schemas (and resolving their lazy parts) for every
 * method of every revision cost ~20 ms of a server's cold start, for methods most sessions never call.
 */
class LazyRequestProfile implements RequestProfile {
  private derived: Omit<RequestProfile, "token"> | undefined;

  constructor(
    readonly token: AnyRequestType,
    private readonly inputRequiredShape: InputRequiredShape,
  ) {}

  get hasResultType(): boolean {
    return this.derive().hasResultType;
  }
  get cacheable(): boolean {
    return this.derive().cacheable;
  }
  get inputRequired(): boolean {
    return this.derive().inputRequired;
  }
  get completeResult(): z.ZodType {
    return this.derive().completeResult;
  }

  private derive(): Omit<RequestProfile, "token"> {
    if (this.derived) return this.derived;
    const members = unionMembers(this.token.result);
    const completeMembers = members.filter((m) => !this.inputRequiredShape.matches(m));
    const keys = new Set(completeMembers.flatMap((m) => [...objectKeys(m)]));
    this.derived = {
      hasResultType: keys.has("resultType"),
      cacheable: keys.has("ttlMs") && keys.has("cacheScope"),
      inputRequired: completeMembers.length < members.length,
      completeResult: completeMembers.length === 1 ? (completeMembers[0] as z.ZodType) : this.token.result,
    };
    return this.derived;
  }
}

function findSchema(bindings: RevisionBindings, typeName: string): z.ZodType | undefined {
  const direct = bindings[`${typeName}Schema`];
  if (direct) return direct as z.ZodType;
  const schemas = bindings["schemas"];
  if (typeof schemas === "object" && schemas !== null) {
    const nested = (schemas as Record<string, unknown>)[`${typeName}Schema`];
    if (nested) return nested as z.ZodType;
  }
  return undefined;
}

function sameKeys(a: Set<string>, b: Set<string>): boolean {
  if (a.size !== b.size) return false;
  for (const k of a) if (!b.has(k)) return false;
  return true;
}
