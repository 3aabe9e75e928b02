/**
 * The 2026-07-28 examples against the generated zod schemas, negative variants derived from them, and an oracle:
 * ajv validating the spec's own schema.json must agree with zod on every fixture, except for the documented
 * schema.json quirks below.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { z } from "zod";
import * as schemas from "../../runtime/generated/protocol/2026-07-28/schemas.ts";
import { exampleFixtures, negativeVariants, type Fixture } from "./fixtures.ts";
import { specFile, specModel } from "./spec.ts";

const REVISION = "2026-07-28";
const model = specModel(REVISION);
const fixtures = exampleFixtures(REVISION);
const negatives = fixtures.flatMap((f) => negativeVariants(f, model));

const zodSchema = (type: string) => (schemas as unknown as Record<string, z.ZodType>)[`${type}Schema`];

// ajv-formats is CommonJS: under NodeNext its default export is `module.exports`, whose `default` is the plugin.
const addFormats = addFormatsModule.default;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(JSON.parse(readFileSync(specFile(REVISION, "schema.json"), "utf8")), "mcp");
const ajvAccepts = (f: Fixture): boolean => {
  const validate = ajv.getSchema(`mcp#/$defs/${f.type}`);
  if (!validate) throw new Error(`schema.json has no definition ${f.type}`);
  return validate(f.value) === true;
};

/**
 * Where schema.json and the TypeScript source disagree, the generator follows the TypeScript (spec-matrix §2.6):
 * - integer-vs-number: typescript-json-schema runs with `--defaultNumberType integer`, so a TS `number` without
 *   `@TJS-type number` becomes `"integer"` in the JSON; the TS (and zod) accept any number.
 * - dropped-null: the JSON generator runs without strictNullChecks and drops `null` from unions (only `@nullable`
 *   keeps it), e.g. `JSONValue` rejects `null` in schema.json but not in TS.
 * One deliberate leniency of ours:
 * - uri-whatwg: `@format uri` is checked with `z.url()` (the WHATWG URL parser: a scheme and a parseable URL), which
 *   accepts some strings RFC 3986 (ajv-formats) rejects, such as an unencoded space or non-ASCII letter in the path.
 *   Peers do send such URIs; rejecting a whole message for them would hurt interoperability.
 */
const QUIRK_FIXTURES: (Fixture & { quirk: "integer-vs-number" | "dropped-null" | "uri-whatwg" })[] = [
  {
    id: "quirk/fractional-total",
    quirk: "integer-vs-number",
    type: "CompleteResult",
    value: { resultType: "complete", completion: { values: [], total: 2.5 } },
  },
  { id: "quirk/fractional-ttl", quirk: "integer-vs-number", type: "DiscoverResult", value: undefined },
  {
    id: "quirk/null-in-json-object",
    quirk: "dropped-null",
    type: "ClientCapabilities",
    value: { extensions: { "com.example/x": { flag: null } } },
  },
  { id: "quirk/uri-with-space", quirk: "uri-whatwg", type: "Root", value: { uri: "file:///home/me/My Documents" } },
  { id: "quirk/uri-non-ascii", quirk: "uri-whatwg", type: "Root", value: { uri: "file:///home/me/résumé.txt" } },
];

describe(`examples of ${REVISION}`, () => {
  it("there are 129 example files in 88 type folders, each with a generated schema", () => {
    expect(fixtures.length).toBe(129);
    expect(new Set(fixtures.map((f) => f.type)).size).toBe(88);
    for (const f of fixtures) expect(zodSchema(f.type), f.type).toBeDefined();
  });

  it("every example parses with <Type>Schema", () => {
    const failures = fixtures.filter((f) => !zodSchema(f.type)!.safeParse(f.value).success).map((f) => f.id);
    expect(failures).toEqual([]);
  });

  it("parsing keeps unknown keys (objects stay open)", () => {
    const tool = fixtures.find((f) => f.type === "Tool")!;
    const parsed = zodSchema("Tool")!.parse({ ...(tool.value as object), "x-vendor": 1 }) as Record<string, unknown>;
    expect(parsed["x-vendor"]).toBe(1);
  });

  it("every kind of negative variant is derived, and every variant is rejected", () => {
    const kinds = new Set(negatives.map((n) => n.id.split("#")[1]!.split(":")[0]));
    expect([...kinds].sort()).toEqual(["format-uri", "jsonrpc", "method", "primitive", "required"]);
    expect(negatives.length).toBeGreaterThan(300);
    const accepted = negatives.filter((n) => zodSchema(n.type)!.safeParse(n.value).success).map((n) => n.id);
    expect(accepted).toEqual([]);
  });
});

describe(`oracle: zod agrees with schema.json (ajv) on ${REVISION}`, () => {
  it("on every example and negative variant", () => {
    const disagreements = [...fixtures, ...negatives]
      .filter((f) => zodSchema(f.type)!.safeParse(f.value).success !== ajvAccepts(f))
      .map((f) => f.id);
    expect(disagreements).toEqual([]);
  });

  it("except for the documented schema.json quirks, where zod follows the TypeScript source", () => {
    const discover = fixtures.find((f) => f.type === "DiscoverResult")!.value as { ttlMs: number };
    const quirks = QUIRK_FIXTURES.map((q) =>
      q.value === undefined ? { ...q, value: { ...discover, ttlMs: discover.ttlMs + 0.5 } } : q,
    );
    for (const q of quirks) {
      expect(zodSchema(q.type)!.safeParse(q.value).success, q.id).toBe(true);
      expect(ajvAccepts(q), q.id).toBe(false);
    }
  });
});
