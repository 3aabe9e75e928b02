/**
 * `$ref` cycles that make a type consist only of itself (`{ "$ref": "#/$defs/a" }` as `$defs.a`, or `a` = `b` | string
 * with `b` = `a`): TypeScript refuses such an alias ("circularly references itself") and a validator of it would
 * recurse forever. A cycle is fine once it passes through an object's property or index, an array or a tuple.
 */
import type { IrType, IrTypeDecl } from "../ir/model.ts";

/** Names a type reaches without passing through an object, array or tuple. */
function unguardedRefs(type: IrType, out: Set<string>): Set<string> {
  if (type.kind === "ref") out.add(type.name);
  else if (type.kind === "union" || type.kind === "intersection") for (const t of type.items) unguardedRefs(t, out);
  return out;
}

/** The first cycle among `decls` (as names, the first repeated at the end), or undefined. */
export function unguardedCycle(decls: readonly IrTypeDecl[]): string[] | undefined {
  const edges = new Map(decls.map((d) => [d.name, [...unguardedRefs(d.type, new Set())]]));
  const done = new Set<string>();
  for (const start of edges.keys()) {
    // Depth-first with an explicit stack: the graph can be as long as the schema.
    const trail: string[] = [];
    const onTrail = new Set<string>();
    const stack: { name: string; next: number }[] = [{ name: start, next: 0 }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.next === 0) {
        if (onTrail.has(top.name)) return [...trail.slice(trail.indexOf(top.name)), top.name];
        if (done.has(top.name)) {
          stack.pop();
          continue;
        }
        trail.push(top.name);
        onTrail.add(top.name);
      }
      const targets = edges.get(top.name) ?? [];
      if (top.next < targets.length) {
        stack.push({ name: targets[top.next++]!, next: 0 });
        continue;
      }
      stack.pop();
      trail.pop();
      onTrail.delete(top.name);
      done.add(top.name);
    }
  }
  return undefined;
}
