/**
 * What the JSON Schema lowering knows about keywords: which are annotations, which the IR captures, which zod checks
 * exactly (and where), which widen the type; plus local JSON pointer and `$anchor` resolution.
 */
import type { IrConstraints, IrType } from "../ir/model.ts";

export type Json = unknown;
export type SchemaObject = Record<string, Json>;

/** Pure annotations: no effect on validation. */
export const ANNOTATIONS = new Set([
  "$schema",
  "$id",
  "$comment",
  "$anchor",
  "$defs",
  "definitions",
  "title",
  "description",
  "default",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
  "contentMediaType",
  "contentEncoding",
  "contentSchema",
  "enumNames",
  "$vocabulary",
  "$dynamicAnchor",
]);
/** Keywords the IR type captures exactly. */
export const STRUCTURAL = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "prefixItems",
  "additionalItems",
  "enum",
  "const",
  "anyOf",
  "oneOf",
  "allOf",
  "$ref",
]);
/** Constraints: printed in zod where `zodExpresses` says zod is exact, else enforced by the JSON Schema check. */
export const CONSTRAINTS = new Set([
  "format",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
]);
/** Keywords that make the type wider than the schema (the type ignores them; the JSON Schema check does not). */
export const WIDENING = new Set([
  "if",
  "then",
  "else",
  "not",
  "patternProperties",
  "propertyNames",
  "dependentRequired",
  "dependentSchemas",
  "dependencies",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contains",
  "minContains",
  "maxContains",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "$dynamicRef",
]);
export const TYPE_NAMES = new Set(["string", "number", "integer", "boolean", "null", "object", "array"]);

export function isObject(value: Json): value is SchemaObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
export const NUMBER_BOUNDS = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] as const;

/**
 * Whether the zod printer enforces `key` exactly for a schema lowered to `type`: number bounds and `pattern` on a
 * property of that primitive type, `minItems`/`maxItems` on the array this schema declares. Length limits (JSON
 * Schema counts code points, zod UTF-16 units), `multipleOf` (float precision) and formats (zod's differ) are left
 * to the JSON Schema check so a valid value is never rejected.
 */
export function zodExpresses(key: string, value: Json, type: IrType, asProp: boolean): boolean {
  if (key === "minItems" || key === "maxItems") {
    const arrays = type.kind === "union" ? type.items : [type];
    return arrays.some(
      (t) => t.kind === "array" && (t.constraints as Record<string, unknown> | undefined)?.[key] === value,
    );
  }
  if (!asProp || type.kind !== "primitive" || typeof value !== (key === "pattern" ? "string" : "number")) return false;
  if (key === "pattern") return type.name === "string";
  return (NUMBER_BOUNDS as readonly string[]).includes(key) && (type.name === "number" || type.name === "integer");
}

/** The constraints of a property that `zodExpresses` (the printer reads them from `IrProp.constraints`). */
export function propConstraints(schema: SchemaObject, type: IrType): IrConstraints | undefined {
  const out: Record<string, unknown> = {};
  for (const key of [...NUMBER_BOUNDS, "pattern"]) {
    if (schema[key] !== undefined && zodExpresses(key, schema[key], type, true)) out[key] = schema[key];
  }
  return Object.keys(out).length > 0 ? (out as IrConstraints) : undefined;
}

/** True when every `enum`/`const` value has one of the types `type` lists (then `type` adds nothing). */
export function literalsFitType(schema: SchemaObject): boolean {
  if (schema["enum"] === undefined && schema["const"] === undefined) return true;
  const declared = schema["type"];
  const names = new Set(
    typeof declared === "string" ? [declared] : Array.isArray(declared) ? declared.map(String) : [],
  );
  const values =
    schema["const"] !== undefined ? [schema["const"]] : Array.isArray(schema["enum"]) ? schema["enum"] : [];
  return values.every((v) => {
    if (v === null) return names.has("null");
    if (typeof v === "number") return names.has("number") || (names.has("integer") && Number.isInteger(v));
    if (typeof v === "string" || typeof v === "boolean") return names.has(typeof v);
    return false;
  });
}

export function arrayConstraints(schema: SchemaObject): IrConstraints | undefined {
  const out: { minItems?: number; maxItems?: number } = {};
  if (typeof schema["minItems"] === "number") out.minItems = schema["minItems"];
  if (typeof schema["maxItems"] === "number") out.maxItems = schema["maxItems"];
  return Object.keys(out).length > 0 ? out : undefined;
}

export function pointerSegments(pointer: string): string[] {
  if (pointer === "#") return [];
  return pointer
    .slice(2)
    .split("/")
    .map((s) => decodeURIComponent(s).replace(/~1/g, "/").replace(/~0/g, "~"));
}

export function resolvePointer(root: SchemaObject, pointer: string): Json {
  let node: Json = root;
  for (const segment of pointerSegments(pointer)) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isObject(node)) node = Object.hasOwn(node, segment) ? node[segment] : undefined;
    else return undefined;
  }
  return node;
}

export function findAnchor(node: Json, anchor: string, pointer: string): string | undefined {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) {
      const found = findAnchor(item, anchor, `${pointer}/${i}`);
      if (found) return found;
    }
    return undefined;
  }
  if (!isObject(node)) return undefined;
  if (node["$anchor"] === anchor) return pointer;
  for (const [key, value] of Object.entries(node)) {
    if (key === "enum" || key === "const" || key === "default" || key === "examples") continue;
    const found = findAnchor(value, anchor, `${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`);
    if (found) return found;
  }
  return undefined;
}
