/**
 * The type and zod emitters on IR features MCP's schema.ts never uses but user manifests (JSON Schema) do: tuples,
 * closed objects, integers, string/number/array constraints, formats, declaration-level constraints, `nullable` on a
 * non-null type. Golden output in golden/ir-features/ (compiled by tsc), then the emitted validators are exercised.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { IrType, IrTypeDecl } from "../../../generator/ir/model.ts";
import { formatTypeScript } from "../../../generator/pipeline/format.ts";
import { emitSchemasModule, emitTypesModule } from "../../../generator/emit/protocol.ts";
import { createPrinter } from "../../../generator/emit/printer.ts";
import { packageRuntime } from "../../../generator/pipeline/protocol.ts";
import { createZodContext, emitZodExpression } from "../../../generator/emit/zod.ts";
import { emitTypeExpression } from "../../../generator/emit/ts-types.ts";
import { expectGoldenFile } from "../golden-file.ts";

const decls: IrTypeDecl[] = [
  {
    name: "Point",
    extends: [],
    type: {
      kind: "tuple",
      elements: [
        { kind: "primitive", name: "number" },
        { kind: "primitive", name: "number" },
      ],
    },
  },
  {
    name: "Command",
    extends: [],
    type: {
      kind: "tuple",
      elements: [{ kind: "primitive", name: "string" }],
      rest: { kind: "primitive", name: "boolean" },
    },
  },
  {
    name: "Slug",
    extends: [],
    type: { kind: "primitive", name: "string" },
    constraints: { pattern: "^[a-z][a-z0-9-]*$", minLength: 2, maxLength: 16 },
  },
  {
    name: "Order",
    extends: [],
    doc: { text: "A closed object: unknown keys are rejected." },
    type: {
      kind: "object",
      closed: true,
      props: [
        { name: "id", optional: false, type: { kind: "primitive", name: "integer" }, constraints: { minimum: 1 } },
        { name: "slug", optional: true, type: { kind: "ref", name: "Slug" } },
        {
          name: "amount",
          optional: false,
          type: { kind: "primitive", name: "number" },
          constraints: { exclusiveMinimum: 0, maximum: 1000, multipleOf: 0.5 },
        },
        {
          name: "points",
          optional: false,
          type: { kind: "array", element: { kind: "ref", name: "Point" }, constraints: { minItems: 1, maxItems: 3 } },
        },
        {
          name: "email",
          optional: true,
          type: { kind: "primitive", name: "string" },
          constraints: { format: "email" },
        },
        {
          name: "placedAt",
          optional: false,
          type: { kind: "primitive", name: "string" },
          constraints: { format: "date-time" },
        },
        { name: "note", optional: false, type: { kind: "primitive", name: "string" }, constraints: { nullable: true } },
        { name: "with space", optional: true, type: { kind: "literal", value: true } },
      ],
    },
  },
];

const goldenDir = path.join(import.meta.dirname, "../golden/ir-features");

describe("emitters on IR features outside the MCP schema", () => {
  it("types module matches the golden file", async () => {
    const text = await formatTypeScript(emitTypesModule(decls));
    await expectGoldenFile(text, path.join(goldenDir, "types.ts"));
  });

  it("schemas module matches the golden file", async () => {
    const runtime = packageRuntime();
    const text = await formatTypeScript(emitSchemasModule(decls, { runtime }));
    await expectGoldenFile(text, path.join(goldenDir, "schemas.ts"));
  });

  it("expressions are pure and reusable: same input, same text, in any order, inputs untouched, only zod imported", () => {
    const freeze = <T>(value: T): T => {
      if (typeof value === "object" && value !== null) for (const v of Object.values(value)) freeze(v);
      return Object.freeze(value);
    };
    const union: IrType = freeze({
      kind: "union",
      items: [
        { kind: "ref", name: "A" },
        { kind: "primitive", name: "null" },
      ],
    });
    const array: IrType = freeze({ kind: "array", element: { kind: "ref", name: "A" } });
    const literals: IrType = freeze({
      kind: "union",
      items: [
        { kind: "literal", value: "a" },
        { kind: "literal", value: "b" },
      ],
    });
    const context = () => {
      const printer = createPrinter({ runtime: () => "runtime", siblingExtension: ".js" });
      return { printer, ctx: createZodContext({ printer, ref: (name) => `schemas.${name}` }) };
    };
    expect(emitTypeExpression(union, { ref: (n) => `T.${n}` })).toBe("T.A | null");
    expect(emitTypeExpression(union, { ref: (n) => `T.${n}` })).toBe("T.A | null");
    const first = context();
    const forward = [emitZodExpression(array, first.ctx), emitZodExpression(literals, first.ctx)];
    const second = context();
    const backward = [emitZodExpression(literals, second.ctx), emitZodExpression(array, second.ctx)].reverse();
    expect(forward).toEqual(["z.array(schemas.A)", 'z.enum(["a", "b"])']);
    expect(backward).toEqual(forward);
    // Neither needs a runtime helper: the file they go into imports zod and nothing else.
    first.printer.print("body");
    expect(first.printer.render("")).toBe('import * as z from "zod/mini";\n\nbody\n');
  });

  it("the emitted validators enforce every constraint", async () => {
    const { OrderSchema, CommandSchema, SlugSchema } = await import("../golden/ir-features/schemas.ts");
    const valid = { id: 1, amount: 2.5, points: [[0, 1]], placedAt: "2026-01-02T03:04:05Z", note: null };
    expect(OrderSchema.safeParse(valid).success).toBe(true);
    expect(
      OrderSchema.safeParse({ ...valid, note: "text", slug: "ab", email: "a@example.com", "with space": true }).success,
    ).toBe(true);
    const invalid: Record<string, unknown>[] = [
      { ...valid, extra: 1 }, // closed
      { ...valid, id: 1.5 }, // integer
      { ...valid, id: 0 }, // minimum
      { ...valid, amount: 0 }, // exclusiveMinimum
      { ...valid, amount: 1000.5 }, // maximum
      { ...valid, amount: 0.3 }, // multipleOf
      { ...valid, points: [] }, // minItems
      {
        ...valid,
        points: [
          [0, 0],
          [0, 0],
          [0, 0],
          [0, 0],
        ],
      }, // maxItems
      { ...valid, points: [[0]] }, // tuple length
      { ...valid, email: "nope" }, // format email
      { ...valid, placedAt: "yesterday" }, // format date-time
      { ...valid, slug: "A" }, // pattern + minLength via a ref
      { ...valid, "with space": false }, // literal
    ];
    for (const value of invalid) expect(OrderSchema.safeParse(value).success, JSON.stringify(value)).toBe(false);
    // Optional keys run as `.optional()` (see generator/emit/zod.ts): an explicit `undefined`, which JSON cannot
    // carry and exactOptionalPropertyTypes rejects at compile time, is accepted; it still never becomes a value.
    const withUndefined = OrderSchema.safeParse({ ...valid, slug: undefined });
    expect(withUndefined.success).toBe(true);
    expect(withUndefined.data?.slug).toBeUndefined();
    expect(CommandSchema.safeParse(["run", true, false]).success).toBe(true);
    expect(CommandSchema.safeParse(["run", "x"]).success).toBe(false);
    expect(SlugSchema.safeParse("a".repeat(17)).success).toBe(false);
  });
});
