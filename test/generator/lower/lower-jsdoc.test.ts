/**
 * JSDoc as the IR carries it (generator/lower/jsdoc.ts) and `@TJS-type` (generator/lower/types.ts), in the cases the
 * older tests leave open. Oracle: the modules' headers — JSDoc text normalised to LF without trailing blanks, every
 * tag kept in the docs in order, constraint tags also read as constraints, `@TJS-type` only refining a `number`.
 * Equivalent mutants left alive by these tests: docs/mutation.md.
 */
import { describe, expect, it } from "vitest";
import type { IrModel, IrProp } from "../../../generator/ir/model.ts";
import { lowerSchema } from "../../../generator/lower/schema.ts";

const lower = (text: string): IrModel => lowerSchema({ text, displayPath: "in/schema.ts", revision: "test" });
const propsOf = (body: string): readonly IrProp[] => {
  const type = lower(`export interface A {\n${body}\n}`).types[0]!.type;
  if (type.kind !== "object") throw new Error("A is not an object");
  return type.props;
};

describe("constraints and docs of properties", () => {
  it("@pattern and @format are read as text, @nullable as a flag, and all stay tags", () => {
    const [p] = propsOf(
      "  /**\n   * Code.\n   * @pattern ^[a-z]+$\n   * @format hostname\n   * @nullable\n   */\n  p: string | null;",
    );
    expect(p).toEqual({
      name: "p",
      optional: false,
      type: {
        kind: "union",
        items: [
          { kind: "primitive", name: "string" },
          { kind: "primitive", name: "null" },
        ],
      },
      doc: {
        text: "Code.",
        tags: [
          { name: "pattern", text: "^[a-z]+$" },
          { name: "format", text: "hostname" },
          { name: "nullable", text: "" },
        ],
      },
      constraints: { pattern: "^[a-z]+$", format: "hostname", nullable: true },
    });
  });

  it("every numeric tag becomes a number constraint, negative and fractional ones too", () => {
    const [n, s, l] = propsOf(`  /** @minimum -1.5 @maximum 2e3 */
  n: number;
  /** @minLength 0 @maxLength 9 */
  s: string;
  /** @minItems 1 @maxItems 3 */
  l: string[];`);
    expect([n!.constraints, s!.constraints, l!.constraints]).toEqual([
      { minimum: -1.5, maximum: 2000 },
      { minLength: 0, maxLength: 9 },
      { minItems: 1, maxItems: 3 },
    ]);
  });

  it("a tag that is no constraint adds no constraints; a tag's text is normalised like the description", () => {
    const [p] = propsOf("  /**\r\n   * @example first  \r\n   * second\r\n   */\r\n  p: string;");
    expect(p).toEqual({
      name: "p",
      optional: false,
      type: { kind: "primitive", name: "string" },
      doc: { text: "", tags: [{ name: "example", text: "first\nsecond" }] },
    });
    expect(p).not.toHaveProperty("constraints");
  });

  it("a multi-line @deprecated reason, and docs on a type alias", () => {
    const model = lower("/**\n * Old.\n * @deprecated Use B  \n * instead.\n */\nexport type A = string;");
    expect(model.types[0]!.doc).toEqual({ text: "Old.", deprecated: "Use B\ninstead." });
  });
});

describe("declaration docs", () => {
  it("an empty JSDoc block documents nothing; a doc without @deprecated has no deprecated key at all", () => {
    const model = lower("/** */\nexport interface A { a: string }\n/** Text. */\nexport interface B { b: string }");
    expect(model.types[0]).not.toHaveProperty("doc");
    // exactOptionalPropertyTypes: absent, not undefined.
    expect(model.types[1]!.doc).toStrictEqual({ text: "Text." });
  });

  it("old Mac line endings (a lone CR) leave no CR in the docs", () => {
    const model = lower("/**\r * First.\r * Second.\r */\rexport interface A { a: string }");
    // TypeScript keeps the ` * ` margin after a lone CR; what matters here is that the line break is an LF.
    expect(model.types[0]!.doc?.text).toMatch(/^First\.\n/);
    expect(model.types[0]!.doc?.text).not.toContain("\r");
  });
});

describe("@TJS-type", () => {
  it("refines the number members of a union and keeps the tag in the docs", () => {
    const [p] = propsOf("  /** @TJS-type integer */\n  p: string | number;");
    expect(p).toEqual({
      name: "p",
      optional: false,
      type: {
        kind: "union",
        items: [
          { kind: "primitive", name: "string" },
          { kind: "primitive", name: "integer" },
        ],
      },
      doc: { text: "", tags: [{ name: "TJS-type", text: "integer" }] },
    });
  });

  it("refuses any other JSON type, and a union or array without a number, at the property's line", () => {
    const cases: [string, string][] = [
      ["/** @TJS-type string */ p: number;", "@TJS-type string does not fit this property's TypeScript type"],
      ["/** @TJS-type integer */ p: number[];", "@TJS-type integer does not fit this property's TypeScript type"],
      ["/** @TJS-type number */ p: string | boolean;", "@TJS-type number does not fit this property's TypeScript type"],
    ];
    for (const [body, message] of cases) {
      expect(() => lower(`export interface A {\n  ${body}\n}`), body).toThrow(`in/schema.ts:2: ${message}`);
    }
  });
});
