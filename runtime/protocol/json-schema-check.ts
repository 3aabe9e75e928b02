/**
 * The JSON Schema check generated validators add for keywords zod cannot express (formats, `if`/`then`/`else`,
 * `oneOf` exclusivity, `patternProperties`, …): the original schema, compiled with ajv on first use. ajv is loaded
 * then too (synchronously; it is CommonJS), so importing the runtime does not pay for it.
 */
import { createRequire } from "node:module";
import type { ValidateFunction } from "ajv";
import type { z } from "zod";

type AjvModules = {
  readonly draft07: typeof import("ajv").Ajv;
  readonly draft2020: typeof import("ajv/dist/2020.js").Ajv2020;
  readonly addFormats: (ajv: InstanceType<typeof import("ajv").Ajv>) => unknown;
};

let modules: AjvModules | undefined;

function loadAjv(): AjvModules {
  if (modules) return modules;
  // Node ESM has no global `require`, so these load through createRequire. In a bundle (esbuild, webpack) `require`
  // is the bundler's, and the literal require("…") calls are what lets it see ajv and bundle it, still loaded lazily.
  const [ajv, ajv2020, formats] =
    typeof require === "function"
      ? [require("ajv"), require("ajv/dist/2020"), require("ajv-formats")]
      : ((load: (id: string) => unknown) => [load("ajv"), load("ajv/dist/2020"), load("ajv-formats")])(
          createRequire(import.meta.url),
        );
  modules = {
    draft07: (ajv as typeof import("ajv")).Ajv,
    draft2020: (ajv2020 as typeof import("ajv/dist/2020.js")).Ajv2020,
    addFormats: (formats as { default: AjvModules["addFormats"] }).default,
  };
  return modules;
}

/**
 * Draft-07 (and -06) schemas get ajv's draft-07 validator; everything else is JSON Schema 2020-12. `ownProperties`:
 * a property named like an Object.prototype member (`constructor`, `toString`, …) counts only when it is the data's
 * own, as in JSON; by default ajv would read `{}.toString` as present.
 */
function compile(schema: Readonly<Record<string, unknown>>): ValidateFunction {
  const { draft07, draft2020, addFormats } = loadAjv();
  const isDraft07 = typeof schema["$schema"] === "string" && /draft-0[67]/.test(schema["$schema"]);
  const ajv = isDraft07
    ? new draft07({ strict: false, allErrors: true, ownProperties: true })
    : new draft2020({ strict: false, allErrors: true, ownProperties: true });
  addFormats(ajv);
  return ajv.compile(restateProtoKeys(schema) as typeof schema);
}

/** Keywords whose value is a map of subschemas, a subschema or an array of subschemas, a subschema. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
const SCHEMA_LISTS = new Set(["items", "prefixItems", "allOf", "anyOf", "oneOf", "additionalItems"]);
const SCHEMAS = new Set([
  "additionalProperties",
  "not",
  "if",
  "then",
  "else",
  "contains",
  "propertyNames",
  "unevaluatedProperties",
  "unevaluatedItems",
  "contentSchema",
]);

type JsonObject = Record<string, unknown>;

const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const hasOwn = (object: JsonObject, key: string) => Object.prototype.hasOwnProperty.call(object, key);
/** `object` with `map` applied to its entries; `object` itself when no value changes. Own `__proto__` keys stay own. */
function mapEntries(object: JsonObject, map: (key: string, value: unknown) => unknown): JsonObject {
  const entries = Object.entries(object).map(([key, value]) => [key, map(key, value)] as const);
  return entries.every(([key, value]) => value === object[key]) ? object : Object.fromEntries(entries);
}

/** The subschemas of keyword `key` restated (see `restateProtoKeys`). */
function restateKeyword(key: string, value: unknown): unknown {
  if (SCHEMAS.has(key)) return restateProtoKeys(value);
  if (SCHEMA_LISTS.has(key)) {
    if (!Array.isArray(value)) return restateProtoKeys(value);
    const items = value.map(restateProtoKeys);
    return items.every((item, i) => item === value[i]) ? value : items;
  }
  if (!isJsonObject(value)) return value;
  if (SCHEMA_MAPS.has(key)) return mapEntries(value, (_, sub) => restateProtoKeys(sub));
  // draft-07 `dependencies`: a property list or a subschema per property.
  if (key === "dependencies") return mapEntries(value, (_, sub) => (Array.isArray(sub) ? sub : restateProtoKeys(sub)));
  return value;
}

/**
 * `schema` restated so that ajv checks its `__proto__` property names: ajv skips a `__proto__` entry of `properties`
 * (never checking its subschema, and `additionalProperties` then counts the key as extra) and of draft-07
 * `dependencies`. Each becomes an equivalent entry ajv does check: `properties.__proto__` a `patternProperties`
 * entry matching exactly `__proto__` (the same keys evaluated, so `additionalProperties` and `unevaluatedProperties`
 * agree), `dependencies.__proto__` an `allOf` entry `{ if: { required: ["__proto__"] }, then: … }`. Every existing
 * entry stays where it was, so JSON pointers into the schema still resolve. Returns a copy where something changed
 * (the caller's schema is never modified) and `schema` itself otherwise.
 */
function restateProtoKeys(schema: unknown): unknown {
  if (!isJsonObject(schema)) return schema;
  const restated = mapEntries(schema, restateKeyword);
  const properties = restated["properties"];
  const dependencies = restated["dependencies"];
  const extra: JsonObject = {};
  if (isJsonObject(properties) && hasOwn(properties, "__proto__")) {
    const patterns = isJsonObject(restated["patternProperties"]) ? restated["patternProperties"] : {};
    let pattern = "^__proto__$";
    while (hasOwn(patterns, pattern)) pattern = `(?:${pattern})`;
    extra["patternProperties"] = { ...patterns, [pattern]: properties["__proto__"] };
  }
  if (isJsonObject(dependencies) && hasOwn(dependencies, "__proto__")) {
    const dependency = dependencies["__proto__"];
    const then = Array.isArray(dependency) ? { required: dependency } : dependency;
    const allOf = Array.isArray(restated["allOf"]) ? restated["allOf"] : [];
    extra["allOf"] = [...allOf, { if: { required: ["__proto__"] }, then }];
  }
  return Object.keys(extra).length === 0 ? restated : { ...restated, ...extra };
}

/** A zod refinement that checks a value against the original JSON Schema. Compiled on first use. */
export function jsonSchemaCheck(
  schema: Readonly<Record<string, unknown>>,
): (value: unknown, ctx: z.RefinementCtx) => void {
  let validate: ValidateFunction | undefined;
  return (value, ctx) => {
    validate ??= compile(schema);
    if (validate(value)) return;
    for (const error of validate.errors ?? []) {
      const path = error.instancePath
        .split("/")
        .slice(1)
        .map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
      ctx.addIssue({
        code: "custom",
        message: `${error.message ?? "is invalid"} (${error.schemaPath})`,
        path,
        input: value,
      });
    }
  };
}
