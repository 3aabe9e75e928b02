/**
 * `jsonSchemaCheck` (@cfworker/json-schema over the original JSON Schema, in ajv's wording) with property names that are Object.prototype members: only
 * the data's own properties count, and a `__proto__` property is checked like any other. Schemas and data are parsed
 * from JSON text, as they arrive at run time (an object literal would turn `__proto__` into a prototype).
 */
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { jsonSchemaCheck } from "../../../runtime/protocol/json-schema-check.ts";

// ajv-formats is CommonJS: under NodeNext its default export is `module.exports`, whose `default` is the plugin.
const addFormats = addFormatsModule.default;

const MEMBERS = Object.getOwnPropertyNames(Object.prototype);
const DRAFTS = [
  ["2020-12", "https://json-schema.org/draft/2020-12/schema"],
  ["draft-07", "http://json-schema.org/draft-07/schema#"],
] as const;

/** `path: message` of each issue the check reports for `data` (both given as JSON text); [] when valid. */
function check(schemaJson: string, dataJson: string): string[] {
  const validator = z.unknown().superRefine(jsonSchemaCheck(JSON.parse(schemaJson)));
  const result = validator.safeParse(JSON.parse(dataJson));
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join("/")}: ${i.message}`);
}

const json = JSON.stringify;

describe.each(DRAFTS)("jsonSchemaCheck (%s) and Object.prototype member names", (_, $schema) => {
  it.each(MEMBERS)("%s: required and optional, absent, present and of the wrong type", (key) => {
    const schema = (required: boolean) =>
      json({
        $schema,
        type: "object",
        properties: { [key]: { type: "string", minLength: 2 } },
        ...(required ? { required: [key] } : {}),
        additionalProperties: false,
      });
    // A computed key is an own data property, so JSON.stringify writes it even for `__proto__`.
    for (const required of [true, false]) {
      expect(check(schema(required), "{}")).toEqual(
        required ? [expect.stringMatching(new RegExp(`^: must have required property '${key}'`))] : [],
      );
      expect(check(schema(required), `{${json(key)}: "ok"}`)).toEqual([]);
      expect(check(schema(required), `{${json(key)}: 5}`)).toEqual([
        expect.stringMatching(new RegExp(`^${key}: must be string`)),
      ]);
      expect(check(schema(required), `{${json(key)}: "x"}`)).toEqual([
        expect.stringMatching(new RegExp(`^${key}: must NOT have fewer than 2 characters`)),
      ]);
      expect(check(schema(required), `{${json(key)}: "ok", "extra": 1}`)).toEqual([
        expect.stringMatching(/^: must NOT have additional properties/),
      ]);
    }
  });

  it.each(MEMBERS)("%s: nested, and required without a property schema", (key) => {
    const schema = json({
      $schema,
      type: "object",
      properties: { outer: { type: "object", properties: { [key]: { type: "integer" } }, required: [key] } },
      required: ["outer", "other"],
    });
    expect(check(schema, `{"outer": {${json(key)}: 1}, "other": null}`)).toEqual([]);
    expect(check(schema, `{"outer": {${json(key)}: "1"}, "other": null}`)).toEqual([
      expect.stringMatching(new RegExp(`^outer/${key}: must be integer`)),
    ]);
    expect(check(schema, `{"outer": {}, "other": null}`)).toEqual([
      expect.stringMatching(new RegExp(`^outer: must have required property '${key}'`)),
    ]);
    const bare = json({ $schema, type: "object", required: [key] });
    expect(check(bare, "{}")).toEqual([expect.stringMatching(new RegExp(`must have required property '${key}'`))]);
    expect(check(bare, `{${json(key)}: null}`)).toEqual([]);
  });
});

describe("jsonSchemaCheck and a __proto__ property in other keywords", () => {
  it("dependentRequired and dependentSchemas (2020-12), dependencies (draft-07)", () => {
    const dependent =
      '{"type": "object", "dependentRequired": {"__proto__": ["a"]}, "dependentSchemas": {"__proto__": {"required": ["b"]}}}';
    expect(check(dependent, "{}")).toEqual([]);
    expect(check(dependent, '{"__proto__": 1, "a": 1, "b": 1}')).toEqual([]);
    expect(check(dependent, '{"__proto__": 1}')).toEqual([
      expect.stringMatching(/^: must have property a when property __proto__ is present/),
      expect.stringMatching(/^: must have required property 'b'/),
    ]);
    const forms = [
      ['{"__proto__": ["a"]}', /^: must have property a when property __proto__ is present/],
      ['{"__proto__": {"required": ["a"]}}', /^: must have required property 'a'/],
    ] as const;
    for (const [dependencies, problem] of forms) {
      const draft07 = `{"$schema": "http://json-schema.org/draft-07/schema#", "dependencies": ${dependencies}}`;
      expect(check(draft07, "{}")).toEqual([]);
      expect(check(draft07, '{"__proto__": 1, "a": 1}')).toEqual([]);
      expect(check(draft07, '{"__proto__": 1}')).toEqual([expect.stringMatching(problem)]);
    }
  });

  it("unevaluatedProperties, patternProperties matching __proto__ too, and a $ref to the property's subschema", () => {
    const unevaluated = '{"properties": {"__proto__": {"type": "string"}}, "unevaluatedProperties": false}';
    expect(check(unevaluated, '{"__proto__": "x"}')).toEqual([]);
    expect(check(unevaluated, '{"__proto__": 1}')).toEqual([expect.stringMatching(/^__proto__: must be string/)]);
    expect(check(unevaluated, '{"other": 1}')).toEqual([expect.stringMatching(/must NOT have unevaluated/)]);
    // Both the property's and the pattern's subschema apply, as for any other name.
    const both =
      '{"properties": {"__proto__": {"type": "string"}}, "patternProperties": {"^__proto__$": {"minLength": 3}}}';
    expect(check(both, '{"__proto__": "abc"}')).toEqual([]);
    expect(check(both, '{"__proto__": "ab"}')).toEqual([
      expect.stringMatching(/^__proto__: must NOT have fewer than 3/),
    ]);
    expect(check(both, '{"__proto__": 5}')).toEqual([expect.stringMatching(/^__proto__: must be string/)]);
    const ref = '{"properties": {"__proto__": {"type": "string"}, "copy": {"$ref": "#/properties/__proto__"}}}';
    expect(check(ref, '{"copy": "x", "__proto__": "y"}')).toEqual([]);
    expect(check(ref, '{"copy": 1}')).toEqual([expect.stringMatching(/^copy: must be string/)]);
  });

  it("nested in $defs, items and anyOf", () => {
    const schema =
      '{"$defs": {"p": {"type": "object", "properties": {"__proto__": {"const": 1}}, "required": ["__proto__"]}},' +
      ' "type": "array", "items": {"anyOf": [{"$ref": "#/$defs/p"}, {"type": "null"}]}}';
    expect(check(schema, '[null, {"__proto__": 1}]')).toEqual([]);
    expect(check(schema, '[{"__proto__": 2}]').join("\n")).toMatch(/^0\/__proto__: must be equal to constant/m);
    expect(check(schema, "[{}]").join("\n")).toMatch(/^0: must have required property '__proto__'/m);
  });

  it("leaves the caller's schema untouched", () => {
    const text = '{"properties": {"__proto__": {"type": "string"}}, "dependencies": {"__proto__": ["a"]}, "allOf": []}';
    const schema = JSON.parse(text) as Record<string, unknown>;
    const properties = schema["properties"];
    const validator = z.unknown().superRefine(jsonSchemaCheck(schema));
    expect(validator.safeParse(JSON.parse('{"__proto__": 1, "a": 1}')).success).toBe(false);
    expect(JSON.stringify(schema)).toBe(JSON.stringify(JSON.parse(text)));
    expect(schema["properties"]).toBe(properties);
    expect(Object.keys(schema)).toEqual(["properties", "dependencies", "allOf"]);
  });
});

/**
 * Differential: ajv (compiled code; the check's previous engine, kept as the oracle) and `jsonSchemaCheck` on the
 * keywords zod cannot express. Both must accept and reject the same values, and report the same problems (path and
 * wording; the schema location after the message is left out).
 */
describe("jsonSchemaCheck agrees with ajv", () => {
  const ajv2020 = new Ajv2020({ strict: false, allErrors: true, ownProperties: true });
  const ajv07 = new Ajv({ strict: false, allErrors: true, ownProperties: true });
  addFormats(ajv2020);
  addFormats(ajv07);

  /** `path: message` of each problem ajv reports, without the schema location; [] when valid. */
  function ajvProblems(schema: Record<string, unknown>, data: unknown): string[] {
    const draft07 = typeof schema["$schema"] === "string" && schema["$schema"].includes("draft-07");
    const validate = (draft07 ? ajv07 : ajv2020).compile(schema);
    if (validate(data)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath.split("/").slice(1).join("/")}: ${e.message ?? ""}`);
  }
  const ours = (schema: Record<string, unknown>, data: unknown) =>
    check(json(schema), json(data)).map((problem) => problem.replace(/ \(#[^)]*\)$/, ""));

  const CASES: [string, Record<string, unknown>, unknown[]][] = [
    ["format", { type: "string", format: "email" }, ["a@example.com", "nope", 5]],
    [
      "date-time, uri, uuid, ipv4",
      {
        type: "object",
        properties: {
          when: { type: "string", format: "date-time" },
          link: { type: "string", format: "uri" },
          id: { type: "string", format: "uuid" },
          ip: { type: "string", format: "ipv4" },
        },
      },
      [
        {
          when: "2026-01-02T03:04:05Z",
          link: "https://x.test/a",
          id: "123e4567-e89b-12d3-a456-426614174000",
          ip: "10.0.0.1",
        },
        { when: "yesterday", link: "not a uri", id: "123", ip: "300.1.1.1" },
      ],
    ],
    [
      "minLength/maxLength in code points",
      { type: "string", minLength: 2, maxLength: 3 },
      ["😀", "😀😀", "abcd", "ab"],
    ],
    ["pattern", { type: "string", pattern: "^[a-z]+-\\d+$" }, ["ab-1", "AB-1", ""]],
    [
      "multipleOf and bounds",
      { type: "number", multipleOf: 0.5, minimum: 1, exclusiveMaximum: 10 },
      [1.5, 0.5, 10, 2.2],
    ],
    ["oneOf exclusivity", { oneOf: [{ type: "integer" }, { minimum: 2 }] }, [1, 2.5, 3]],
    [
      "if/then/else",
      {
        type: "object",
        if: { properties: { kind: { const: "a" } }, required: ["kind"] },
        then: { required: ["a"] },
        else: { required: ["b"] },
      },
      [{ kind: "a", a: 1 }, { kind: "a" }, { kind: "z" }, { b: 1 }],
    ],
    ["not and enum", { not: { enum: ["x", "y"] } }, ["x", "z"]],
    [
      "patternProperties and additionalProperties",
      {
        type: "object",
        patternProperties: { "^n_": { type: "number" } },
        additionalProperties: false,
      },
      [{ n_a: 1 }, { n_a: "1" }, { other: 1 }],
    ],
    [
      "uniqueItems, minItems, contains",
      { type: "array", uniqueItems: true, minItems: 2, contains: { const: 1 } },
      [[1, 2], [2, 2], [1]],
    ],
    ["dependentRequired", { type: "object", dependentRequired: { a: ["b"] } }, [{ a: 1, b: 1 }, { a: 1 }, { b: 1 }]],
    [
      "$ref into $defs, nested path",
      {
        type: "object",
        properties: { list: { type: "array", items: { $ref: "#/$defs/item" } } },
        $defs: { item: { type: "object", properties: { at: { type: "string", format: "date" } }, required: ["at"] } },
      },
      [{ list: [{ at: "2026-01-01" }] }, { list: [{ at: "01/01/2026" }, {}] }],
    ],
    [
      "draft-07 tuple items and additionalItems",
      {
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "array",
        items: [{ type: "string" }, { type: "integer" }],
        additionalItems: false,
      },
      [
        ["a", 1],
        ["a", "b"],
      ],
    ],
    ["const and type lists", { type: ["string", "null"], const: "on" }, ["on", null, "off", 1]],
  ];

  it.each(CASES)("%s", (_, schema, values) => {
    for (const value of values) {
      // ajv also lists why each item failed a `contains` it needs only one item to pass; those are left out.
      const expected = ajvProblems(schema, value).filter(
        (problem) => !/^\d+: /.test(problem) || !("contains" in schema),
      );
      expect(ours(schema, value).sort(), json(value)).toEqual(expected.sort());
    }
  });

  it("propertyNames: the same verdict; a bad name's problem is reported at that name, ajv reports it on the object", () => {
    const schema = { type: "object", propertyNames: { maxLength: 3 } };
    expect(ajvProblems(schema, { abc: 1 })).toEqual([]);
    expect(ours(schema, { abc: 1 })).toEqual([]);
    expect(ajvProblems(schema, { long_name: 1 }).sort()).toEqual([
      ": must NOT have more than 3 characters",
      ": property name must be valid",
    ]);
    expect(ours(schema, { long_name: 1 }).sort()).toEqual([
      ": property name must be valid",
      "long_name: must NOT have more than 3 characters",
    ]);
  });
});

describe("jsonSchemaCheck never throws", () => {
  it("a schema the checker cannot evaluate fails the value with a problem, not an exception", () => {
    const badPattern = json({ type: "object", properties: { code: { type: "string", pattern: "(" } } });
    expect(check(badPattern, '{"code": "x"}')).toEqual([
      expect.stringMatching(/^: could not be checked: .*regular expression/i),
    ]);
    const missingRef = json({ properties: { a: { $ref: "#/$defs/missing" } } });
    expect(check(missingRef, '{"a": 1}')).toEqual([expect.stringMatching(/^: could not be checked: .*missing/)]);
  });

  it("a property name that is not well-formed UTF-16 is refused with a message saying so, at its object", () => {
    // A lone surrogate, as JSON.parse produces from "\ud800" (I-JSON forbids it).
    const schema = json({ type: "object", additionalProperties: { type: "string" } });
    expect(check(schema, '{"\\ud800": "x"}')).toEqual([": property names must be well-formed Unicode"]);
    expect(check(json({}), '{"a": [{"\\udc00": "x"}]}')).toEqual(["a/0: property names must be well-formed Unicode"]);
    // Paired surrogates (an emoji) are fine in names, and lone ones in values.
    expect(check(schema, '{"\\ud83d\\ude00": "\\ud800"}')).toEqual([]);
  });
});
