/**
 * The shapes of JSON Schema lowering: objects (properties, required keys, additional and pattern properties), arrays
 * and tuples, and the union every lowering joins alternatives with. The schema lowering (lower-json-schema.ts) gives
 * them its `lower` for subschemas, so `$ref` targets and warnings stay in one place.
 */
import type { IrObjectType, IrProp, IrType } from "../ir/model.ts";
import { SchemaProblem, type ManifestPath } from "./errors.ts";
import { arrayConstraints, isObject, propConstraints, type Json, type SchemaObject } from "./json-schema-keywords.ts";

/** What the object and array lowerings need from the schema lowering they are part of. */
export interface SubschemaLowering {
  /** `asProp`: the schema is a property's, so the zod printer applies `IrProp.constraints` to it. */
  lower(schema: Json, path: ManifestPath, asProp?: boolean): IrType;
  /** Records a keyword the type cannot express (JSON Schema enforces it) with a warning. */
  widen(keyword: string, path: ManifestPath, message: string): void;
}

const UNKNOWN: IrType = { kind: "primitive", name: "unknown" };
/** Longest prefix tuple typed as a union of its lengths; longer ones become arrays. */
const MAX_TUPLE_FORMS = 8;

/** An object type: its properties (required or optional), and an index for additional or pattern properties. */
export function lowerObject(l: SubschemaLowering, schema: SchemaObject, path: ManifestPath): IrObjectType {
  const properties = schema["properties"] ?? {};
  if (!isObject(properties)) throw new SchemaProblem([...path, "properties"], "`properties` must be an object");
  const required = schema["required"] ?? [];
  if (!Array.isArray(required) || required.some((r) => typeof r !== "string")) {
    throw new SchemaProblem([...path, "required"], "`required` must be an array of property names");
  }
  const props: IrProp[] = Object.entries(properties).map(([name, sub]) => {
    const subPath = [...path, "properties", name];
    const type = l.lower(sub, subPath, true);
    const constraints = isObject(sub) ? propConstraints(sub, type) : undefined;
    const doc = isObject(sub) && typeof sub["description"] === "string" ? { text: sub["description"] } : undefined;
    return {
      name,
      type,
      optional: !required.includes(name),
      ...(doc ? { doc } : {}),
      ...(constraints ? { constraints } : {}),
    };
  });
  // Required names without a property schema are still required keys (of any value).
  for (const name of required as string[]) {
    if (!Object.hasOwn(properties, name))
      props.push({ name, type: { kind: "primitive", name: "unknown" }, optional: false });
  }
  const additional = schema["additionalProperties"];
  const patterns = schema["patternProperties"];
  if (patterns !== undefined) {
    // Keys matching a pattern may hold any of the pattern schemas' types: an index of their union (widened).
    const patternTypes = subschemaRecord(patterns, [...path, "patternProperties"]).map(([s, p]) => l.lower(s, p));
    const extra =
      additional === undefined || additional === true
        ? []
        : additional === false
          ? []
          : [l.lower(additional, [...path, "additionalProperties"])];
    const open = additional === undefined || additional === true;
    return { kind: "object", props, index: open ? UNKNOWN : union([...patternTypes, ...extra]) };
  }
  if (additional === false) return { kind: "object", props, closed: true };
  // JSON Schema objects are open unless they say otherwise: say so explicitly in the IR.
  if (additional === undefined || additional === true) return { kind: "object", props, index: UNKNOWN };
  return { kind: "object", props, index: l.lower(additional, [...path, "additionalProperties"]) };
}

/** An array type, or a union of tuple forms for `prefixItems` (or draft-07 array `items`). */
export function lowerArray(l: SubschemaLowering, schema: SchemaObject, path: ManifestPath): IrType {
  const constraints = arrayConstraints(schema);
  const extra = constraints ? { constraints } : {};
  const prefix = schema["prefixItems"] ?? (Array.isArray(schema["items"]) ? schema["items"] : undefined);
  if (prefix !== undefined) {
    const key = schema["prefixItems"] !== undefined ? "prefixItems" : "items";
    const elements = subschemas(prefix, [...path, key]).map(([s, p]) => l.lower(s, p));
    const restSchema = key === "prefixItems" ? schema["items"] : schema["additionalItems"];
    const rest =
      restSchema === false
        ? undefined
        : restSchema === undefined || restSchema === true
          ? UNKNOWN
          : l.lower(restSchema, [...path, key === "prefixItems" ? "items" : "additionalItems"]);
    return tupleUnion(l, schema, elements, rest, path);
  }
  const items = schema["items"];
  const element =
    items === undefined ? { kind: "primitive" as const, name: "unknown" as const } : l.lower(items, [...path, "items"]);
  return { kind: "array", element, ...extra };
}

/**
 * JSON Schema accepts any prefix of a tuple (fewer items than listed) unless `minItems` says otherwise, so a tuple
 * is the union of its allowed lengths: `[] | [A] | [A, B]` (closed) or `… | [A, B, ...R[]]` (open).
 */
function tupleUnion(
  l: SubschemaLowering,
  schema: SchemaObject,
  elements: IrType[],
  rest: IrType | undefined,
  path: ManifestPath,
): IrType {
  const minItems = typeof schema["minItems"] === "number" ? schema["minItems"] : 0;
  const maxItems = typeof schema["maxItems"] === "number" ? schema["maxItems"] : Infinity;
  if (elements.length > MAX_TUPLE_FORMS || minItems > elements.length || (rest && maxItems !== Infinity)) {
    l.widen("prefixItems", path, "this tuple is typed as an array of its item types; validation is kept");
    return { kind: "array", element: union(rest ? [...elements, rest] : elements) };
  }
  const forms: IrType[] = [];
  for (let length = minItems; length < Math.min(elements.length, maxItems + 1); length++)
    forms.push({ kind: "tuple", elements: elements.slice(0, length) });
  if (maxItems >= elements.length) forms.push({ kind: "tuple", elements, ...(rest ? { rest } : {}) });
  return forms.length === 1 ? forms[0]! : { kind: "union", items: forms };
}

/** The subschemas of `anyOf`/`oneOf`/`allOf`/`prefixItems` with their paths: a non-empty array, else a problem. */
export function subschemas(value: Json, path: ManifestPath): [Json, ManifestPath][] {
  if (!Array.isArray(value) || value.length === 0)
    throw new SchemaProblem(path, "must be a non-empty array of schemas");
  return value.map((s, i) => [s, [...path, i]]);
}

/** The subschemas of `patternProperties` with their paths. */
function subschemaRecord(value: Json, path: ManifestPath): [Json, ManifestPath][] {
  if (!isObject(value)) throw new SchemaProblem(path, "must be an object of schemas");
  return Object.entries(value).map(([k, s]) => [s, [...path, k]]);
}

/** The alternatives as one type: nested plain unions flattened, repeats dropped, `unknown` absorbing the rest. */
export function union(items: IrType[]): IrType {
  const unique: IrType[] = [];
  for (const item of items.flatMap((i) => (i.kind === "union" && !i.discriminator ? i.items : [i]))) {
    if (!unique.some((u) => JSON.stringify(u) === JSON.stringify(item))) unique.push(item);
  }
  if (unique.some((u) => u.kind === "primitive" && u.name === "unknown")) return { kind: "primitive", name: "unknown" };
  return unique.length === 1 ? unique[0]! : { kind: "union", items: unique };
}
