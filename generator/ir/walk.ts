/** Small IR traversals shared by the validator and the emitters. */
import type { IrModel, IrType, IrTypeDecl } from "./model.ts";

/** Calls `visit` on `type` and every type nested in it (depth first, children after parent). */
export function walkType(type: IrType, visit: (t: IrType) => void): void {
  visit(type);
  switch (type.kind) {
    case "array":
      walkType(type.element, visit);
      break;
    case "tuple":
      type.elements.forEach((t) => walkType(t, visit));
      if (type.rest) walkType(type.rest, visit);
      break;
    case "object":
      type.props.forEach((p) => walkType(p.type, visit));
      if (type.index) walkType(type.index, visit);
      break;
    case "union":
    case "intersection":
      type.items.forEach((t) => walkType(t, visit));
      break;
  }
}

/** Names referenced by a type, in first-seen order. */
export function referencedNames(type: IrType): string[] {
  const names = new Set<string>();
  walkType(type, (t) => {
    if (t.kind === "ref") names.add(t.name);
  });
  return [...names];
}

/**
 * Orders declarations so each comes after the ones it references (needed for `const` zod schemas), keeping source
 * order where there is a choice. Declarations on a reference cycle are reported in `recursive`; they must be emitted
 * lazily.
 */
export function dependencyOrder(types: readonly IrTypeDecl[]): { order: IrTypeDecl[]; recursive: Set<string> } {
  const byName = new Map(types.map((t) => [t.name, t]));
  const deps = new Map(types.map((t) => [t.name, referencedNames(t.type).filter((n) => byName.has(n))]));
  const recursive = new Set<string>();
  for (const t of types) {
    if (reaches(t.name, t.name, deps)) recursive.add(t.name);
  }
  const order: IrTypeDecl[] = [];
  const placed = new Set<string>();
  const place = (name: string): void => {
    if (placed.has(name)) return;
    placed.add(name);
    for (const dep of deps.get(name) ?? []) {
      // A lazily emitted (recursive) schema may be referenced before it is declared.
      if (!(recursive.has(name) && recursive.has(dep))) place(dep);
    }
    order.push(byName.get(name)!);
  };
  types.forEach((t) => place(t.name));
  return { order, recursive };
}

function reaches(from: string, target: string, deps: ReadonlyMap<string, string[]>): boolean {
  const seen = new Set<string>();
  const stack = [...(deps.get(from) ?? [])];
  while (stack.length > 0) {
    const name = stack.pop()!;
    if (name === target) return true;
    if (seen.has(name)) continue;
    seen.add(name);
    stack.push(...(deps.get(name) ?? []));
  }
  return false;
}

/** Every type of a model: declarations plus method params/results. */
export function modelTypes(model: IrModel): { type: IrType; owner: string }[] {
  return [
    ...model.types.map((t) => ({ type: t.type, owner: t.name })),
    ...model.methods.flatMap((m) => [
      ...(m.params ? [{ type: m.params, owner: `${m.method} params` }] : []),
      ...(m.result ? [{ type: m.result, owner: `${m.method} result` }] : []),
      ...(m.resultFacts?.complete ? [{ type: m.resultFacts.complete, owner: `${m.method} complete result` }] : []),
    ]),
  ];
}

/** `type` with every reference renamed by `rename` (a name it maps to itself stays). */
export function renameRefs(type: IrType, rename: (name: string) => string): IrType {
  const again = (t: IrType) => renameRefs(t, rename);
  switch (type.kind) {
    case "ref":
      return { ...type, name: rename(type.name) };
    case "array":
      return { ...type, element: again(type.element) };
    case "tuple":
      return { ...type, elements: type.elements.map(again), ...(type.rest ? { rest: again(type.rest) } : {}) };
    case "object":
      return {
        ...type,
        props: type.props.map((p) => ({ ...p, type: again(p.type) })),
        ...(type.index ? { index: again(type.index) } : {}),
      };
    case "union":
    case "intersection":
      return { ...type, items: type.items.map(again) };
    default:
      return type;
  }
}

/**
 * The names an extension model takes from its base revision's bindings (`extension.base`): local name → the name in
 * the base revision. Empty for a revision, or an extension whose imported declarations are its own copies.
 */
export function baseNames(model: IrModel): ReadonlyMap<string, string> {
  if (!model.extension?.base) return new Map();
  return new Map(model.extension.imports.flatMap((i) => i.names.map((n) => [n.local, n.name] as const)));
}
