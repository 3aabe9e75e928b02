/**
 * What the runtime needs to know about one revision, read from its descriptor (`RevisionDescriptor`, generated from
 * the revision's schema.ts): nothing here is derived from a revision name or by inspecting zod schemas. The profile
 * indexes the descriptor's method table for dispatch: requests that travel as messages, and requests only carried
 * inside an `InputRequiredResult` (stateless era).
 */
import type { AnyMethodType, AnyRequestType, Era, RevisionDescriptor } from "./method-type.ts";

export type { Era };

export interface RevisionProfile extends RevisionDescriptor {
  /** Requests that travel as JSON-RPC messages, by method: their tokens, which state each method's facts. */
  readonly requests: ReadonlyMap<string, AnyRequestType>;
  /** Requests only ever carried inside an `InputRequiredResult` (stateless era), by method. */
  readonly embedded: ReadonlyMap<string, AnyRequestType>;
}

/** Indexes a descriptor; a descriptor without a known era or without its opening method is an error. */
export function profileOf(descriptor: RevisionDescriptor): RevisionProfile {
  const { name, version, era, batches, methods } = descriptor;
  if (era !== "handshake" && era !== "stateless")
    throw new Error(`revision ${name}: unknown era ${JSON.stringify(era)}`);
  if (typeof version !== "string" || version.length === 0)
    throw new Error(`revision ${name}: the descriptor has no version`);
  const requests = new Map<string, AnyRequestType>();
  const embedded = new Map<string, AnyRequestType>();
  for (const token of Object.values(methods) as AnyMethodType[]) {
    if (token.kind !== "request") continue;
    if (token.delivery === "embedded") embedded.set(token.method, token);
    else requests.set(token.method, token);
  }
  return {
    name,
    version,
    era,
    batches,
    methods,
    requests,
    embedded,
    ...(descriptor.inputRequiredResult ? { inputRequiredResult: descriptor.inputRequiredResult } : {}),
  };
}
