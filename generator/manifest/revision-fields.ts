/**
 * What a manifest may declare beyond its own fields, read from the IR of the revisions the server speaks (pure):
 * the server capabilities a revision declares, the fields of its tool / resource / resource template / prompt
 * definitions, and the client requests it adds that the runtime does not serve itself. Nothing here names a
 * revision or a type: the capabilities declaration is the lowering's (`CAPABILITY_DECLARATIONS`, handed over by
 * the read stage, as this stage does not import the lowering), and a manifest list's definition is the element type
 * of the same-named array in a client request's result (`tools` of the `tools/list` result), as the runtime derives
 * `ToolDefinition`.
 */
import type { IrMethod, IrModel, IrProp, IrType } from "../ir/model.ts";
import type { ManifestPath } from "./errors.ts";

/** Where in a manifest a revision may add fields: the capabilities object (and a capability's object), a list entry. */
export type ExtensibleRoot = "capabilities" | "tools" | "resources" | "resourceTemplates" | "prompts";

/**
 * The object type a revision declares for a manifest object: its root, then property names (`capabilities.tools`);
 * `capabilities` names the declaration of a server's capabilities.
 */
export function declaredType(
  model: IrModel,
  capabilities: string,
  root: ExtensibleRoot,
  inside: readonly string[] = [],
): IrType | undefined {
  let type = root === "capabilities" ? declaration(model, capabilities) : definitionType(model, root);
  for (const name of inside) type = type && propsOf(model, type)?.find((p) => p.name === name)?.type;
  return type;
}

/** The props of an object type (through references and intersections), or undefined when it is no object. */
export function propsOf(model: IrModel, type: IrType, depth = 0): readonly IrProp[] | undefined {
  if (depth > 32) return undefined;
  if (type.kind === "ref") {
    const target = declaration(model, type.name);
    return target && propsOf(model, target, depth + 1);
  }
  if (type.kind === "object") return type.props;
  if (type.kind === "intersection") {
    const parts = type.items.map((item) => propsOf(model, item, depth + 1));
    return parts.every((p) => p !== undefined) ? parts.flat() : undefined;
  }
  return undefined;
}

/** The element type of array property `list` of a client request's result (`tools/list` → `tools`). */
function definitionType(model: IrModel, list: string): IrType | undefined {
  for (const method of model.methods) {
    if (method.kind !== "request" || method.direction === "serverToClient" || !method.result) continue;
    const prop = propsOf(model, method.result)?.find((p) => p.name === list);
    if (prop?.type.kind === "array") return prop.type.element;
  }
  return undefined;
}

function declaration(model: IrModel, name: string): IrType | undefined {
  return model.types.find((t) => t.name === name)?.type;
}

/** Why `value` does not match `type` of `model` (with the path inside `value`), or undefined when it does. */
export interface Mismatch {
  readonly path: ManifestPath;
  readonly reason: string;
}

export function mismatch(model: IrModel, value: unknown, type: IrType, depth = 0): Mismatch | undefined {
  const here = (reason: string): Mismatch => ({ path: [], reason });
  if (depth > 64) return undefined;
  switch (type.kind) {
    case "primitive":
      return primitiveMatches(value, type.name) ? undefined : here(`expected ${type.name}, got ${jsonKind(value)}`);
    case "literal":
      return value === type.value ? undefined : here(`expected ${JSON.stringify(type.value)}`);
    case "ref": {
      const target = declaration(model, type.name);
      return target ? mismatch(model, value, target, depth + 1) : undefined;
    }
    case "array":
      if (!Array.isArray(value)) return here(`expected an array, got ${jsonKind(value)}`);
      return firstOf(value.map((item, i) => nested(i, mismatch(model, item, type.element, depth + 1))));
    case "tuple":
      if (!Array.isArray(value)) return here(`expected an array, got ${jsonKind(value)}`);
      return firstOf(
        value.map((item, i) => {
          const element = type.elements[i] ?? type.rest;
          return element ? nested(i, mismatch(model, item, element, depth + 1)) : here("too many items");
        }),
      );
    case "object":
      return objectMismatch(model, value, type, depth);
    case "union": {
      if (type.openLiterals && typeof value === "string") return undefined;
      const misses = type.items.map((item) => mismatch(model, value, item, depth + 1));
      if (misses.some((m) => m === undefined)) return undefined;
      return type.items.length === 1 ? misses[0] : here(`matches none of ${type.items.length} allowed shapes`);
    }
    case "intersection":
      return firstOf(type.items.map((item) => mismatch(model, value, item, depth + 1)));
  }
}

function objectMismatch(
  model: IrModel,
  value: unknown,
  type: Extract<IrType, { kind: "object" }>,
  depth: number,
): Mismatch | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { path: [], reason: `expected an object, got ${jsonKind(value)}` };
  const record = value as Record<string, unknown>;
  for (const prop of type.props) {
    if (!(prop.name in record)) {
      if (!prop.optional) return { path: [prop.name], reason: "required field missing" };
      continue;
    }
    const field = record[prop.name];
    if (field === null && prop.constraints?.nullable) continue;
    const miss = nested(prop.name, mismatch(model, field, prop.type, depth + 1));
    if (miss) return miss;
  }
  const declared = new Set(type.props.map((p) => p.name));
  for (const [key, field] of Object.entries(record)) {
    if (declared.has(key)) continue;
    if (type.closed) return { path: [key], reason: "unknown field" };
    const miss = type.index && nested(key, mismatch(model, field, type.index, depth + 1));
    if (miss) return miss;
  }
  return undefined;
}

function nested(segment: string | number, miss: Mismatch | undefined): Mismatch | undefined {
  return miss && { path: [segment, ...miss.path], reason: miss.reason };
}

function firstOf(misses: readonly (Mismatch | undefined)[]): Mismatch | undefined {
  return misses.find((m) => m !== undefined);
}

function primitiveMatches(value: unknown, name: Extract<IrType, { kind: "primitive" }>["name"]): boolean {
  switch (name) {
    case "unknown":
      return true;
    case "null":
      return value === null;
    case "integer":
      return Number.isInteger(value);
    case "object":
      return typeof value === "object" && value !== null;
    default:
      return typeof value === name;
  }
}

function jsonKind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : typeof value;
}

/**
 * The client requests of a revision a generated server serves through typed handlers: requests a client sends that
 * no built-in revision has (so the runtime has no implementation of its own), ungated or gated by a server
 * capability that `enabled` says is declared.
 */
export function servedNewMethods(
  model: IrModel,
  builtinMethods: ReadonlySet<string>,
  enabled: (path: readonly string[]) => boolean,
): IrMethod[] {
  return model.methods.filter(
    (m) =>
      m.kind === "request" &&
      m.delivery === "message" &&
      m.direction !== "serverToClient" &&
      !builtinMethods.has(m.method) &&
      (!m.capability || (m.capability.side === "server" && enabled(m.capability.path))),
  );
}
