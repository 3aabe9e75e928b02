/**
 * JSON Schema lowering's warnings (generator/manifest/lower-json-schema.ts): the exact widening warnings and the
 * path of the keyword each names, also inside nested subschemas, and draft detection ($ref's draft-07 rules). The
 * keywords themselves: lower-json-schema-keywords.test.ts. Oracle: JSON Schema 2020-12/draft-07 semantics as the
 * module's header states.
 */
import { describe, expect, it } from "vitest";
import { AT, lower, problem, rootType, S, U } from "./lowering.ts";

describe("widening: the warning text and the path of the keyword", () => {
  it("names the keyword that cannot be typed, at its own path", () => {
    const out = lower({ type: "object", not: { required: ["a"] } });
    expect(out.warnings).toEqual([
      { path: [...AT, "not"], message: "`not` cannot be typed; the type is wider, validation is kept" },
    ]);
    expect(out.enforcedByJsonSchema).toEqual(["not"]);
  });

  it("warns about `required` alone (no type, no properties) at the `required` path", () => {
    const out = lower({ anyOf: [{ required: ["a"] }] });
    expect(out.warnings).toEqual([
      {
        path: [...AT, "anyOf", 0, "required"],
        message: "`required` without `type`/`properties` is not typed; validation is kept",
      },
    ]);
    expect(rootType({ anyOf: [{ required: ["a"] }] })).toEqual(U);
  });

  it("warns about an object or array constant at the `const` path and types it unknown", () => {
    const out = lower({ type: "object", properties: { p: { const: { a: 1 } } } });
    expect(out.warnings).toEqual([
      { path: [...AT, "properties", "p", "const"], message: "an object or array constant is typed unknown" },
    ]);
    expect(out.enforcedByJsonSchema).toEqual(["const"]);
    expect(lower({ enum: ["a", [1]] }).warnings.map((w) => w.path)).toEqual([[...AT, "enum", 1]]);
  });

  it("warns about a tuple typed as an array at the array's path", () => {
    const out = lower({ type: "array", prefixItems: [{ type: "string" }], minItems: 2 });
    expect(out.warnings).toEqual([
      { path: [...AT], message: "this tuple is typed as an array of its item types; validation is kept" },
    ]);
  });

  it("ignores x- extension keys and annotations silently, and lists enforced keywords sorted and once", () => {
    const out = lower({
      type: "object",
      "x-vendor": 1,
      title: "T",
      properties: { a: { type: "string", format: "email", maxLength: 3 }, b: { type: "string", format: "uri" } },
      not: {},
    });
    expect(out.warnings.map((w) => w.path)).toEqual([[...AT, "not"]]);
    expect(out.enforcedByJsonSchema).toEqual(["format", "maxLength", "not"]);
  });
});

describe("draft detection", () => {
  const withRef = (dialect: string | undefined) => ({
    ...(dialect ? { $schema: dialect } : {}),
    type: "object",
    properties: { a: { $ref: "#/definitions/s", maxLength: 3, description: "kept" } },
    definitions: { s: { type: "string" } },
  });
  it("applies draft-07 $ref rules for draft-04, -06 and -07 only; annotations beside $ref are not reported", () => {
    for (const draft of ["04", "06", "07"]) {
      const out = lower(withRef(`http://json-schema.org/draft-${draft}/schema#`));
      expect(
        out.warnings.map((w) => w.message),
        draft,
      ).toEqual(["draft-07 ignores maxLength beside $ref"]);
    }
    for (const other of [
      "https://json-schema.org/draft/2020-12/schema",
      "https://json-schema.org/draft/2019-09/schema",
      undefined,
    ]) {
      expect(lower(withRef(other)).enforcedByJsonSchema, other).toEqual(["maxLength"]);
    }
  });
});

describe("paths of problems inside nested subschemas", () => {
  const typoPaths = (schema: unknown) => lower(schema).warnings.map((w) => w.path);
  it("reports a keyword inside additionalProperties, items, tuple rests and patternProperties at its own path", () => {
    expect(typoPaths({ type: "object", additionalProperties: { typo: 1 } })).toEqual([
      [...AT, "additionalProperties", "typo"],
    ]);
    expect(
      typoPaths({ type: "object", patternProperties: { "^x": { typo: 1 } }, additionalProperties: { typo: 1 } }),
    ).toEqual([
      [...AT, "patternProperties"],
      [...AT, "patternProperties", "^x", "typo"],
      [...AT, "additionalProperties", "typo"],
    ]);
    expect(typoPaths({ type: "array", items: { typo: 1 } })).toEqual([[...AT, "items", "typo"]]);
    expect(typoPaths({ type: "array", prefixItems: [{ typo: 1 }], items: { typo: 2 } })).toEqual([
      [...AT, "prefixItems", 0, "typo"],
      [...AT, "items", "typo"],
    ]);
    expect(typoPaths({ type: "array", items: [{ typo: 1 }], additionalItems: { typo: 2 } })).toEqual([
      [...AT, "items", 0, "typo"],
      [...AT, "additionalItems", "typo"],
    ]);
  });

  it("reports a bad draft-07 $ref at the $ref's path", () => {
    expect(
      problem({
        $schema: "http://json-schema.org/draft-07/schema#",
        type: "object",
        properties: { a: { $ref: "#/definitions/none" } },
      }),
    ).toEqual({
      path: [...AT, "properties", "a", "$ref"],
      message: 'unresolvable $ref "#/definitions/none"',
    });
  });

  it("declares a non-$defs target once and refers to it at every use (its own place included)", () => {
    const c = { $ref: "#/properties/c" };
    const out = lower({ type: "object", properties: { a: c, b: c, c: { type: "string" } } });
    const [root, ref] = [out.decls[0]!.type, { kind: "ref", name: "RootPropertiesC" }];
    expect(root.kind === "object" && root.props.map((p) => p.type)).toEqual([ref, ref, ref]);
    expect(out.decls.slice(1)).toEqual([{ name: "RootPropertiesC", type: S, extends: [] }]);
  });
});
