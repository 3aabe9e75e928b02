/**
 * The object helpers generated validators are built from (`runtime/protocol/zod-helpers.ts`): zod/mini objects that
 * compile their parser like classic zod's. Their verdicts are checked against what JSON Schema says of open, closed
 * and indexed objects, and against zod/mini's own interpreted objects (the oracle), compiled or not.
 */
import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { built, closedObject, indexedObject, openObject, optionalKey } from "../../../runtime/protocol/zod-helpers.ts";

const shape = () => ({ name: z.string(), count: optionalKey(z.number()) });

const values: unknown[] = [
  { name: "a" },
  { name: "a", count: 2 },
  { name: "a", extra: 1 },
  { name: "a", extra: "x" },
  { name: 1 },
  { count: 2 },
  { name: "a", count: "2" },
  null,
  [],
  "a",
];

/** The outcome as plain data: the parsed value, or each issue's path and message. */
function verdict(schema: z.ZodMiniType, value: unknown): unknown {
  const parsed = schema.safeParse(value);
  return parsed.success ? { data: parsed.data } : { issues: parsed.error.issues.map((i) => [i.path, i.message]) };
}

describe("object helpers", () => {
  it("agree with zod/mini's interpreted objects on every value", () => {
    const pairs: [z.ZodMiniType, z.ZodMiniType][] = [
      [openObject(shape()), z.looseObject(shape())],
      [closedObject(shape()), z.strictObject(shape())],
      [indexedObject(shape(), z.number()), z.catchall(z.object(shape()), z.number())],
    ];
    for (const [helper, oracle] of pairs)
      for (const value of values) expect(verdict(helper, value)).toEqual(verdict(oracle, value));
  });

  it("keep, reject or check undeclared keys as JSON Schema's additionalProperties says", () => {
    expect(openObject(shape()).safeParse({ name: "a", extra: 1 })).toEqual({
      success: true,
      data: { name: "a", extra: 1 },
    });
    expect(closedObject(shape()).safeParse({ name: "a", extra: 1 }).success).toBe(false);
    expect(indexedObject(shape(), z.number()).safeParse({ name: "a", extra: 1 }).success).toBe(true);
    expect(indexedObject(shape(), z.number()).safeParse({ name: "a", extra: "x" }).success).toBe(false);
  });

  it("are zod/mini objects: instanceof, shape and z.omit work", () => {
    const object = openObject(shape());
    expect(object).toBeInstanceOf(z.ZodMiniObject);
    expect(Object.keys(object.shape)).toEqual(["name", "count"]);
    const omitted = z.omit(object, { name: true });
    expect(omitted.safeParse({ count: 1 }).success).toBe(true);
    expect(omitted.safeParse({ count: "1" }).success).toBe(false);
  });

  it("explain failures in English, as classic zod does", () => {
    const parsed = closedObject(shape()).safeParse({ name: 1 });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/expected string, received number/);
  });
});

describe("built", () => {
  it("builds a deferred schema once, on first use, and passes any other schema through", () => {
    let builds = 0;
    const deferred = z.lazy(() => {
      builds++;
      return openObject(shape());
    });
    expect(builds).toBe(0);
    const first = built(deferred);
    expect(builds).toBe(1);
    expect(built(deferred)).toBe(first);
    expect(builds).toBe(1);
    expect(first).toBeInstanceOf(z.ZodMiniObject);
    expect(deferred.safeParse({ name: "a" }).success).toBe(true);
    expect(builds).toBe(1);
    const plain = z.string();
    expect(built(plain)).toBe(plain);
  });
});
