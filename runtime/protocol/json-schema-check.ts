/**
 * The JSON Schema check generated validators add for keywords zod cannot express (formats, `if`/`then`/`else`,
 * `oneOf` exclusivity, `patternProperties`, …): the original schema, checked by @cfworker/json-schema, an interpreter.
 * It never compiles code (no `new Function`, which Cloudflare Workers forbid) and is imported statically, so a
 * bundle carries it and nothing is loaded at run time; the same path serves schemas that only arrive at run time.
 * Messages keep the wording generated servers have always sent (`must be string`, `must NOT have fewer than 2
 * characters`, …) followed by the schema location, so a model reading an `isError` result sees which rule failed.
 */
import { Validator, type OutputUnit, type Schema, type SchemaDraft } from "@cfworker/json-schema";
import type * as z from "zod/mini";
import type { Validator as ValueValidator } from "./validation.ts";

type JsonObject = Record<string, unknown>;

const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Draft-07 (and -06) schemas are read as draft-07, draft-04 as draft-04; everything else is JSON Schema 2020-12. */
function draftOf(schema: Readonly<JsonObject>): SchemaDraft {
  const uri = schema["$schema"];
  if (typeof uri !== "string") return "2020-12";
  if (/draft-0[67]/.test(uri)) return "7";
  if (/draft-04/.test(uri)) return "4";
  if (/2019-09/.test(uri)) return "2019-09";
  return "2020-12";
}

/**
 * Keywords whose failure cfworker reports as one entry followed by the entries of the failing subschema; only those
 * inner entries say what is wrong, so the outer one is dropped (ajv, whose wording we keep, reports only them too).
 */
const WRAPPERS = new Set([
  "$ref",
  "$recursiveRef",
  "properties",
  "patternProperties",
  "additionalProperties",
  "unevaluatedProperties",
  "items",
  "prefixItems",
  "additionalItems",
  "unevaluatedItems",
  "dependentSchemas",
  "allOf",
]);

/** The first capture of `pattern` in `text`, or `fallback`. */
const capture = (text: string, pattern: RegExp, fallback = "?"): string => pattern.exec(text)?.[1] ?? fallback;
/** The limit a cfworker message ends with: `(1 < 2).` → 2, `5 is less than 3.` → 3. */
const limit = (text: string) => capture(text, /([^\s(]+?)\)?\.$/);

/** The value at JSON pointer `location` (`#/a/b`) in `root`, following local `$ref`s met on the way. */
function valueAt(root: unknown, location: string): unknown {
  let value = root;
  for (const segment of location.split("/").slice(1)) {
    const key = decodePointerSegment(segment);
    if (key === "$ref" && isJsonObject(value) && typeof value["$ref"] === "string" && value["$ref"].startsWith("#")) {
      value = valueAt(root, value["$ref"]);
      continue;
    }
    if (!isJsonObject(value) && !Array.isArray(value)) return undefined;
    if (!Object.prototype.hasOwnProperty.call(value, key)) return undefined;
    value = (value as JsonObject)[key];
  }
  return value;
}

function decodePointerSegment(segment: string): string {
  return decodeURIComponent(segment).replace(/~1/g, "/").replace(/~0/g, "~");
}

/** The message for one cfworker entry, in ajv's words. */
function messageOf(unit: OutputUnit, root: unknown): string {
  const text = unit.error;
  switch (unit.keyword) {
    case "type":
      return `must be ${capture(text, /Expected "(.*)"\.$/s)
        .split('", "')
        .join(",")}`;
    case "required":
      return `must have required property '${capture(text, /required property "(.*)"\.$/s)}'`;
    case "dependentRequired":
    case "dependencies": {
      const names = /^Instance has "(.*)" but does not have "(.*)"\.$/s.exec(text);
      return names ? `must have property ${names[2]} when property ${names[1]} is present` : text;
    }
    case "minLength":
      return `must NOT have fewer than ${limit(text)} characters`;
    case "maxLength":
      return `must NOT have more than ${limit(text)} characters`;
    case "minItems":
      return `must NOT have fewer than ${limit(text)} items`;
    case "maxItems":
      return `must NOT have more than ${limit(text)} items`;
    case "minProperties":
      return `must NOT have fewer than ${capture(text, /at least (\S+) properties/)} properties`;
    case "maxProperties":
      return `must NOT have more than ${capture(text, /at least (\S+) properties/)} properties`;
    case "minimum":
      return `must be ${text.includes("or equal to") ? ">" : ">="} ${limit(text)}`;
    case "maximum":
      return `must be ${text.includes("or equal to") ? "<" : "<="} ${limit(text)}`;
    case "exclusiveMinimum":
      return `must be > ${limit(text)}`;
    case "exclusiveMaximum":
      return `must be < ${limit(text)}`;
    case "multipleOf":
      return `must be multiple of ${limit(text)}`;
    case "pattern": {
      const pattern = valueAt(root, unit.keywordLocation);
      return typeof pattern === "string" ? `must match pattern "${pattern}"` : "must match pattern";
    }
    case "format":
      return `must match format "${capture(text, /format "(.*)"\.$/s)}"`;
    case "const":
      return "must be equal to constant";
    case "enum":
      return "must be equal to one of the allowed values";
    case "not":
      return "must NOT be valid";
    case "anyOf":
      return "must match a schema in anyOf";
    case "oneOf":
      return "must match exactly one schema in oneOf";
    case "if":
      return `must match "${text.includes('"else"') ? "else" : "then"}" schema`;
    case "uniqueItems": {
      const [first, second] = (/indexes (\d+) and (\d+)/.exec(text)?.slice(1) ?? ["?", "?"]).sort();
      return `must NOT have duplicate items (items ## ${first} and ${second} are identical)`;
    }
    case "contains":
      return "must contain at least 1 valid item(s)";
    case "propertyNames":
      return "property name must be valid";
    case "false":
      return "boolean schema is false";
    default:
      return text;
  }
}

