/**
 * The TypeScript subset the reader (generator/lower/types.ts, declarations.ts) accepts and what each construct
 * becomes in the IR (what it refuses: lower-refused.test.ts). Oracle: TypeScript's meaning of each snippet; every
 * case is a small inline schema.
 * Equivalent mutants left alive by these tests: docs/mutation.md.
 */
import { describe, expect, it } from "vitest";
import type { IrModel, IrObjectType, IrType } from "../../../generator/ir/model.ts";
import { lowerSchema } from "../../../generator/lower/schema.ts";

const lower = (text: string): IrModel => lowerSchema({ text, displayPath: "in/schema.ts", revision: "test" });
const objectOf = (model: IrModel, name: string): IrObjectType => {
  const type = model.types.find((t) => t.name === name)?.type;
  if (type?.kind !== "object") throw new Error(`${name} is not an object`);
  return type;
};
/** The type of each property of `A` in a schema declaring just `interface A { <body> }`. */
const propTypes = (body: string): IrType[] =>
  objectOf(lower(`export interface A {\n${body}\n}`), "A").props.map((p) => p.type);
const str: IrType = { kind: "primitive", name: "string" };
const num: IrType = { kind: "primitive", name: "number" };

describe("accepted type syntax", () => {
  it("keywords: unknown and any are unknown, object, null, never as the empty union", () => {
    expect(propTypes("a: unknown; b: any; c: object; d: null; e: never; f: boolean")).toEqual([
      { kind: "primitive", name: "unknown" },
      { kind: "primitive", name: "unknown" },
      { kind: "primitive", name: "object" },
      { kind: "primitive", name: "null" },
      { kind: "union", items: [] },
      { kind: "primitive", name: "boolean" },
    ]);
  });

  it("literals: strings, numbers, negative numbers, true, false, null", () => {
    expect(propTypes(`a: "x"; b: 42; c: -1; d: true; e: false; f: string | null`)).toEqual([
      { kind: "literal", value: "x" },
      { kind: "literal", value: 42 },
      { kind: "literal", value: -1 },
      { kind: "literal", value: true },
      { kind: "literal", value: false },
      { kind: "union", items: [str, { kind: "primitive", name: "null" }] },
    ]);
  });

  it("arrays (both spellings, parenthesised elements), tuples with a rest element, Record, intersections", () => {
    expect(
      propTypes(
        "a: string[]; b: Array<number>; c: (string | number)[]; d: [string, number]; e: [string, ...number[]];\n" +
          "f: Record<string, number>; g: { x: string } & { y: number }",
      ),
    ).toEqual([
      { kind: "array", element: str },
      { kind: "array", element: num },
      { kind: "array", element: { kind: "union", items: [str, num] } },
      { kind: "tuple", elements: [str, num] },
      { kind: "tuple", elements: [str], rest: num },
      { kind: "object", props: [], index: num },
      {
        kind: "intersection",
        items: [
          { kind: "object", props: [{ name: "x", optional: false, type: str }] },
          { kind: "object", props: [{ name: "y", optional: false, type: num }] },
        ],
      },
    ]);
  });

  it("a union of string literals without string stays closed; with string it is open with hints", () => {
    expect(propTypes(`a: "x" | "y"; b: "x" | string | number`)).toEqual([
      {
        kind: "union",
        items: [
          { kind: "literal", value: "x" },
          { kind: "literal", value: "y" },
        ],
      },
      { kind: "union", items: [str, num], openLiterals: ["x"] },
    ]);
    // Numbers are not string hints: a union of string and a number literal stays as written.
    expect(propTypes("a: string | 1")).toEqual([{ kind: "union", items: [str, { kind: "literal", value: 1 }] }]);
    // Only `string` opens the union (not another primitive); a number literal stays a member of an open union.
    expect(propTypes(`a: "x" | number; b: "x" | 1 | string`)).toEqual([
      { kind: "union", items: [{ kind: "literal", value: "x" }, num] },
      { kind: "union", items: [{ kind: "literal", value: 1 }, str], openLiterals: ["x"] },
    ]);
  });

  it("quoted property names, optional properties and a string index signature", () => {
    const a = objectOf(lower(`export interface A { "x-y": string; z?: number; [key: string]: unknown }`), "A");
    expect(a).toEqual({
      kind: "object",
      props: [
        { name: "x-y", optional: false, type: str },
        { name: "z", optional: true, type: num },
      ],
      index: { kind: "primitive", name: "unknown" },
    });
  });

  it("constants: strings, template strings without substitutions, numbers, negatives, booleans", () => {
    const model = lower(
      'export const A = "a";\nexport const B = `b`;\nexport const C = 3;\nexport const D = -4;\n' +
        "export const E = true;\nexport const F = false;\n/** Doc of G. */\nexport const G = 1, H = 2;",
    );
    expect(model.constants).toEqual([
      { name: "A", value: "a" },
      { name: "B", value: "b" },
      { name: "C", value: 3 },
      { name: "D", value: -4 },
      { name: "E", value: true },
      { name: "F", value: false },
      { name: "G", value: 1, doc: { text: "Doc of G." } },
      { name: "H", value: 2, doc: { text: "Doc of G." } },
    ]);
  });
});

