/** JSON Schema → IR: exact types where the schema allows, wider types plus a JSON Schema check where it does not. */
import { describe, expect, it } from "vitest";
import type { IrType } from "../../../generator/ir/model.ts";
import { lowerJsonSchema } from "../../../generator/manifest/lower-json-schema.ts";
import { I, lower, N, NULL, problem as schemaProblem, rootType, S, U } from "./lowering.ts";

function propType(schema: Record<string, unknown>): IrType {
  const t = rootType({ type: "object", properties: { p: schema }, required: ["p"] });
  if (t.kind !== "object") throw new Error("not an object");
  return t.props[0]!.type;
}
function problem(schema: Record<string, unknown>): string {
  const { path, message } = schemaProblem(schema);
  return `${JSON.stringify(path)} ${message}`;
}

describe("lowerJsonSchema: exact types", () => {
  it.each<[string, Record<string, unknown>, IrType]>([
    ["string", { type: "string" }, S],
    ["integer", { type: "integer" }, I],
    ["nullable via type array", { type: ["number", "null"] }, { kind: "union", items: [N, NULL] }],
    [
      "enum",
      { enum: ["a", "b", 1, null] },
      {
        kind: "union",
        items: [{ kind: "literal", value: "a" }, { kind: "literal", value: "b" }, { kind: "literal", value: 1 }, NULL],
      },
    ],
    ["const", { const: true }, { kind: "literal", value: true }],
    ["anyOf", { anyOf: [{ type: "string" }, { type: "integer" }] }, { kind: "union", items: [S, I] }],
    ["empty schema", {}, U],
    [
      "array",
      { type: "array", items: { type: "string" }, minItems: 1 },
      { kind: "array", element: S, constraints: { minItems: 1 } },
    ],
    [
      "closed tuple",
      { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: false, minItems: 2 },
      { kind: "tuple", elements: [S, N] },
    ],
    ["record", { type: "object", additionalProperties: { type: "number" } }, { kind: "object", props: [], index: N }],
  ])("%s", (_name, schema, expected) => {
    const lowered = lowerJsonSchema(
      { type: "object", properties: { p: schema }, required: ["p"] },
      "Root",
      [],
      new Set(),
    );
    const root = lowered.decls[0]!.type;
    expect(root.kind === "object" ? root.props[0]!.type : root).toEqual(expected);
    expect(lowered.warnings).toEqual([]);
  });

  it("objects: required/optional, open (index unknown) and closed", () => {
    expect(
      rootType({ type: "object", properties: { a: { type: "string" }, b: { type: "number" } }, required: ["a"] }),
    ).toEqual({
      kind: "object",
      props: [
        { name: "a", type: S, optional: false },
        { name: "b", type: N, optional: true },
      ],
      index: U,
    });
    expect(rootType({ type: "object", properties: { a: { type: "string" } }, additionalProperties: false })).toEqual({
      kind: "object",
      props: [{ name: "a", type: S, optional: true }],
      closed: true,
    });
  });

  it("$defs become named declarations; recursion and $ref to the root are refs", () => {
    const lowered = lower({
      type: "object",
      properties: { node: { $ref: "#/$defs/node" }, self: { $ref: "#" } },
      $defs: { node: { type: "object", properties: { next: { $ref: "#/$defs/node" } } } },
    });
    expect(lowered.decls.map((d) => d.name)).toEqual(["Root", "RootNode"]);
    const root = lowered.decls[0]!.type;
    expect(root.kind === "object" && root.props.map((p) => p.type)).toEqual([
      { kind: "ref", name: "RootNode" },
      { kind: "ref", name: "Root" },
    ]);
    expect(lowered.enforcedByJsonSchema).toEqual([]);
  });

  it("draft-07 ignores keywords beside $ref (2020-12 applies them)", () => {
    const schema = {
      type: "object",
      properties: { a: { $ref: "#/definitions/s", maxLength: 3 } },
      definitions: { s: { type: "string" } },
    };
    const draft07 = lower({ $schema: "http://json-schema.org/draft-07/schema#", ...schema });
    expect(draft07.enforcedByJsonSchema).toEqual([]);
    expect(draft07.warnings.map((w) => w.message)).toEqual(["draft-07 ignores maxLength beside $ref"]);
    expect(lower(schema).enforcedByJsonSchema).toEqual(["maxLength"]);
  });

  it("draft-07 definitions and $anchor references resolve", () => {
    const lowered = lower({
      type: "object",
      properties: { a: { $ref: "#/definitions/item" }, b: { $ref: "#place" } },
      definitions: { item: { type: "string" } },
      $defs: { where: { $anchor: "place", type: "number" } },
    });
    expect(lowered.decls.map((d) => [d.name, d.type])).toEqual([
      ["Root", expect.anything()],
      ["RootItem", S],
      ["RootWhere", N],
    ]);
  });

  it("number bounds and patterns on properties stay in zod; lengths and formats go to the JSON Schema check", () => {
    const lowered = lower({
      type: "object",
      properties: {
        n: { type: "integer", minimum: 1, maximum: 5 },
        s: { type: "string", pattern: "^a", minLength: 2, format: "email" },
      },
    });
    const root = lowered.decls[0]!.type;
    expect(root.kind === "object" && root.props.map((p) => p.constraints)).toEqual([
      { minimum: 1, maximum: 5 },
      { pattern: "^a" },
    ]);
    expect(lowered.enforcedByJsonSchema).toEqual(["format", "minLength"]);
  });

  it("a type beside enum values of another type is checked by JSON Schema", () => {
    expect(
      lower({ type: "object", properties: { a: { type: "string", enum: ["x", "y"] } } }).enforcedByJsonSchema,
    ).toEqual([]);
    expect(
      lower({ type: "object", properties: { a: { type: "string", enum: ["x", 1] } } }).enforcedByJsonSchema,
    ).toEqual(["type"]);
  });
});

