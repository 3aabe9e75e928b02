/**
 * Validation of messages whose `_meta` repeats message after message. In the stateless era every request carries
 * the client's `_meta` (protocol version, capabilities, client info) and every result the server's; parsing that
 * again each time was half the cost of a small request. An object schema with a `_meta` key is split into the schema
 * without `_meta` and the `_meta` schema itself; a `_meta` equal, as JSON, to one of the last few that passed is not
 * parsed again. Validation is a pure function of the value, so the outcome is the same: only work is saved.
 */
import * as z from "zod/mini";
import type { ValidationIssue, Validator } from "./validation.ts";
import { built } from "./zod-helpers.ts";

type Outcome = ReturnType<Validator<unknown>["safeParse"]>;

/** How many distinct `_meta` values stay remembered per schema (a server may serve a few clients in turn). */
const REMEMBERED = 4;
/** `_meta` values bigger than this many JSON nodes are not remembered (comparing them would cost too much). */
const MAX_NODES = 256;

const NOT_JSON = Symbol("not JSON");
const split = new WeakMap<object, Validator<unknown>>();

/**
 * `schema`, or an equivalent validator that skips re-parsing a repeated `_meta`. Only open object schemas with a
 * `_meta` key are split: their output keeps unknown keys as they are, so `_meta` stays in the data unchanged.
 */
export function withRepeatedMeta<T>(schema: Validator<T>): Validator<T> {
  let validator = split.get(schema);
  if (!validator) {
    validator = splitMeta(schema as Validator<unknown>) ?? (schema as Validator<unknown>);
    split.set(schema, validator);
  }
  return validator as Validator<T>;
}

/**
 * Reads the schema through zod's API (`z.ZodMiniObject`'s `shape`, `def.catchall`, `z.omit`); a generated schema is
 * a `z.lazy` built on first use, read through its built schema.
 */
function splitMeta(validator: Validator<unknown>): Validator<unknown> | undefined {
  const schema = validator instanceof z.ZodMiniLazy ? built(validator) : validator;
  if (!(schema instanceof z.ZodMiniObject)) return undefined;
  const meta = (schema.shape as Record<string, z.ZodMiniType | undefined>)["_meta"];
  if (!meta || !(schema.def.catchall instanceof z.ZodMiniUnknown)) return undefined;
  try {
    return new RepeatedMetaValidator(z.omit(schema, { _meta: true }), meta);
  } catch {
    return undefined; // e.g. a schema with refinements, which zod will not omit from
  }
}

class RepeatedMetaValidator implements Validator<unknown> {
  /** Snapshots of `_meta` values that passed, newest first. */
  private readonly passed: unknown[] = [];

  constructor(
    private readonly rest: Validator<unknown>,
    private readonly meta: Validator<unknown>,
  ) {}

  safeParse(value: unknown): Outcome {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return this.rest.safeParse(value);
    const meta = (value as Record<string, unknown>)["_meta"];
    let metaIssues: readonly ValidationIssue[] | undefined;
    let parsedMeta: { readonly data: unknown } | undefined;
    if (meta === undefined || !this.passed.some((known) => sameJson(meta, known))) {
      const checked = this.meta.safeParse(meta);
      if (!checked.success)
        metaIssues = checked.error.issues.map((issue) => ({ ...issue, path: ["_meta", ...issue.path] }));
      else if (meta !== undefined) {
        parsedMeta = checked;
        this.remember(meta);
      }
    }
    const rest = this.rest.safeParse(value);
    if (metaIssues)
      return { success: false, error: { issues: rest.success ? metaIssues : [...metaIssues, ...rest.error.issues] } };
    // The rest schema kept `_meta` as it came; a freshly parsed one is what the whole schema would have returned.
    // (A remembered one is plain JSON, which parses to an equal copy.)
    if (parsedMeta && rest.success) (rest.data as Record<string, unknown>)["_meta"] = parsedMeta.data;
    return rest;
  }

  private remember(meta: unknown): void {
    const copy = snapshot(meta, { left: MAX_NODES });
    if (copy === NOT_JSON) return;
    this.passed.unshift(copy);
    if (this.passed.length > REMEMBERED) this.passed.pop();
  }
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A remembered JSON object: its entries in a Map, so a comparison needs no key arrays. */
class ObjectSnapshot {
  constructor(readonly entries: ReadonlyMap<string, unknown>) {}
}

/**
 * A private snapshot of a value made only of JSON types (objects as `ObjectSnapshot`, arrays as arrays), or
 * `NOT_JSON` for anything else, a `__proto__` key, or more nodes than the budget.
 */
function snapshot(value: unknown, budget: { left: number }): unknown {
  if (--budget.left < 0) return NOT_JSON;
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") return Number.isFinite(value) ? value : NOT_JSON;
  if (typeof value !== "object") return NOT_JSON;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const item of value) {
      const copy = snapshot(item, budget);
      if (copy === NOT_JSON) return NOT_JSON;
      out.push(copy);
    }
    return out;
  }
  if (!isPlainObject(value)) return NOT_JSON;
  const entries = new Map<string, unknown>();
  for (const key of Object.keys(value)) {
    if (key === "__proto__") return NOT_JSON;
    const copy = snapshot((value as Record<string, unknown>)[key], budget);
    if (copy === NOT_JSON) return NOT_JSON;
    entries.set(key, copy);
  }
  return new ObjectSnapshot(entries);
}

/** Whether `value` equals a `snapshot` as JSON: the same own keys and values, arrays in order. */
function sameJson(value: unknown, known: unknown): boolean {
  if (typeof known !== "object" || known === null) return Object.is(value, known);
  if (typeof value !== "object" || value === null) return false;
  if (Array.isArray(known)) {
    if (!Array.isArray(value) || value.length !== known.length) return false;
    for (let i = 0; i < known.length; i++) if (!sameJson(value[i], known[i])) return false;
    return true;
  }
  if (Array.isArray(value) || !isPlainObject(value)) return false;
  const entries = (known as ObjectSnapshot).entries;
  let count = 0;
  for (const key in value) {
    // Snapshots hold no undefined values, so a missing key fails here; an inherited key fails the own-key test.
    const expected = entries.get(key);
    if (
      expected === undefined ||
      !Object.hasOwn(value, key) ||
      !sameJson((value as Record<string, unknown>)[key], expected)
    )
      return false;
    count++;
  }
  return count === entries.size;
}