describe("heritage", () => {
  it("extends an alias of an alias of an object type, keeping a parent's index signature", () => {
    const model = lower(
      "export type O = { a: string; [k: string]: unknown };\nexport type P = O;\nexport interface B extends P { b: number }",
    );
    expect(objectOf(model, "B")).toEqual({
      kind: "object",
      props: [
        { name: "a", optional: false, type: str },
        { name: "b", optional: false, type: num },
      ],
      index: { kind: "primitive", name: "unknown" },
    });
    expect(model.types.find((t) => t.name === "B")?.extends).toEqual(["P"]);
  });

  it("a later parent's property wins and keeps the later position; the child's index replaces the parent's", () => {
    const model = lower(
      "export interface A { x: string; y: string; [k: string]: string }\nexport interface B { x: number }\n" +
        "export interface C extends A, B { [k: string]: number | string }",
    );
    expect(objectOf(model, "C")).toEqual({
      kind: "object",
      props: [
        { name: "y", optional: false, type: str },
        { name: "x", optional: false, type: num },
      ],
      index: { kind: "union", items: [num, str] },
    });
  });

  it("Omit of several keys; Omit is not kept as a plain-name parent", () => {
    const model = lower(
      'export interface A { a: string; b: string; c: string }\nexport interface B extends Omit<A, "a" | "c"> {}',
    );
    expect(objectOf(model, "B").props.map((p) => p.name)).toEqual(["b"]);
    expect(model.types.find((t) => t.name === "B")?.extends).toEqual([]);
  });

  it("a parent flattened once is reused unchanged by every child", () => {
    const model = lower(
      "export interface A { a: string }\nexport interface B extends A {}\nexport interface C extends A {}",
    );
    expect(objectOf(model, "B")).toEqual(objectOf(model, "A"));
    expect(objectOf(model, "C")).toEqual(objectOf(model, "A"));
  });

  it("declarations record their form and heritage; an index from an earlier parent survives a later one without", () => {
    const model = lower(
      "export interface A { [k: string]: string }\nexport interface B { b: string }\n" +
        "export interface C extends A, B {}\nexport type D = A;",
    );
    expect(model.types.map((t) => [t.name, t.form, t.extends])).toEqual([
      ["A", "interface", []],
      ["B", "interface", []],
      ["C", "interface", ["A", "B"]],
      ["D", "alias", []],
    ]);
    expect(objectOf(model, "C")).toEqual({
      kind: "object",
      props: [{ name: "b", optional: false, type: str }],
      index: str,
    });
  });

  it("Omit of a single key", () => {
    const model = lower('export interface A { a: string; b: string }\nexport interface B extends Omit<A, "a"> {}');
    expect(objectOf(model, "B").props.map((p) => p.name)).toEqual(["b"]);
  });

  it("merged interfaces: a parent named twice is one `extends` entry; a repeated property keeps its first form", () => {
    const model = lower(`export interface P { p: string }
export interface A extends P {
  /** First. */
  a: string;
}
export interface A extends P {
  /** Second. */
  a: string;
  b: number;
}`);
    const a = model.types.find((t) => t.name === "A")!;
    expect(a.extends).toEqual(["P"]);
    expect(a.type).toEqual({
      kind: "object",
      props: [
        { name: "p", optional: false, type: str },
        { name: "a", optional: false, type: str, doc: { text: "First." } },
        { name: "b", optional: false, type: num },
      ],
    });
  });
});