describe("lowerJsonSchema: keywords that cannot be typed widen with a warning and are enforced", () => {
  it.each<[string, Record<string, unknown>, string]>([
    ["if/then/else", { if: { required: ["a"] }, then: { required: ["b"] } }, "if"],
    ["patternProperties", { patternProperties: { "^x": { type: "string" } } }, "patternProperties"],
    ["not", { not: { type: "string" } }, "not"],
    [
      "tuple with more minItems than prefix items",
      { type: "array", prefixItems: [{ type: "string" }], minItems: 3 },
      "prefixItems",
    ],
    ["uniqueItems", { type: "array", uniqueItems: true }, "uniqueItems"],
    ["required without properties", { anyOf: [{ required: ["a"] }, { required: ["b"] }] }, "required"],
  ])("%s", (_name, schema, keyword) => {
    const lowered = lower({ type: "object", properties: { p: schema } });
    expect(lowered.enforcedByJsonSchema).toContain(keyword);
    expect(lowered.warnings.length).toBeGreaterThan(0);
    expect(lowered.warnings[0]!.path.slice(0, 5)).toEqual(["tools", 0, "inputSchema", "properties", "p"]);
  });

  it("oneOf is a union whose exclusivity the JSON Schema check enforces (no warning: the type is exact)", () => {
    const lowered = lower({ type: "object", properties: { p: { oneOf: [{ type: "string" }, { type: "number" }] } } });
    expect(lowered.enforcedByJsonSchema).toEqual(["oneOf"]);
    expect(lowered.warnings).toEqual([]);
    expect(propType({ oneOf: [{ type: "string" }, { type: "number" }] })).toEqual({ kind: "union", items: [S, N] });
  });

  it("a tuple is the union of the lengths JSON Schema accepts", () => {
    const B: IrType = { kind: "primitive", name: "boolean" };
    expect(
      propType({
        type: "array",
        prefixItems: [{ type: "string" }, { type: "number" }],
        items: { type: "boolean" },
        minItems: 1,
      }),
    ).toEqual({
      kind: "union",
      items: [
        { kind: "tuple", elements: [S] },
        { kind: "tuple", elements: [S, N], rest: B },
      ],
    });
    expect(propType({ type: "array", items: [{ type: "string" }], additionalItems: false })).toEqual({
      kind: "union",
      items: [
        { kind: "tuple", elements: [] },
        { kind: "tuple", elements: [S] },
      ],
    });
  });

  it("unknown keywords are warned about (typos), never fatal; OpenAPI nullable gets a hint", () => {
    const lowered = lower({ type: "object", properties: { a: { type: "string", nullable: true, requried: true } } });
    expect(lowered.warnings.map((w) => w.message)).toEqual([
      'unknown keyword `nullable` ignored (as JSON Schema does); write "type": ["<type>", "null"] for a nullable value',
      "unknown keyword `requried` ignored (as JSON Schema does)",
    ]);
  });
});

describe("lowerJsonSchema: errors name the keyword's path", () => {
  it.each<[string, Record<string, unknown>, string]>([
    [
      "bad type",
      { type: "object", properties: { city: { type: "strin" } } },
      '["tools",0,"inputSchema","properties","city","type"] invalid type "strin"',
    ],
    [
      "unresolvable $ref",
      { type: "object", properties: { a: { $ref: "#/$defs/missing" } } },
      'unresolvable $ref "#/$defs/missing"',
    ],
    [
      "remote $ref",
      { type: "object", properties: { a: { $ref: "https://example.com/s.json" } } },
      "mcp-gen never fetches schemas",
    ],
    ["missing anchor", { type: "object", properties: { a: { $ref: "#nowhere" } } }, 'no $anchor "nowhere"'],
    [
      "required not a list",
      { type: "object", required: "a" },
      '["tools",0,"inputSchema","required"] `required` must be an array',
    ],
    ["empty enum", { type: "object", properties: { a: { enum: [] } } }, "`enum` must be a non-empty array"],
  ])("%s", (_name, schema, message) => {
    expect(problem(schema)).toContain(message);
  });

  it("two schemas generating the same type name are rejected", () => {
    const taken = new Set<string>();
    // Tool "a_b" with $defs "b" makes "ABB", the same name as tool "a_b_b"'s root.
    lowerJsonSchema({ type: "object", $defs: { b: {} }, properties: { x: { $ref: "#/$defs/b" } } }, "AB", [], taken);
    expect(() => lowerJsonSchema({ type: "object" }, "ABC", [], taken)).not.toThrow();
    expect(() => lowerJsonSchema({ type: "object" }, "ABB", [], taken)).toThrow(/type name ABB is generated twice/);
  });
});
