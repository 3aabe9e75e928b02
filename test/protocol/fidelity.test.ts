/**
 * The fidelity files (test/protocol/fidelity/<rev>.ts, generated from the IR by `npm run generate`) are type-checked
 * by `tsc -p test/protocol/fidelity/tsconfig.json` in `npm test`; each function there compiles only if the generated
 * type, z.infer of its schema and the spec's type are mutually assignable. This test makes sure they cover every
 * declaration of every revision, less the listed exemptions.
 */
import { describe, expect, it } from "vitest";
import { FIDELITY_EXEMPTIONS } from "../../generator/emit/fidelity.ts";
import { RELEASED, specModel } from "./spec.ts";

describe.each(RELEASED)("fidelity checks of %s", (revision) => {
  it("cover every exported type of the schema", async () => {
    const file = (await import(`./fidelity/${revision}.ts`)) as { covered: readonly string[] } & Record<
      string,
      unknown
    >;
    const expected = specModel(revision)
      .types.map((t) => t.name)
      .filter((name) => FIDELITY_EXEMPTIONS[name] === undefined);
    expect(file.covered).toEqual(expected);
    for (const name of expected) expect(typeof file[name], name).toBe("function");
  });
});

it("exemptions are listed with a reason (currently none are needed)", () => {
  for (const [name, reason] of Object.entries(FIDELITY_EXEMPTIONS)) expect(reason.length, name).toBeGreaterThan(10);
  expect(Object.keys(FIDELITY_EXEMPTIONS)).toEqual([]);
});
