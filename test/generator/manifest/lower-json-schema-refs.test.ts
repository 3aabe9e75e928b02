/**
 * JSON Schema lowering (generator/manifest/lower-json-schema.ts) of boolean subschemas (inline and as `$defs`) and of
 * `$ref`s that point outside `$defs` (inlined, with errors and warnings at the target's path), beside
 * lower-json-schema.test.ts. Oracle: JSON Schema 2020-12 semantics (`true` accepts anything, `false` nothing; a `$ref`
 * is a JSON Pointer into the document).
 */
import { describe, expect, it } from "vitest";
import { lower as lowerJs, problem, U } from "./lowering.ts";

describe("JSON Schema: boolean subschemas", () => {
  it("types true as unknown silently, and false as unknown with a warning and the JSON Schema check", () => {
    const out = lowerJs({ type: "object", properties: { yes: true, no: false }, required: ["yes"] });
    expect(out.decls[0]!.type).toEqual({
      kind: "object",
      props: [
        { name: "yes", type: U, optional: false },
        { name: "no", type: U, optional: true },
      ],
      index: U,
    });
    expect(out.warnings).toEqual([
      {
        path: ["tools", 0, "inputSchema", "properties", "no"],
        message: "the `false` schema (no value is valid) is typed unknown",
      },
    ]);
    expect(out.enforcedByJsonSchema).toEqual(["false"]);
    expect(lowerJs({ type: "object", properties: { yes: true } }).enforcedByJsonSchema).toEqual([]);
  });

  it("keeps false enforced in items, anyOf and allOf", () => {
    for (const schema of [
      { type: "array", items: false },
      { anyOf: [{ type: "string" }, false] },
      { allOf: [false] },
      { type: "object", additionalProperties: { anyOf: [false] } },
    ]) {
      expect(lowerJs(schema).enforcedByJsonSchema, JSON.stringify(schema)).toContain("false");
    }
    expect(lowerJs({ anyOf: [true, { type: "string" }] }).decls[0]!.type).toEqual(U);
  });

  it("lowers a boolean $defs entry as itself: false stays enforced (it used to become {}, dropping the check)", () => {
    const out = lowerJs({
      type: "object",
      properties: { a: { $ref: "#/$defs/never" }, b: { $ref: "#/$defs/any" } },
      $defs: { never: false, any: true },
    });
    expect(out.decls.map((d) => [d.name, d.type])).toEqual([
      [
        "Root",
        {
          kind: "object",
          props: [
            { name: "a", type: { kind: "ref", name: "RootNever" }, optional: true },
            { name: "b", type: { kind: "ref", name: "RootAny" }, optional: true },
          ],
          index: U,
        },
      ],
      ["RootNever", U],
      ["RootAny", U],
    ]);
    expect(out.enforcedByJsonSchema).toEqual(["false"]);
    expect(out.warnings).toEqual([
      {
        path: ["tools", 0, "inputSchema", "$defs", "never"],
        message: "the `false` schema (no value is valid) is typed unknown",
      },
    ]);
  });

  it("rejects a $defs entry that is not a schema, at its own path", () => {
    expect(problem({ type: "object", properties: { a: { $ref: "#/$defs/d" } }, $defs: { d: 5 } })).toEqual({
      path: ["tools", 0, "inputSchema", "$defs", "d"],
      message: "a JSON Schema must be an object or a boolean",
    });
  });
});

