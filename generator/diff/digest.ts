/**
 * Structure digests of an IR's types, for the recorded surface: a type's digest covers everything reachable through
 * its references, without documentation or locations, so a change anywhere below it changes it. Declarations are
 * digested once, by strongly connected component (Tarjan), so a recursive group gets the same digests whichever
 * method reaches it first.
 */
import { createHash } from "node:crypto";
import type { IrType, IrTypeDecl } from "../ir/model.ts";

/** The digest of any type expression of this model (12 hex digits). */
export type TypeDigest = (type: IrType) => string;

export function typeDigests(decls: readonly IrTypeDecl[]): TypeDigest {
  const byName = new Map(decls.map((d) => [d.name, d]));
  const digests = new Map<string, string>();
  // JSON text with sorted keys, documentation and locations left out; a reference outside the component being
  // digested stands by its digest, inside it by its name.
  const canonical = (value: unknown, inside: ReadonlySet<string>): string => {
    if (Array.isArray(value)) return `[${value.map((v) => canonical(v, inside)).join(",")}]`;
    if (typeof value !== "object" || value === null) return JSON.stringify(value) ?? "null";
    const record = value as Record<string, unknown>;
    if (record["kind"] === "ref" && typeof record["name"] === "string") {
      const name = record["name"];
      return JSON.stringify(inside.has(name) ? { ref: name } : { ref: name, digest: digests.get(name) ?? null });
    }
    const keys = Object.keys(record)
      .filter((key) => key !== "doc" && key !== "location" && record[key] !== undefined)
      .sort(compare);
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(record[k], inside)}`).join(",")}}`;
  };
  const digestComponent = (component: readonly string[]) => {
    const inside = new Set(component);
    const members = [...component].sort(compare).map((name) => {
      const { extends: heritage, constraints, type } = byName.get(name)!;
      return canonical({ name, extends: heritage, constraints, type }, inside);
    });
    const group = sha256(`[${members.join(",")}]`);
    for (const name of component) digests.set(name, component.length === 1 ? group : sha256(`${group}\n${name}`));
  };
  // Only what the digested types reach is visited; a component is digested once every one it reaches is.
  const visit = tarjan(byName, digestComponent);
  return (type) => {
    for (const name of references(type)) if (byName.has(name)) visit(name);
    return sha256(canonical(type, new Set())).slice(0, 12);
  };
}

/**
 * Tarjan's strongly connected components over the reference graph, from the roots it is asked to visit: each
 * component is handed to `emit` after every component it references.
 */
function tarjan(decls: ReadonlyMap<string, IrTypeDecl>, emit: (component: string[]) => void): (root: string) => void {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const visit = (name: string) => {
    index.set(name, index.size);
    low.set(name, index.get(name)!);
    stack.push(name);
    onStack.add(name);
    for (const next of references(decls.get(name)!.type)) {
      if (!decls.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(name, Math.min(low.get(name)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(name, Math.min(low.get(name)!, index.get(next)!));
      }
    }
    if (low.get(name) !== index.get(name)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== name);
    emit(component);
  };
  return (root) => {
    if (!index.has(root)) visit(root);
  };
}

/** Every declaration name a type refers to, in order of appearance. */
function references(type: unknown, found: string[] = []): string[] {
  if (Array.isArray(type)) for (const item of type) references(item, found);
  else if (typeof type === "object" && type !== null) {
    const record = type as Record<string, unknown>;
    if (record["kind"] === "ref" && typeof record["name"] === "string") found.push(record["name"]);
    else for (const value of Object.values(record)) references(value, found);
  }
  return found;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
