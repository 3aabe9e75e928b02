/**
 * JSDoc as the IR carries it (generator/lower/jsdoc.ts) and `@TJS-type` (generator/lower/types.ts), in the cases the
 * older tests leave open. Oracle: the modules' headers — JSDoc text normalised to LF without trailing blanks, every
 * tag kept in the docs in order, constraint tags also read as constraints, `@TJS-type` only refining a `number`.
 * Equivalent mutants left alive by these tests: docs/mutation.md.
 */
import { describe, expect, it } from "vitest";
import type { IrModel, IrProp, IrTypeDecl } from "../../../generator/ir/model.ts";
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

describe("JSDoc", () => {
  const lower = (text: string): IrModel => lowerSchema({ text, displayPath: "inline/schema.ts", revision: "test" });
  const thing = (model: IrModel): IrTypeDecl => model.types.find((t) => t.name === "Thing")!;

  it("normalises line endings and trailing blanks, and keeps every tag (constraints too) in the docs in order", () => {
    const model = lower(
      "/**\r\n * First line.   \r\n * Second line.\r\n *\r\n * @see [Docs](/docs#x) for more.  \r\n * @format uri\r\n */\r\nexport interface Thing { a: string }\r\n",
    );
    expect(thing(model).doc).toEqual({
      text: "First line.\nSecond line.",
      tags: [
        { name: "see", text: "[Docs](/docs#x) for more." },
        { name: "format", text: "uri" },
      ],
    });
  });

  it("documents a declaration that has only @deprecated (an empty reason), and none without JSDoc", () => {
    const model = lower(
      "/** @deprecated */\nexport interface Thing { a: string }\nexport interface Plain { b: string }\n",
    );
    expect(thing(model).doc).toEqual({ text: "", deprecated: "" });
    const plain = model.types.find((t) => t.name === "Plain")!;
    expect(plain).not.toHaveProperty("doc");
  });

  it("reads the JSDoc block closest to the declaration", () => {
    const model = lower("/** Far. */\n/** Near. */\nexport interface Thing { a: string }\n");
    expect(thing(model).doc).toEqual({ text: "Near." });
  });

  it("reads every numeric tag as a number", () => {
    const model = lower(`export interface Thing {
      /** @exclusiveMinimum 0 @exclusiveMaximum 10 @multipleOf 0.5 */
      n: number;
      /** @minLength 1 @maxLength 5 */
      s: string;
      /** @minItems 2 */
      l: string[];
    }\n`);
    const type = thing(model).type;
    expect(type.kind === "object" && type.props.map((p) => p.constraints)).toEqual([
      { exclusiveMinimum: 0, exclusiveMaximum: 10, multipleOf: 0.5 },
      { minLength: 1, maxLength: 5 },
      { minItems: 2 },
    ]);
  });

  it("rejects a numeric tag without a number, at the declaration's line", () => {
    expect(() => lower("export interface Thing {\n  /** @minimum abc */\n  n: number;\n}\n")).toThrow(
      /inline\/schema\.ts:\d+.*@minimum needs a number, got "abc"/,
    );
    expect(() => lower("export interface Thing {\n  /** @maxItems */\n  l: string[];\n}\n")).toThrow(
      '@maxItems needs a number, got ""',
    );
    expect(() => lower("export interface Thing {\n  /** @maximum Infinity */\n  n: number;\n}\n")).toThrow(
      '@maximum needs a number, got "Infinity"',
    );
  });
});
