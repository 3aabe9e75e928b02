/**
 * One pass over a tool schema before it is lowered: every place that holds a schema (the root, its subschema
 * keywords, and whatever a `$ref` points at), visited once each. It checks what would otherwise fail later and far
 * from its cause, and records what the lowering needs to stay linear in the schema's size:
 *
 * - nesting deeper than `MAX_SCHEMA_DEPTH` schemas is refused (the lowering, the emitters and tsc recurse per level);
 * - every `pattern` and `patternProperties` key must compile as the generated validators compile it (a JavaScript
 *   regular expression with the `u` flag: zod's `z.regex` in schemas.ts and the JSON Schema check both do), else
 *   schemas.ts would throw a `SyntaxError` when it is loaded;
 * - the pointers `$ref`s point at (`refTargets`), so the lowering names each target once instead of copying it at
 *   every use (copies of copies grow exponentially), and the `$anchor`s by name.
 */
import { SchemaProblem, type ManifestPath } from "./errors.ts";
import { isObject, type Json, type SchemaObject } from "./json-schema-keywords.ts";

/**
 * How many schemas deep a tool schema may nest (the root is depth 0; each subschema keyword adds one; a `$ref` target
 * starts again at 0, it becomes a named type). Real schemas stay far below it; deeper ones are refused with their path.
 */
export const MAX_SCHEMA_DEPTH = 64;

/** Keywords holding one schema. */
const ONE = [
  "additionalProperties",
  "additionalItems",
  "not",
  "if",
  "then",
  "else",
  "propertyNames",
  "contains",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
] as const;
/** Keywords holding schemas by name (`dependencies` may also hold arrays of names: those are skipped). */
const BY_NAME = [
  "properties",
  "patternProperties",
  "$defs",
  "definitions",
  "dependentSchemas",
  "dependencies",
] as const;
/** Keywords holding a list of schemas (`items` is one schema or, in draft-07, a list). */
const LISTS = ["allOf", "anyOf", "oneOf", "prefixItems", "items"] as const;

export interface SchemaSurvey {
  /** Canonical pointers (`pointerOf`) of every schema a local `$ref` resolves to, `#` included when referenced. */
  readonly refTargets: ReadonlySet<string>;
  /** `$anchor` name → canonical pointer of the schema declaring it (the first one, in document order). */
  readonly anchors: ReadonlyMap<string, string>;
}

/** `["properties", "a/b"]` → `#/properties/a~1b` (RFC 6901 escaping, no percent-encoding). */
export function pointerOf(segments: readonly (string | number)[]): string {
  return `#${segments.map((s) => `/${String(s).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("")}`;
}

/** Surveys `root` (whose manifest path is `rootPath`). Throws `SchemaProblem` for too deep nesting or a bad pattern. */
export function surveySchema(root: SchemaObject, rootPath: ManifestPath, maxDepth = MAX_SCHEMA_DEPTH): SchemaSurvey {
  const visited = new Set<string>();
  const refs: string[] = [];
  const anchors = new Map<string, string>();
  const visit = (schema: Json, segments: (string | number)[], depth: number): void => {
    const pointer = pointerOf(segments);
    if (visited.has(pointer) || !isObject(schema)) return;
    visited.add(pointer);
    const path = [...rootPath, ...segments];
    if (depth > maxDepth)
      throw new SchemaProblem(
        path,
        `schemas nest deeper than ${maxDepth} levels here; mcp-gen refuses deeper nesting (move parts into $defs)`,
      );
    checkPatterns(schema, path);
    if (typeof schema["$ref"] === "string") refs.push(schema["$ref"]);
    if (typeof schema["$anchor"] === "string" && !anchors.has(schema["$anchor"]))
      anchors.set(schema["$anchor"], pointer);
    for (const [key, sub, at] of subschemas(schema)) visit(sub, [...segments, key, ...at], depth + 1);
  };
  visit(root, [], 0);
  // What refs point at is a schema too, wherever it sits (under an unknown keyword, say); each starts a named type.
  const refTargets = new Set<string>();
  for (let i = 0; i < refs.length; i++) {
    const target = refTarget(refs[i]!, anchors);
    if (target === undefined) continue; // the lowering reports it, with its path, if it meets it
    refTargets.add(target.pointer);
    visit(resolveSegments(root, target.segments), target.segments, 0);
  }
  return { refTargets, anchors };
}

/** Every (keyword, subschema, position inside the keyword) of a schema object. */
function subschemas(schema: SchemaObject): [string, Json, (string | number)[]][] {
  const found: [string, Json, (string | number)[]][] = [];
  for (const key of ONE) if (isObject(schema[key])) found.push([key, schema[key], []]);
  for (const key of BY_NAME) {
    const value = schema[key];
    if (isObject(value)) for (const [name, sub] of Object.entries(value)) found.push([key, sub, [name]]);
  }
  for (const key of LISTS) {
    const value = schema[key];
    if (Array.isArray(value)) value.forEach((sub: Json, i) => found.push([key, sub, [i]]));
    else if (key === "items" && isObject(value)) found.push([key, value, []]);
  }
  return found;
}

/** `pattern` and the `patternProperties` names must compile with the flags the validators use. */
function checkPatterns(schema: SchemaObject, path: ManifestPath): void {
  const pattern = schema["pattern"];
  if (pattern !== undefined) {
    if (typeof pattern !== "string") throw new SchemaProblem([...path, "pattern"], "`pattern` must be a string");
    compiles(pattern, [...path, "pattern"]);
  }
  const byPattern = schema["patternProperties"];
  if (isObject(byPattern))
    for (const name of Object.keys(byPattern)) compiles(name, [...path, "patternProperties", name]);
}

function compiles(pattern: string, path: ManifestPath): void {
  try {
    new RegExp(pattern, "u");
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SchemaProblem(
      path,
      `invalid pattern ${JSON.stringify(pattern)}: the generated validators compile it with the "u" (Unicode) flag, ` +
        `which refuses it (${reason})`,
    );
  }
}

/** A local `$ref`'s target as segments and canonical pointer; undefined when it is not a resolvable local one. */
export function refTarget(
  ref: string,
  anchors: ReadonlyMap<string, string>,
): { segments: string[]; pointer: string } | undefined {
  let pointer: string | undefined = ref;
  if (ref !== "#" && !ref.startsWith("#/")) pointer = ref.startsWith("#") ? anchors.get(ref.slice(1)) : undefined;
  if (pointer === undefined) return undefined;
  const segments = decodeSegments(pointer);
  return segments && { segments, pointer: pointerOf(segments) };
}

/** `#/a~1b/%25` → `["a/b", "%"]`; undefined for malformed percent-encoding. */
function decodeSegments(pointer: string): string[] | undefined {
  if (pointer === "#") return [];
  try {
    return pointer
      .slice(2)
      .split("/")
      .map((s) => decodeURIComponent(s).replace(/~1/g, "/").replace(/~0/g, "~"));
  } catch {
    return undefined;
  }
}

/** The value at `segments` inside `root` (own properties only), or undefined. */
export function resolveSegments(root: Json, segments: readonly (string | number)[]): Json {
  let node: Json = root;
  for (const at of segments) {
    const segment = String(at);
    if (Array.isArray(node)) node = /^(0|[1-9][0-9]*)$/.test(segment) ? node[Number(segment)] : undefined;
    else if (isObject(node)) node = Object.hasOwn(node, segment) ? node[segment] : undefined;
    else return undefined;
  }
  return node;
}
