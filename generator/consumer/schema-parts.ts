/**
 * A JSON Schema split in two: its shape (what a value must be) and its text (descriptions, titles, examples and
 * comments, by JSON Pointer: what a model reads). Only schema positions are walked, so a property *named*
 * `description` stays part of the shape.
 */

type Json = unknown;
type JsonObject = Readonly<Record<string, Json>>;

const TEXT = new Set(["description", "title", "examples", "$comment"]);
/** Keywords whose value is one schema. */
const ONE = new Set([
  "items",
  "additionalProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
  "additionalItems",
]);
/** Keywords whose value is a list of schemas. */
const LIST = new Set(["allOf", "anyOf", "oneOf", "prefixItems"]);
/** Keywords whose value maps names to schemas. */
const MAP = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);

export interface SchemaParts {
  readonly shape: Json;
  readonly text: Readonly<Record<string, Json>>;
}

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);
const pointer = (at: string, key: string) => `${at}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;

function split(schema: Json, at: string, text: Record<string, Json>): Json {
  if (Array.isArray(schema) && at.endsWith("/items")) return schema.map((s, i) => split(s, `${at}/${i}`, text));
  if (!isObject(schema)) return schema;
  // Built with Object.fromEntries: a key `__proto__` (a property a server named so) stays an own key.
  const shape: [string, Json][] = [];
  for (const [key, value] of Object.entries(schema)) {
    const here = pointer(at, key);
    if (TEXT.has(key)) text[here] = value;
    else if (ONE.has(key)) shape.push([key, split(value, here, text)]);
    else if (LIST.has(key) && Array.isArray(value))
      shape.push([key, value.map((s, i) => split(s, `${here}/${i}`, text))]);
    else if (MAP.has(key) && isObject(value))
      shape.push([
        key,
        Object.fromEntries(Object.entries(value).map(([k, s]) => [k, split(s, pointer(here, k), text)])),
      ]);
    else shape.push([key, value]);
  }
  return Object.fromEntries(shape);
}

export function schemaParts(schema: Json): SchemaParts {
  const text: Record<string, Json> = {};
  return { shape: split(schema, "", text), text };
}
