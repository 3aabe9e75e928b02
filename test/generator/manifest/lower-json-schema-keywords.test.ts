/**
 * JSON Schema lowering (generator/manifest/lower-json-schema.ts) keyword by keyword, beside the exact-type and
 * widening overview of lower-json-schema.test.ts: `patternProperties` beside each form of `additionalProperties`,
 * tuple forms under `maxItems` and the tuple size limit, `allOf` intersections, documentation, implied types, union
 * flattening, and the errors for malformed keyword values (the warnings, their paths and draft detection:
 * lower-json-schema-warnings.test.ts). Oracle: JSON Schema 2020-12/draft-07 semantics as the module's header states. Equivalent mutants
 * left alive by these tests: docs/mutation.md.
 */
import { describe, expect, it } from "vitest";
import { AT, B, lower, N, problem, rootType, S, U } from "./lowering.ts";

describe("patternProperties beside additionalProperties", () => {
  const patterns = { "^s_": { type: "string" }, "^n_": { type: "number" } };
  it("is an open index (unknown) when additionalProperties is absent or true", () => {
    expect(rootType({ type: "object", patternProperties: patterns })).toEqual({ kind: "object", props: [], index: U });
    expect(rootType({ type: "object", patternProperties: patterns, additionalProperties: true })).toEqual({
      kind: "object",
      props: [],
      index: U,
    });
  });

  it("is the union of the pattern types when additionalProperties is false, plus its schema's type otherwise", () => {
    expect(rootType({ type: "object", patternProperties: patterns, additionalProperties: false })).toEqual({
      kind: "object",
      props: [],
      index: { kind: "union", items: [S, N] },
    });
    expect(
      rootType({ type: "object", patternProperties: patterns, additionalProperties: { type: "boolean" } }),
    ).toEqual({
      kind: "object",
      props: [],
      index: { kind: "union", items: [S, N, B] },
    });
  });

  it("rejects patternProperties that is not an object of schemas", () => {
    expect(problem({ type: "object", patternProperties: [{ type: "string" }] })).toEqual({
      path: [...AT, "patternProperties"],
      message: "must be an object of schemas",
    });
  });
});

describe("objects", () => {
  it("keeps required names without a property schema as required keys of any value", () => {
    expect(rootType({ type: "object", properties: { a: { type: "string" } }, required: ["a", "b"] })).toEqual({
      kind: "object",
      props: [
        { name: "a", type: S, optional: false },
        { name: "b", type: U, optional: false },
      ],
      index: U,
    });
  });

  it("implies object from properties, additionalProperties or patternProperties and array from items or prefixItems", () => {
    expect(rootType({ properties: { a: { type: "string" } } })).toMatchObject({ kind: "object" });
    expect(rootType({ additionalProperties: false })).toEqual({ kind: "object", props: [], closed: true });
    expect(rootType({ patternProperties: { x: {} } })).toMatchObject({ kind: "object" });
    expect(rootType({ items: { type: "string" } })).toEqual({ kind: "array", element: S });
    expect(rootType({ prefixItems: [{ type: "string" }], items: false })).toEqual({
      kind: "union",
      items: [
        { kind: "tuple", elements: [] },
        { kind: "tuple", elements: [S] },
      ],
    });
  });

  it("documents the root, $defs and properties with their descriptions", () => {
    const out = lower({
      description: "Root doc",
      type: "object",
      properties: { a: { $ref: "#/$defs/d", description: "A doc" } },
      $defs: { d: { type: "string", description: "D doc" } },
    });
    expect(out.decls.map((d) => [d.name, d.doc])).toEqual([
      ["Root", { text: "Root doc" }],
      ["RootD", { text: "D doc" }],
    ]);
    const root = out.decls[0]!.type;
    expect(root.kind === "object" && root.props[0]!.doc).toEqual({ text: "A doc" });
    expect(lower({ type: "object" }).decls[0]).not.toHaveProperty("doc");
  });

  it("rejects properties that is not an object and required entries that are not names", () => {
    expect(problem({ type: "object", properties: [] as unknown[] })).toEqual({
      path: [...AT, "properties"],
      message: "`properties` must be an object",
    });
    expect(problem({ type: "object", required: ["a", 1] }).path).toEqual([...AT, "required"]);
  });
});

describe("arrays and tuples", () => {
  const three = [{ type: "string" }, { type: "number" }, { type: "boolean" }];
  it("keeps only the lengths maxItems allows", () => {
    expect(rootType({ type: "array", prefixItems: three, items: false, maxItems: 1 })).toEqual({
      kind: "union",
      items: [
        { kind: "tuple", elements: [] },
        { kind: "tuple", elements: [S] },
      ],
    });
    expect(rootType({ type: "array", prefixItems: three, items: false, minItems: 2, maxItems: 3 })).toEqual({
      kind: "union",
      items: [
        { kind: "tuple", elements: [S, N] },
        { kind: "tuple", elements: [S, N, B] },
      ],
    });
    expect(rootType({ type: "array", prefixItems: three, items: false, minItems: 3 })).toEqual({
      kind: "tuple",
      elements: [S, N, B],
    });
  });

  it("types an open tuple with maxItems as an array of the item types (rest included)", () => {
    expect(rootType({ type: "array", prefixItems: three, maxItems: 4, items: { type: "null" } })).toEqual({
      kind: "array",
      element: { kind: "union", items: [S, N, B, { kind: "primitive", name: "null" }] },
    });
  });

  it("spells out tuples up to 8 items and types longer ones as arrays", () => {
    const eight = Array.from({ length: 8 }, () => ({ type: "string" }));
    const eightType = rootType({ type: "array", prefixItems: eight, items: false, minItems: 8 });
    expect(eightType).toEqual({ kind: "tuple", elements: Array.from({ length: 8 }, () => S) });
    const nine = rootType({ type: "array", prefixItems: [...eight, { type: "string" }], items: false, minItems: 9 });
    expect(nine).toEqual({ kind: "array", element: S });
  });

  it("draft-07 tuples: items as a list with additionalItems as the rest; array constraints are kept", () => {
    expect(
      rootType({ type: "array", items: [{ type: "string" }], additionalItems: { type: "number" }, minItems: 1 }),
    ).toEqual({ kind: "tuple", elements: [S], rest: N });
    expect(rootType({ type: "array", minItems: 1, maxItems: 3 })).toEqual({
      kind: "array",
      element: U,
      constraints: { minItems: 1, maxItems: 3 },
    });
  });
});

