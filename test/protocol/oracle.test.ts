/**
 * Oracle for every revision, including those without examples: for every declaration, synthesized values (all
 * properties / required only; each member of a top-level union) and the negative variants derived from them must get
 * the same verdict from the generated zod schema and from ajv on the spec's schema.json. The 2026-07-28 examples are
 * covered in examples.test.ts.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import { Ajv } from "ajv";
import addFormatsModule from "ajv-formats";
import type { z } from "zod";
import { revisions } from "../../runtime/generated/protocol/revisions.ts";
import { negativeVariants, type Fixture } from "./fixtures.ts";
import { RELEASED, specFile, specModel } from "./spec.ts";
import { synthesize, unionMembers } from "./synthesize.ts";

const addFormats = addFormatsModule.default;

/**
 * Values the TypeScript source (and so zod) accepts but schema.json rejects, with the reason. Must stay exact: an
 * entry that stops disagreeing fails the test too.
 */
const SCHEMA_JSON_QUIRKS: Record<string, string> = {
  "2026-07-28 JSONValue[3]/full": "dropped-null: the JSON generator drops `null` from the JSONValue union",
  "2026-07-28 JSONValue[3]/minimal": "dropped-null: the JSON generator drops `null` from the JSONValue union",
};

describe.each(RELEASED)("oracle on synthesized values of %s", (revision) => {
  const model = specModel(revision);
  const json = JSON.parse(readFileSync(specFile(revision, "schema.json"), "utf8")) as { $defs?: object };
  const draft2020 = json.$defs !== undefined;
  const ajv = draft2020 ? new Ajv2020({ strict: false, allErrors: true }) : new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(json, "mcp");
  const ajvAccepts = (f: Fixture) =>
    ajv.getSchema(`mcp#/${draft2020 ? "$defs" : "definitions"}/${f.type}`)!(f.value) === true;
  const schemas = revisions[revision] as unknown as Record<string, z.ZodType>;
  const zodAccepts = (f: Fixture) => schemas[`${f.type}Schema`]!.safeParse(f.value).success;

  const positives: Fixture[] = model.types.flatMap((decl) =>
    unionMembers({ kind: "ref", name: decl.name }, model).flatMap((member, i) =>
      [true, false].map((full) => ({
        id: `${decl.name}[${i}]${full ? "/full" : "/minimal"}`,
        type: decl.name,
        value: synthesize(member, model, { full }),
      })),
    ),
  );
  const negatives = positives.flatMap((f) => negativeVariants(f, model));

  it("schema.json has a definition for every generated type", () => {
    for (const decl of model.types)
      expect(ajv.getSchema(`mcp#/${draft2020 ? "$defs" : "definitions"}/${decl.name}`), decl.name).toBeDefined();
  });

  it("both accept every synthesized value", () => {
    expect(positives.length).toBeGreaterThan(model.types.length * 2 - 1);
    expect(positives.filter((f) => !zodAccepts(f)).map((f) => f.id)).toEqual([]);
    const quirks = Object.keys(SCHEMA_JSON_QUIRKS).filter((key) => key.startsWith(`${revision} `));
    expect(positives.filter((f) => !ajvAccepts(f)).map((f) => `${revision} ${f.id}`)).toEqual(quirks);
  });

  it("zod rejects every derived negative variant, and ajv agrees", () => {
    expect(negatives.length).toBeGreaterThan(model.types.length);
    expect(negatives.filter(zodAccepts).map((f) => f.id)).toEqual([]);
    expect(negatives.filter(ajvAccepts).map((f) => f.id)).toEqual([]);
  });
});
