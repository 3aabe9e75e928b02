/**
 * Properties named like Object.prototype members (`constructor`, `toString`, `__proto__`, …; the list is
 * `Object.getOwnPropertyNames(Object.prototype)`) are validated as own properties only by the generated validators of
 * the proto-key golden: absent means absent (never the inherited member), present is checked by its schema, and the
 * parsed value keeps it as an own property. Inputs are parsed from JSON text, as they arrive at run time.
 */
import { describe, expect, it } from "vitest";
import { createPrinter } from "../../../generator/emit/printer.ts";
import { createZodContext, emitZodExpression } from "../../../generator/emit/zod.ts";
import type { IrObjectType } from "../../../generator/ir/model.ts";
import * as golden from "../../manifest/golden/proto-key/expected/index.ts";

const MEMBERS = Object.getOwnPropertyNames(Object.prototype);
const json = JSON.stringify;

type Issue = { path: PropertyKey[]; message: string };
type Parsed = { success: true; data: unknown } | { success: false; error: { issues: readonly Issue[] } };

/** `path: message` of each issue; [] when `text` is valid. */
function issues(schema: { safeParse(value: unknown): Parsed }, text: string): string[] {
  const parsed = schema.safeParse(JSON.parse(text));
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.map(String).join(".")}: ${i.message}`);
}

function parse(schema: { safeParse(value: unknown): Parsed }, text: string): Record<string, unknown> {
  const parsed = schema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`rejected ${text}: ${json(parsed.error.issues)}`);
  return parsed.data as Record<string, unknown>;
}

/** `{"<key>": <value>, …}` for every member, as JSON text (a `__proto__` key stays a key). */
const allMembers = (value: (key: string) => unknown, omit?: string) =>
  `{${MEMBERS.filter((k) => k !== omit)
    .map((k) => `${json(k)}: ${json(value(k))}`)
    .join(", ")}}`;

describe("the golden covers every Object.prototype member", () => {
  it("members.input declares each one, and so does its nested object", () => {
    const properties = golden.jsonSchemas.MembersInput["properties"] as Record<string, { properties: object }>;
    expect(Object.keys(properties).filter((k) => k !== "nested")).toEqual(MEMBERS);
    expect(Object.keys(properties["nested"]!.properties)).toEqual(MEMBERS);
  });
});

describe("optional member names (members.input)", () => {
  const schema = golden.MembersInputSchema;

  it("absent: valid, and absent from the parsed value", () => {
    expect(issues(schema, "{}")).toEqual([]);
    const data = parse(schema, "{}");
    for (const key of MEMBERS) expect(Object.hasOwn(data, key), key).toBe(false);
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
  });

  it.each(MEMBERS)("%s present: validated by its schema and kept as an own property", (key) => {
    const data = parse(schema, `{${json(key)}: "v"}`);
    expect(Object.getOwnPropertyDescriptor(data, key)?.value).toBe("v");
    expect(Object.keys(data)).toEqual([key]);
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(issues(schema, `{${json(key)}: 5}`)).toEqual([
      expect.stringMatching(new RegExp(`^${key}: .*expected string`)),
    ]);
    expect(issues(schema, `{${json(key)}: "v", "extra": 1}`)).toEqual([expect.stringMatching(/Unrecognized key/)]);
  });

  it("all present at once", () => {
    const data = parse(
      schema,
      allMembers((k) => k),
    );
    for (const key of MEMBERS) expect(Object.getOwnPropertyDescriptor(data, key)?.value).toBe(key);
  });

  it("rejects non-objects (the own-property copy is only made of objects)", () => {
    for (const text of ["[]", '["constructor"]', "null", '"constructor"', "5"]) {
      expect(issues(schema, text).length, text).toBeGreaterThan(0);
    }
  });

  it("does not modify the input", () => {
    const input = JSON.parse('{"__proto__": "a", "toString": "b"}') as object;
    parse(schema, '{"__proto__": "a", "toString": "b"}');
    schema.safeParse(input);
    expect(Object.getPrototypeOf(input)).toBe(Object.prototype);
    expect(Object.entries(input)).toEqual([
      ["__proto__", "a"],
      ["toString", "b"],
    ]);
  });
});

describe("required member names, nested (members.input.nested)", () => {
  const schema = golden.MembersInputSchema;
  const nested = (body: string) => `{"nested": ${body}}`;

  it("all present: valid, each an own property of the parsed nested object", () => {
    const data = parse(schema, nested(allMembers((k) => k.length)));
    const inner = data["nested"] as Record<string, unknown>;
    for (const key of MEMBERS) expect(Object.getOwnPropertyDescriptor(inner, key)?.value).toBe(key.length);
    expect(Object.getPrototypeOf(inner)).toBe(Object.prototype);
  });

  it.each(MEMBERS)("%s absent or of the wrong type: rejected at its path", (key) => {
    expect(issues(schema, nested(allMembers(() => 1, key)))).toEqual([
      expect.stringMatching(new RegExp(`^nested\\.${key}: `)),
    ]);
    expect(issues(schema, nested(allMembers((k) => (k === key ? "1" : 1))))).toEqual([
      expect.stringMatching(new RegExp(`^nested\\.${key}: .*expected number, received string`)),
    ]);
    expect(issues(schema, nested(allMembers((k) => (k === key ? 1.5 : 1))))).toEqual([
      expect.stringMatching(new RegExp(`^nested\\.${key}: `)),
    ]);
  });
});

describe("required member names of any value (members.output) are not satisfied by the inherited member", () => {
  const schema = golden.MembersOutputSchema;

  it("absent: rejected", () => {
    expect(issues(schema, "{}").sort()).toEqual([
      expect.stringMatching(/^constructor: /),
      expect.stringMatching(/^toString: /),
      expect.stringMatching(/^valueOf: /),
    ]);
    expect(issues(schema, '{"constructor": null, "toString": 0}')).toEqual([expect.stringMatching(/^valueOf: /)]);
  });

  it("present with any JSON value: valid and kept", () => {
    const data = parse(schema, '{"constructor": null, "toString": {"a": 1}, "valueOf": [1], "hasOwnProperty": 2}');
    expect(Object.entries(data)).toEqual([
      ["constructor", null],
      ["toString", { a: 1 }],
      ["valueOf", [1]],
      ["hasOwnProperty", 2],
    ]);
  });
});

describe("member names with keywords only the JSON Schema check enforces (checked.input)", () => {
  const schema = golden.CheckedInputSchema;

  it("absent keys are absent for zod and ajv alike", () => {
    expect(issues(schema, "{}")).toEqual([]);
  });

  it("a __proto__ property is checked by its subschema and by dependentRequired", () => {
    expect(issues(schema, '{"__proto__": "x", "toString": "y"}')).toEqual([]);
    expect(issues(schema, '{"__proto__": "forbidden", "toString": "y"}')).toEqual([
      expect.stringMatching(/^__proto__: must NOT be valid/),
    ]);
    expect(issues(schema, '{"__proto__": "x"}')).toEqual([
      expect.stringMatching(/^: must have property toString when property __proto__ is present/),
    ]);
    expect(issues(schema, '{"__proto__": 1, "toString": "y"}')).toEqual([
      expect.stringMatching(/^__proto__: .*string/),
    ]);
  });

  it("constructor: absent, valid, rejected by `not`, wrong type", () => {
    expect(issues(schema, '{"constructor": 12}')).toEqual([]);
    expect(issues(schema, '{"constructor": 13}')).toEqual([expect.stringMatching(/^constructor: must NOT be valid/)]);
    expect(issues(schema, '{"constructor": "12"}')).toEqual([
      expect.stringMatching(/^constructor: .*expected number, received string/),
    ]);
  });
});

describe("the zod emitter", () => {
  const object = (name: string, optional: boolean): IrObjectType => ({
    kind: "object",
    props: [{ name, type: { kind: "primitive", name: "string" }, optional }],
  });

  /** A zod context printing into a fresh file; `imports()` is the import section the expressions needed. */
  const context = () => {
    const printer = createPrinter({ runtime: () => "rt", siblingExtension: ".js" });
    return { ctx: createZodContext({ printer }), imports: () => printer.render("") };
  };

  it.each(MEMBERS)("wraps an object declaring %s in ownKeys", (name) => {
    const { ctx, imports } = context();
    const proto = name === "__proto__" ? ', "optional"' : "";
    expect(emitZodExpression(object(name, true), ctx)).toMatch(new RegExp(`^ownKeys\\(.*${proto}\\)$`, "s"));
    expect(imports()).toMatch(/^import \{[^}]*\bownKeys\b[^}]*\} from "rt";$/m);
  });

  it("leaves other objects plain (no wrapper, no helper)", () => {
    const { ctx, imports } = context();
    for (const name of ["name", "prototype", "__proto", "Constructor", "call", "length"]) {
      expect(emitZodExpression(object(name, false), ctx)).toMatch(/^openObject\(/);
    }
    expect(imports()).toMatch(/^import \{ openObject \} from "rt";$/m);
    expect(imports()).not.toContain("ownKeys");
  });
});
