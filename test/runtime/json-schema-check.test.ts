/**
 * `jsonSchemaCheck` (ajv over the original JSON Schema) with property names that are Object.prototype members: only
 * the data's own properties count, and a `__proto__` property is checked like any other. Schemas and data are parsed
 * from JSON text, as they arrive at run time (an object literal would turn `__proto__` into a prototype).
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { jsonSchemaCheck } from "../../runtime/protocol/json-schema-check.ts";

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
    const dependent = '{"type": "object", "dependentRequired": {"__proto__": ["a"]}, "dependentSchemas": {"__proto__": {"required": ["b"]}}}';
    expect(check(dependent, "{}")).toEqual([]);
    expect(check(dependent, '{"__proto__": 1, "a": 1, "b": 1}')).toEqual([]);
    expect(check(dependent, '{"__proto__": 1}')).toEqual([
      expect.stringMatching(/^: must have property a when property __proto__ is present/),
      expect.stringMatching(/^: must have required property 'b'/),
    ]);
    for (const dependencies of ['{"__proto__": ["a"]}', '{"__proto__": {"required": ["a"]}}']) {
      const draft07 = `{"$schema": "http://json-schema.org/draft-07/schema#", "dependencies": ${dependencies}}`;
      expect(check(draft07, "{}")).toEqual([]);
      expect(check(draft07, '{"__proto__": 1, "a": 1}')).toEqual([]);
      // Restated as `if`/`then`, so ajv also reports the failed `then`.
      expect(check(draft07, '{"__proto__": 1}')).toContainEqual(expect.stringMatching(/required property 'a'/));
    }
  });

  it("unevaluatedProperties, patternProperties matching __proto__ too, and a $ref to the property's subschema", () => {
    const unevaluated = '{"properties": {"__proto__": {"type": "string"}}, "unevaluatedProperties": false}';
    expect(check(unevaluated, '{"__proto__": "x"}')).toEqual([]);
    expect(check(unevaluated, '{"__proto__": 1}')).toEqual([expect.stringMatching(/^__proto__: must be string/)]);
    expect(check(unevaluated, '{"other": 1}')).toEqual([expect.stringMatching(/must NOT have unevaluated/)]);
    // Both the property's and the pattern's subschema apply, as for any other name.
    const both = '{"properties": {"__proto__": {"type": "string"}}, "patternProperties": {"^__proto__$": {"minLength": 3}}}';
    expect(check(both, '{"__proto__": "abc"}')).toEqual([]);
    expect(check(both, '{"__proto__": "ab"}')).toEqual([expect.stringMatching(/^__proto__: must NOT have fewer than 3/)]);
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
