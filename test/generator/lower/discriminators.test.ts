/**
 * When the reader marks a union as discriminated (generator/lower/discriminators.ts): a discriminator is a required
 * literal property, distinct in every member, and the first that qualifies wins; nothing else changes. Oracle: that
 * rule, from the module's header. Equivalent mutants left alive by these tests: docs/mutation.md.
 */
import { describe, expect, it } from "vitest";
import type { IrObjectType, IrProp, IrType, IrTypeDecl } from "../../../generator/ir/model.ts";
import { markDiscriminators } from "../../../generator/lower/discriminators.ts";

const literal = (value: string): IrType => ({ kind: "literal", value });
const prop = (name: string, type: IrType, optional = false): IrProp => ({ name, type, optional });
const object = (name: string, ...props: IrProp[]): IrTypeDecl => ({
  name,
  type: { kind: "object", props } satisfies IrObjectType,
  extends: [],
});
const unionOf = (name: string, ...members: string[]): IrTypeDecl => ({
  name,
  type: { kind: "union", items: members.map((m): IrType => ({ kind: "ref", name: m })) },
  extends: [],
});
const discriminatorOf = (decls: IrTypeDecl[], name = "U"): string | undefined => {
  const type = markDiscriminators(decls).find((d) => d.name === name)!.type;
  return type.kind === "union" ? type.discriminator : undefined;
};

describe("discriminated unions", () => {
  const text = object("Text", prop("type", literal("text")), prop("text", { kind: "primitive", name: "string" }));
  const image = object("Image", prop("type", literal("image")), prop("data", { kind: "primitive", name: "string" }));

  it("marks a union of named objects with a required, distinct literal property", () => {
    expect(discriminatorOf([text, image, unionOf("U", "Text", "Image")])).toBe("type");
  });

  it("picks the first property that qualifies, skipping one whose values repeat", () => {
    const a = object("A", prop("group", literal("same")), prop("kind", literal("a")));
    const b = object("B", prop("group", literal("same")), prop("kind", literal("b")));
    expect(discriminatorOf([a, b, unionOf("U", "A", "B")])).toBe("kind");
  });

  it("marks nothing when a member's property is optional, not a literal, or missing", () => {
    const optional = object("Opt", prop("type", literal("opt"), true));
    const wide = object("Wide", prop("type", { kind: "primitive", name: "string" }));
    const missing = object("Missing", prop("other", literal("x")));
    expect(discriminatorOf([text, optional, unionOf("U", "Text", "Opt")])).toBeUndefined();
    expect(discriminatorOf([text, optional, unionOf("U", "Opt", "Text")])).toBeUndefined();
    expect(discriminatorOf([text, wide, unionOf("U", "Text", "Wide")])).toBeUndefined();
    expect(discriminatorOf([text, missing, unionOf("U", "Text", "Missing")])).toBeUndefined();
  });

  it("marks nothing for a member that is not a named object, a single member, or an open literal union", () => {
    const alias: IrTypeDecl = { name: "Str", type: { kind: "primitive", name: "string" }, extends: [] };
    expect(discriminatorOf([text, alias, unionOf("U", "Text", "Str")])).toBeUndefined();
    const inline: IrTypeDecl = {
      name: "U",
      type: {
        kind: "union",
        items: [
          { kind: "ref", name: "Text" },
          { kind: "object", props: [prop("type", literal("x"))] },
        ],
      },
      extends: [],
    };
    expect(discriminatorOf([text, inline])).toBeUndefined();
    expect(discriminatorOf([text, unionOf("U", "Text")])).toBeUndefined();
    const open: IrTypeDecl = {
      name: "U",
      type: {
        kind: "union",
        items: [
          { kind: "ref", name: "Text" },
          { kind: "ref", name: "Image" },
        ],
        openLiterals: ["a"],
      },
      extends: [],
    };
    expect(markDiscriminators([text, image, open])[2]).toBe(open);
  });

  it("never takes a primitive member for a declaration that happens to share its name", () => {
    // `integer` is a legal interface name in TypeScript and also the IR's name for a `@TJS-type integer` number.
    const named = object("integer", prop("type", literal("i")));
    const mixed: IrTypeDecl = {
      name: "U",
      type: {
        kind: "union",
        items: [
          { kind: "primitive", name: "integer" },
          { kind: "ref", name: "Text" },
        ],
      },
      extends: [],
    };
    expect(discriminatorOf([text, named, mixed])).toBeUndefined();
  });

  it("adds no discriminator key at all to a union it does not mark", () => {
    const wide = object("Wide", prop("type", { kind: "primitive", name: "string" }));
    const union = unionOf("U", "Text", "Wide");
    // exactOptionalPropertyTypes: an absent discriminator, not one set to undefined.
    expect(markDiscriminators([text, wide, union])[2]).toStrictEqual(union);
  });

  it("leaves every other declaration as it is", () => {
    const decls = [text, image, unionOf("U", "Text", "Image")];
    const marked = markDiscriminators(decls);
    expect(marked[0]).toBe(text);
    expect(marked[1]).toBe(image);
    expect(marked[2]).toEqual({ ...decls[2], type: { ...decls[2]!.type, discriminator: "type" } });
  });
});