describe("combinators and unions", () => {
  it("intersects allOf parts that say something and drops the unknown ones", () => {
    const obj = (name: string) => ({ type: "object", properties: { [name]: { type: "string" } }, required: [name] });
    expect(rootType({ allOf: [obj("a"), obj("b")] })).toEqual({
      kind: "intersection",
      items: [
        { kind: "object", props: [{ name: "a", type: S, optional: false }], index: U },
        { kind: "object", props: [{ name: "b", type: S, optional: false }], index: U },
      ],
    });
    expect(rootType({ allOf: [{}, { type: "string" }] })).toEqual(S);
    expect(rootType({ type: "string", allOf: [{ minLength: 1 }] })).toEqual(S);
  });

  it("flattens nested unions, keeps each member once, and widens to unknown when any member is unknown", () => {
    expect(rootType({ anyOf: [{ type: "string" }, { anyOf: [{ type: "number" }, { type: "string" }] }] })).toEqual({
      kind: "union",
      items: [S, N],
    });
    expect(rootType({ anyOf: [{ type: "string" }, { type: "string" }] })).toEqual(S);
    expect(rootType({ type: ["string", "null"], anyOf: [{}, { type: "string" }] })).toEqual({
      kind: "union",
      items: [S, { kind: "primitive", name: "null" }],
    });
  });

  it("rejects an empty or non-list anyOf/oneOf/allOf at its path, and a subschema that is not a schema", () => {
    expect(problem({ anyOf: [] })).toEqual({ path: [...AT, "anyOf"], message: "must be a non-empty array of schemas" });
    expect(problem({ allOf: {} })).toEqual({ path: [...AT, "allOf"], message: "must be a non-empty array of schemas" });
    expect(problem({ oneOf: [5] })).toEqual({
      path: [...AT, "oneOf", 0],
      message: "a JSON Schema must be an object or a boolean",
    });
  });

  it("rejects a type that is empty or not a type name, listing the valid ones", () => {
    const valid = "use string, number, integer, boolean, null, object, array or an array of them";
    expect(problem({ type: [] })).toEqual({ path: [...AT, "type"], message: `invalid type []: ${valid}` });
    expect(problem({ type: 5 })).toEqual({ path: [...AT, "type"], message: `invalid type 5: ${valid}` });
    expect(problem({ type: ["string", "strin"] })).toEqual({
      path: [...AT, "type"],
      message: `invalid type ["string","strin"]: ${valid}`,
    });
    expect(problem(true)).toEqual({ path: [...AT], message: "a JSON Schema must be an object" });
  });
});

describe("declarations", () => {
  it("declares user schemas as exported plain declarations (no bases, not internal)", () => {
    expect(lower({ type: "string" }).decls).toEqual([{ name: "Root", type: S, extends: [] }]);
  });

  it("names nested $defs by every segment and ignores a description that is not a string", () => {
    const out = lower({
      type: "object",
      properties: { a: { $ref: "#/$defs/outer/$defs/inner_x" } },
      $defs: { outer: { $defs: { inner_x: { type: "number", description: 5 } } } },
    });
    expect(out.decls.map((d) => d.name)).toEqual(["Root", "RootOuterInnerX"]);
    expect(out.decls[1]).not.toHaveProperty("doc");
  });

  it("types an object or array constant as unknown", () => {
    expect(rootType({ const: [1, 2] })).toEqual(U);
    expect(rootType({ enum: [{ a: 1 }, "x"] })).toEqual(U);
  });

  it("implies an array from prefixItems alone", () => {
    expect(rootType({ prefixItems: [{ type: "string" }], minItems: 1 })).toEqual({
      kind: "tuple",
      elements: [S],
      rest: U,
    });
  });

  it("checks patterns and bounds in zod only on properties; elsewhere the JSON Schema check enforces them", () => {
    expect(lower({ type: "array", items: { type: "string", pattern: "^a" } }).enforcedByJsonSchema).toEqual([
      "pattern",
    ]);
    expect(lower({ type: "integer", minimum: 1 }).enforcedByJsonSchema).toEqual(["minimum"]);
    expect(lower({ type: "object", properties: { n: { type: "integer", minimum: 1 } } }).enforcedByJsonSchema).toEqual(
      [],
    );
  });

  it("draft-07: only annotations beside $ref warn about nothing; every ignored keyword is named", () => {
    const draft07 = (beside: Record<string, unknown>) =>
      lower({
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        properties: { a: { $ref: "#/definitions/s", ...beside } },
        definitions: { s: { type: "string" } },
      }).warnings;
    expect(draft07({ description: "d", title: "t" })).toEqual([]);
    expect(draft07({ minLength: 1, maxLength: 3 })).toEqual([
      { path: [...AT, "properties", "a"], message: "draft-07 ignores minLength, maxLength beside $ref" },
    ]);
  });
});