describe("JSON Schema: $ref paths outside $defs", () => {
  // A $ref target is lowered once, as a named declaration, and referenced wherever it is met (issue 20: copies of
  // copies grew exponentially).
  it("names a $ref target outside $defs by its path, with the target's keywords enforced", () => {
    const out = lowerJs({
      type: "object",
      properties: { a: { $ref: "#/properties/b" }, b: { type: "string", format: "email", description: "B" } },
    });
    expect(out.decls.map((d) => d.name)).toEqual(["Root", "RootPropertiesB"]);
    const ref = { kind: "ref", name: "RootPropertiesB" };
    expect(out.decls[0]!.type).toEqual({
      kind: "object",
      props: [
        { name: "a", type: ref, optional: true },
        { name: "b", type: ref, optional: true, doc: { text: "B" } },
      ],
      index: U,
    });
    expect(out.decls[1]).toEqual({
      name: "RootPropertiesB",
      type: { kind: "primitive", name: "string" },
      extends: [],
      doc: { text: "B" },
    });
    expect(out.enforcedByJsonSchema).toEqual(["format"]);
  });

  it("reports problems inside a target at the target's path, once", () => {
    expect(
      problem({ type: "object", properties: { a: { $ref: "#/properties/b" }, b: { type: "strin" } } }).path,
    ).toEqual(["tools", 0, "inputSchema", "properties", "b", "type"]);
    const out = lowerJs({ type: "object", properties: { a: { $ref: "#/properties/b" }, b: { typo: 1 } } });
    expect(out.warnings.map((w) => w.path)).toEqual([["tools", 0, "inputSchema", "properties", "b", "typo"]]);
  });

  it("follows array indexes and escaped pointer segments", () => {
    const out = lowerJs({
      type: "object",
      properties: {
        a: { $ref: "#/properties/t/items/1" },
        "x/y~z": { type: "boolean" },
        c: { $ref: "#/properties/x~1y~0z" },
        t: { items: [{ type: "null" }, { type: "integer" }] },
      },
    });
    const root = out.decls[0]!.type;
    const ref = (name: string) => ({ kind: "ref", name });
    expect(root.kind === "object" && root.props.map((p) => [p.name, p.type])).toEqual([
      ["a", ref("RootPropertiesTItems1")],
      ["x/y~z", ref("RootPropertiesXYZ")],
      ["c", ref("RootPropertiesXYZ")],
      ["t", expect.objectContaining({ kind: "union" })],
    ]);
    expect(out.decls.slice(1).map((d) => [d.name, d.type])).toEqual([
      ["RootPropertiesTItems1", { kind: "primitive", name: "integer" }],
      ["RootPropertiesXYZ", { kind: "primitive", name: "boolean" }],
    ]);
  });

  it("names $defs by their path, escaped segments included; #-refs to the root are refs", () => {
    const out = lowerJs({
      type: "object",
      properties: { a: { $ref: "#/$defs/a~1b" }, self: { $ref: "#" } },
      $defs: { "a/b": { type: "integer" } },
    });
    expect(out.decls.map((d) => d.name)).toEqual(["Root", "RootAB"]);
    const root = out.decls[0]!.type;
    expect(root.kind === "object" && root.props[1]!.type).toEqual({ kind: "ref", name: "Root" });
  });

  it("rejects a $ref cycle that is only itself, a non-string $ref and a pointer to nothing", () => {
    expect(problem({ type: "object", properties: { a: { $ref: "#/properties/a" } } })).toEqual({
      path: ["tools", 0, "inputSchema", "properties", "a"],
      message:
        "recursive $ref: RootPropertiesA → RootPropertiesA is only itself (no object or array in between), which no type or validator can be",
    });
    expect(problem({ type: "object", properties: { a: { $ref: 5 } } })).toEqual({
      path: ["tools", 0, "inputSchema", "properties", "a", "$ref"],
      message: "`$ref` must be a string",
    });
    expect(problem({ type: "object", properties: { a: { $ref: "#/properties/zz" } } }).message).toBe(
      'unresolvable $ref "#/properties/zz"',
    );
  });

  it("reuses one declaration for repeated refs to the same $defs entry", () => {
    const out = lowerJs({
      type: "object",
      properties: { a: { $ref: "#/$defs/d" }, b: { $ref: "#/$defs/d" } },
      $defs: { d: { type: "string" } },
    });
    expect(out.decls.map((d) => d.name)).toEqual(["Root", "RootD"]);
  });
});
