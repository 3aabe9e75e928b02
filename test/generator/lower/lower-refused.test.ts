/**
 * Every construct the schema reader (generator/lower/types.ts, declarations.ts) refuses, each with the file:line a
 * user needs to find it. Oracle: TypeScript's meaning of each snippet and the messages' own wording; every case is a
 * small inline schema. What the reader accepts: lower-syntax.test.ts; syntax errors: schema-syntax-errors.test.ts.
 */
import { describe, expect, it } from "vitest";
import { lowerSchema } from "../../../generator/lower/schema.ts";

const lower = (text: string) => lowerSchema({ text, displayPath: "in/schema.ts", revision: "test" });

describe("refused input, at its file:line", () => {
  const cases: [string, string, string][] = [
    ["not exported", "\ninterface A { a: string }", "in/schema.ts:2: declaration is not exported"],
    ["constant not exported", "\nconst X = 1;", "in/schema.ts:2: constant is not exported"],
    [
      "unary plus constant",
      "\nexport const X = +1;",
      "in/schema.ts:2: constant X must be initialised with a plain literal",
    ],
    [
      "typed constant",
      "\nexport const X: number = 1;",
      "in/schema.ts:2: constant X must be initialised with a plain literal",
    ],
    [
      "constant without a value",
      "\nexport let X;",
      "in/schema.ts:2: constant X must be initialised with a plain literal",
    ],
    [
      "negated non-number",
      "\nexport const X = -true;",
      "in/schema.ts:2: constant X must be initialised with a plain literal",
    ],
    ["duplicate alias", "export type A = string;\nexport type A = number;", "in/schema.ts:2: duplicate type alias A"],
    [
      "alias after interface",
      "export interface A { a: string }\nexport type A = number;",
      "in/schema.ts:2: duplicate type alias A",
    ],
    [
      "interface after alias",
      "export type A = string;\nexport interface A { a: string }",
      "in/schema.ts:2: duplicate declaration A",
    ],
    [
      "circular heritage",
      "\nexport interface A extends B { a: string }\nexport interface B extends A { b: string }",
      "in/schema.ts:2: circular heritage through A",
    ],
    [
      "Omit of a non-literal key",
      "export interface A { a: string }\nexport interface B extends Omit<A, string> {}",
      "in/schema.ts:2: Omit<> keys must be string literals",
    ],
    [
      "Omit of a number key",
      "export interface A { a: string }\nexport interface B extends Omit<A, 1> {}",
      "in/schema.ts:2: Omit<> keys must be string literals",
    ],
    [
      "Omit of an inline base",
      'export interface A { a: string }\nexport interface B extends Omit<{ a: string }, "a"> {}',
      "in/schema.ts:2: Omit<> needs a named base",
    ],
    [
      "Omit with one argument",
      "export interface A { a: string }\nexport interface B extends Omit<A> {}",
      "in/schema.ts:2: unsupported heritage `Omit<A>`",
    ],
    [
      "Pick",
      'export interface A { a: string }\nexport interface B extends Pick<A, "a"> {}',
      'in/schema.ts:2: unsupported heritage `Pick<A, "a">`',
    ],
    [
      "extending a non-object alias",
      "export type S = string;\nexport interface B extends S {}",
      "in/schema.ts:2: cannot extend S: not an object type declared in this file",
    ],
    [
      "extending an alias of a non-object alias",
      "export type S = string;\nexport type T = S;\n\nexport interface B extends T {}",
      "in/schema.ts:2: cannot extend S: not an object type declared in this file",
    ],
    [
      "extending an undeclared name",
      "\nexport interface B extends X {}",
      "in/schema.ts:2: cannot extend X: not an object type declared in this file",
    ],
    [
      "two index signatures",
      "export interface A {\n  [k: string]: string;\n  [j: string]: string;\n}",
      "in/schema.ts:3: unsupported second index signature: `[j: string]: string;`",
    ],
    [
      "a number index",
      "export interface A {\n  [k: number]: string;\n}",
      "in/schema.ts:2: unsupported index signature with a non-string key: `[k: number]: string;`",
    ],
    [
      "a number property name",
      "export interface A {\n  1: string;\n}",
      "in/schema.ts:2: unsupported property name: `1: string;`",
    ],
    [
      "a property without a type",
      "export interface A {\n  a;\n}",
      "in/schema.ts:2: unsupported property without a type: `a;`",
    ],
    ["a bigint literal", "export interface A {\n  a: 1n;\n}", "in/schema.ts:2: unsupported literal type: `1n`"],
    [
      "a negative bigint literal",
      "export interface A {\n  a: -1n;\n}",
      "in/schema.ts:2: unsupported literal type: `-1n`",
    ],
    ["Record of one", "export type R = Record<string>;", "in/schema.ts:1: unsupported generic type: `Record<string>`"],
    [
      "a rest element that is no array",
      "export type T = [\n  string,\n  ...Array<string>,\n];",
      "in/schema.ts:3: unsupported tuple rest element: `...Array<string>`",
    ],
    [
      "a named tuple element",
      "export type T = [\n  a: string,\n];",
      "in/schema.ts:2: unsupported named or optional tuple element: `a: string`",
    ],
    [
      "an optional tuple element",
      "export type T = [string, number?];",
      "in/schema.ts:1: unsupported named or optional tuple element: `number?`",
    ],
    [
      "Record with number keys",
      "export type R = Record<number, string>;",
      "in/schema.ts:1: unsupported generic type: `Record<number, string>`",
    ],
    [
      "Array of two",
      "export type R = Array<string, number>;",
      "in/schema.ts:1: unsupported generic type: `Array<string, number>`",
    ],
    [
      "a template literal type",
      "export type T = `a${string}`;",
      // The construct's text is quoted in backticks; its own backticks come first and last.
      "in/schema.ts:1: unsupported type construct: ``a${string}``",
    ],
  ];
  for (const [name, text, message] of cases) {
    it(name, () => {
      let thrown: unknown;
      try {
        lower(text);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(Error);
      expect((thrown as Error).message).toBe(message);
    });
  }
});
