/**
 * Marks unions whose members are all named object types with a required, distinct literal property of the same name
 * (e.g. content blocks by `type`, message unions by `method`). Emitters may then validate with a discriminated union.
 * A member whose property is optional (e.g. `ElicitRequestFormParams.mode`) disqualifies the union.
 */
import type { IrObjectType, IrType, IrTypeDecl } from "../ir/model.ts";

export function markDiscriminators(types: readonly IrTypeDecl[]): IrTypeDecl[] {
  const byName = new Map(types.map((t) => [t.name, t]));
  return types.map((decl) => {
    if (decl.type.kind !== "union" || decl.type.openLiterals) return decl;
    const key = discriminatorOf(decl.type.items, byName);
    return key === undefined ? decl : { ...decl, type: { ...decl.type, discriminator: key } };
  });
}

function discriminatorOf(items: readonly IrType[], byName: ReadonlyMap<string, IrTypeDecl>): string | undefined {
  if (items.length < 2) return undefined;
  const objects: IrObjectType[] = [];
  for (const item of items) {
    const target = item.kind === "ref" ? byName.get(item.name) : undefined;
    if (target?.type.kind !== "object") return undefined;
    objects.push(target.type);
  }
  const candidates = objects[0]!.props.filter((p) => !p.optional && p.type.kind === "literal").map((p) => p.name);
  return candidates.find((key) => {
    const values = objects.map((o) => {
      const prop = o.props.find((p) => p.name === key);
      return prop && !prop.optional && prop.type.kind === "literal" ? prop.type.value : undefined;
    });
    return values.every((v) => v !== undefined) && new Set(values).size === values.length;
  });
}
