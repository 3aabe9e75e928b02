/**
 * Synthesizes a valid JSON value for an IR type, for revisions that have no example files: every property present
 * (`full`) or only the required ones (`minimal`), union members picked by `variant` at the top level (first member
 * below). Numbers are small integers inside any `@minimum`/`@maximum`, so they sit on the safe side of the
 * integer-vs-number quirk; strings honour `@format`.
 */
import type { IrConstraints, IrModel, IrType } from "../../generator/ir/model.ts";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const FORMAT_SAMPLES: Record<string, string> = {
  uri: "https://example.com/a",
  byte: "aGVsbG8=",
  "uri-template": "https://example.com/{id}",
};

export interface SynthesisOptions {
  readonly full: boolean;
}

export function unionMembers(type: IrType, model: IrModel): readonly IrType[] {
  const resolved = type.kind === "ref" ? model.types.find((t) => t.name === type.name)?.type : type;
  return resolved?.kind === "union" && !resolved.openLiterals ? resolved.items : [type];
}

export function synthesize(
  type: IrType,
  model: IrModel,
  options: SynthesisOptions,
  depth = 0,
  c?: IrConstraints,
): Json {
  const next = (t: IrType, constraints?: IrConstraints) => synthesize(t, model, options, depth + 1, constraints);
  switch (type.kind) {
    case "primitive":
      switch (type.name) {
        case "string":
          return (c?.format && FORMAT_SAMPLES[c.format]) || "text";
        case "number":
        case "integer":
          return c?.maximum !== undefined
            ? Math.min(c.maximum, Math.max(c.minimum ?? 0, 1))
            : Math.max(c?.minimum ?? 1, 1);
        case "boolean":
          return true;
        case "null":
          return null;
        case "unknown":
        case "object":
          return {};
      }
      throw new Error("unreachable: every primitive has a sample");
    case "literal":
      return type.value;
    case "ref": {
      const decl = model.types.find((t) => t.name === type.name);
      if (!decl) throw new Error(`undeclared ${type.name}`);
      return next(decl.type, c);
    }
    case "array":
      return depth > 6 ? [] : [next(type.element)];
    case "tuple":
      return type.elements.map((t) => next(t));
    case "object": {
      const value: Record<string, Json> = {};
      for (const prop of type.props) {
        if (prop.optional && (!options.full || depth > 6)) continue;
        value[prop.name] = next(prop.type, prop.constraints);
      }
      return value;
    }
    case "union": {
      if (type.openLiterals) return "text";
      const member = type.items.find((t) => !(t.kind === "primitive" && t.name === "null")) ?? type.items[0]!;
      return next(member, c);
    }
    case "intersection":
      return Object.assign({}, ...type.items.map((t) => next(t)));
  }
}
