/**
 * Imports in a schema (generator/lower/imports.ts), beyond test/generator/lower/extension-imports.test.ts: an alias renames
 * every reference in every kind of type, pulled declarations keep the imported module's order and only what is
 * needed, and each import the reader cannot follow fails at the line of the name or import at fault. In-memory
 * modules; paths resolve like relative ES module specifiers.
 * Equivalent mutants left alive by these tests: docs/mutation.md.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { IrModel } from "../../../generator/ir/model.ts";
import { lowerSchema } from "../../../generator/lower/schema.ts";

function lower(schema: string, modules: Record<string, string>): IrModel {
  return lowerSchema({
    text: schema,
    displayPath: "ext/schema.ts",
    revision: "ext",
    readImport: (specifier, importer) => {
      const file = path.posix.join(path.posix.dirname(importer), specifier.replace(/\.js$/, ".ts"));
      const text = modules[file];
      if (text === undefined) throw `no module ${file}`; // a non-Error throw, as a user's reader might do
      return { text, displayPath: file };
    },
  });
}
const errorOf = (schema: string, modules: Record<string, string>): string => {
  try {
    lower(schema, modules);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("expected lowering to fail");
};

const BASE = `export interface Error { code: number }
export interface Unrelated { u: string }
export interface Holder extends Error {
  list: Error[];
  pair: [Error, ...Error[]];
  map: { [k: string]: Error };
  either: Error | string;
  both: Error & { x: string };
}
export interface Last { h: Holder }
`;
const ref = (name: string) => ({ kind: "ref", name }) as const;

describe("pulled declarations", () => {
  it("rename an aliased import in arrays, tuples, object props and index, unions, intersections and extends", () => {
    const model = lower(`import type { Error as RpcError, Holder } from "../base/schema.js";\n`, {
      "base/schema.ts": BASE,
    });
    expect(model.types.map((t) => t.name)).toEqual(["RpcError", "Holder"]);
    const holder = model.types.find((t) => t.name === "Holder")!;
    expect(holder.extends).toEqual(["RpcError"]);
    expect(holder.location).toEqual({ file: "base/schema.ts", line: 3 });
    expect(holder.type).toEqual({
      kind: "object",
      props: [
        { name: "code", optional: false, type: { kind: "primitive", name: "number" } },
        { name: "list", optional: false, type: { kind: "array", element: ref("RpcError") } },
        { name: "pair", optional: false, type: { kind: "tuple", elements: [ref("RpcError")], rest: ref("RpcError") } },
        { name: "map", optional: false, type: { kind: "object", props: [], index: ref("RpcError") } },
        {
          name: "either",
          optional: false,
          type: { kind: "union", items: [ref("RpcError"), { kind: "primitive", name: "string" }] },
        },
        {
          name: "both",
          optional: false,
          type: {
            kind: "intersection",
            items: [
              ref("RpcError"),
              { kind: "object", props: [{ name: "x", optional: false, type: { kind: "primitive", name: "string" } }] },
            ],
          },
        },
      ],
    });
  });

  it("keep the imported module's source order and only what the imports reach", () => {
    const model = lower(`import type { Last } from "./base.js";\n`, { "ext/base.ts": BASE });
    expect(model.types.map((t) => t.name)).toEqual(["Error", "Holder", "Last"]);
  });

  it("an interface may extend an imported one, inheriting its properties and index signature", () => {
    const model = lower(
      `import type { Holder as H } from "./base.js";\nexport interface Mine extends H { mine: string }\n`,
      {
        "ext/base.ts": "export interface Holder { held: number; [k: string]: unknown }\n",
      },
    );
    const mine = model.types.find((t) => t.name === "Mine")!;
    expect(mine.extends).toEqual(["H"]);
    expect(mine.type).toEqual({
      kind: "object",
      props: [
        { name: "held", optional: false, type: { kind: "primitive", name: "number" } },
        { name: "mine", optional: false, type: { kind: "primitive", name: "string" } },
      ],
      index: { kind: "primitive", name: "unknown" },
    });
  });

  it("an interface may not extend an imported declaration that is no object type", () => {
    const schema = `import type { Name } from "./base.js";\n\nexport interface Mine extends Name { mine: string }\n`;
    expect(errorOf(schema, { "ext/base.ts": "export type Name = string;\n" })).toBe(
      "ext/schema.ts:3: cannot extend Name: not an object type declared in this file",
    );
  });

  it("declarations that reference each other are pulled once each", () => {
    const model = lower(`import type { Tree } from "./base.js";\n`, {
      "ext/base.ts": "export interface Tree { children: Forest }\nexport type Forest = Tree[];\n",
    });
    expect(model.types.map((t) => t.name)).toEqual(["Tree", "Forest"]);
  });

  it("one declaration reached through two imports of the same module is pulled once", () => {
    const model = lower(`import type { Error } from "./base.js";\nimport type { Holder } from "./base.js";\n`, {
      "ext/base.ts": BASE,
    });
    expect(model.types.map((t) => t.name)).toEqual(["Error", "Holder"]);
  });
});

describe("imports that cannot be followed", () => {
  it("one name imported under two local names, at the second name's line", () => {
    const schema = `import type {\n  Error,\n  Error as Failure,\n} from "./base.js";\n`;
    expect(errorOf(schema, { "ext/base.ts": BASE })).toBe(
      "ext/schema.ts:3: Error is imported twice, as Error and Failure",
    );
  });

  it("a name that two modules declare, at the second import", () => {
    const schema = `import type { Error } from "./base.js";\nimport type { Error } from "./other.js";\n`;
    expect(errorOf(schema, { "ext/base.ts": BASE, "ext/other.ts": "export interface Error { other: true }\n" })).toBe(
      "ext/schema.ts:2: Error is imported from two modules",
    );
  });

  it("an unknown name at its own line, a default import, a reader that throws something else than an Error", () => {
    expect(errorOf(`import type {\n  Error,\n  Nope,\n} from "./base.js";\n`, { "ext/base.ts": BASE })).toBe(
      "ext/schema.ts:3: ./base.js declares no exported type Nope",
    );
    expect(errorOf(`\nimport Base from "./base.js";\n`, { "ext/base.ts": BASE })).toBe(
      'ext/schema.ts:2: unsupported import form: import named declarations from "./base.js"',
    );
    expect(errorOf(`\nimport type { A } from "./gone.js";\n`, {})).toBe(
      'ext/schema.ts:2: cannot read the import "./gone.js": no module ext/gone.ts',
    );
  });

  it("a module importing itself, or a cycle through another module, at the import closing the cycle", () => {
    const self = `\nimport type { X } from "./schema.js";\nexport interface Y { a: string }\n`;
    expect(errorOf(self, { "ext/schema.ts": self })).toBe("ext/schema.ts:2: circular import of ext/schema.ts");
    const modules = {
      "ext/a.ts": `import type { B } from "./b.js";\nexport interface A { b: B }\n`,
      "ext/b.ts": `\nimport type { A } from "./a.js";\nexport interface B { a?: A }\n`,
    };
    expect(errorOf(`import type { A } from "./a.js";\n`, modules)).toBe("ext/b.ts:2: circular import of ext/a.ts");
  });
});
