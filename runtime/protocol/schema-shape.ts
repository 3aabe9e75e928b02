/**
 * Read-only introspection of generated zod schemas: which property names a (possibly union-typed) object schema
 * declares, and which members a union has. Used once per revision to derive per-method behaviour (does a result
 * carry `resultType`, `ttlMs`; may it be an `InputRequiredResult`) from the bindings instead of hard-coding it.
 */
import type { z } from "zod";

interface Def {
  readonly type: string;
  readonly shape?: Record<string, unknown>;
  readonly options?: readonly z.ZodType[];
  readonly getter?: () => z.ZodType;
  readonly innerType?: z.ZodType;
  readonly in?: z.ZodType;
  readonly left?: z.ZodType;
  readonly right?: z.ZodType;
}

function defOf(schema: z.ZodType): Def | undefined {
  return (schema as unknown as { _zod?: { def?: Def } })._zod?.def;
}

/** The union members of `schema` (itself when it is not a union), looking through lazy/optional wrappers. */
export function unionMembers(schema: z.ZodType, depth = 0): z.ZodType[] {
  const def = defOf(schema);
  if (!def || depth > 8) return [schema];
  switch (def.type) {
    case "union":
      return (def.options ?? []).flatMap((o) => unionMembers(o, depth + 1));
    case "lazy":
      return def.getter ? unionMembers(def.getter(), depth + 1) : [schema];
    case "optional":
    case "nullable":
    case "readonly":
      return def.innerType ? unionMembers(def.innerType, depth + 1) : [schema];
    default:
      return [schema];
  }
}

/** Property names an object schema declares (merged over intersections and pipes). */
export function objectKeys(schema: z.ZodType, depth = 0): Set<string> {
  const keys = new Set<string>();
  const def = defOf(schema);
  if (!def || depth > 8) return keys;
  const add = (s: z.ZodType | undefined) => s && objectKeys(s, depth + 1).forEach((k) => keys.add(k));
  switch (def.type) {
    case "object":
      Object.keys(def.shape ?? {}).forEach((k) => keys.add(k));
      break;
    case "intersection":
      add(def.left);
      add(def.right);
      break;
    case "pipe":
      add(def.in);
      break;
    case "lazy":
      add(def.getter?.());
      break;
    case "optional":
    case "nullable":
    case "readonly":
      add(def.innerType);
      break;
  }
  return keys;
}