/** A reported problem: where in the value (JSON pointer segments) and what. */
type Problem = { readonly path: string[]; readonly message: string };

function pathOf(instanceLocation: string): string[] {
  return instanceLocation.split("/").slice(1).map(decodePointerSegment);
}

/**
 * cfworker's entries as problems: wrappers dropped, and a property a `false` schema forbids
 * (`additionalProperties: false`, `unevaluatedProperties: false`) reported on the object, as ajv does.
 */
function problemsOf(units: readonly OutputUnit[], root: unknown): Problem[] {
  const problems: Problem[] = [];
  for (let i = 0; i < units.length; i++) {
    const unit = units[i]!;
    const next = units[i + 1];
    const forbidsProperty =
      (unit.keyword === "additionalProperties" || unit.keyword === "unevaluatedProperties") &&
      next?.keyword === "false";
    if (forbidsProperty) {
      i++;
      // A property that failed its own subschema counts as unevaluated for cfworker, not for ajv: reported once.
      const property = pathOf(next.instanceLocation).join("/");
      if (problems.some((problem) => `${problem.path.join("/")}/`.startsWith(`${property}/`))) continue;
      const what = unit.keyword === "additionalProperties" ? "additional" : "unevaluated";
      problems.push({
        path: pathOf(unit.instanceLocation),
        message: `must NOT have ${what} properties (${unit.keywordLocation})`,
      });
      continue;
    }
    if (WRAPPERS.has(unit.keyword)) continue;
    // The schema form of draft-07 `dependencies` wraps its subschema's entries; the list form is a problem itself.
    if (unit.keyword === "dependencies" && !/does not have "/.test(unit.error)) continue;
    // cfworker gives a `false` schema's location as the instance's; the wrapper before it has the schema's.
    const location = unit.keyword === "false" ? (units[i - 1]?.keywordLocation ?? "#") : unit.keywordLocation;
    problems.push({ path: pathOf(unit.instanceLocation), message: `${messageOf(unit, root)} (${location})` });
  }
  return problems;
}

/** A JSON copy: cfworker records resolved `$ref`s on the schema objects it is given, and ours may be frozen. */
const jsonCopy = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The path of the first property whose name is not well-formed UTF-16 (a lone surrogate, which JSON text can
 * escape), or undefined. cfworker cannot name such a property in a location and fails on it, so such a value is
 * refused up front with a message saying why (I-JSON, RFC 7493, forbids these names too).
 */
function malformedName(value: unknown, path: string[] = []): string[] | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (!Array.isArray(value) && LONE_SURROGATE.test(key)) return [...path, key];
    const found = malformedName(item, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

/** A checker for `schema`: the problems of a value, [] when it is valid. Prepared on first use. */
function checker(schema: Readonly<JsonObject>): (value: unknown) => Problem[] {
  let prepared: { readonly validator: Validator; readonly root: unknown } | undefined;
  return (value) => {
    try {
      if (!prepared) {
        const root = jsonCopy(schema);
        prepared = { validator: new Validator(root as Schema, draftOf(schema), false), root };
      }
      const malformed = malformedName(value);
      if (malformed) return [{ path: malformed.slice(0, -1), message: "property names must be well-formed Unicode" }];
      const result = prepared.validator.validate(value);
      return result.valid ? [] : problemsOf(result.errors, prepared.root);
    } catch (error) {
      // A schema the checker cannot evaluate (a malformed pattern, say) fails the value rather than the request.
      return [{ path: [], message: `could not be checked: ${error instanceof Error ? error.message : String(error)}` }];
    }
  };
}

/** A zod refinement that checks a value against the original JSON Schema. */
export function jsonSchemaCheck(
  schema: Readonly<Record<string, unknown>>,
): (value: unknown, ctx: z.core.$RefinementCtx) => void {
  const check = checker(schema);
  return (value, ctx) => {
    for (const problem of check(value)) {
      ctx.addIssue({ code: "custom", message: problem.message, path: problem.path, input: value });
    }
  };
}

/**
 * A validator for a schema that only arrives as JSON Schema (a hand-registered tool's `outputSchema`): the value
 * itself when valid, else its problems as issues.
 */
export function jsonSchemaValidator(schema: Readonly<Record<string, unknown>>): ValueValidator<unknown> {
  const check = checker(schema);
  return {
    safeParse(value) {
      const problems = check(value);
      return problems.length === 0 ? { success: true, data: value } : { success: false, error: { issues: problems } };
    },
  };
}
