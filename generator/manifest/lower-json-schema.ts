/**
 * JSON Schema (2020-12, draft-07) → IR. In: one schema as the user wrote it and a root type name. Out: named
 * `IrTypeDecl`s (the root plus one per `$defs`/`definitions` entry), warnings, and the list of keywords the IR
 * cannot carry exactly.
 *
 * The IR type is always the schema's exact type or a wider one, never narrower: a valid value always fits the
 * type. Keywords the type cannot express (bounds, formats, `oneOf` exclusivity, `if`/`then`/`else`, …) are listed
 * in `enforcedByJsonSchema`; the emitters then attach a JSON Schema check of the original schema to the zod
 * validator, so no validation is ever dropped. Keywords that *widen* the type also produce a warning.
 */
import type { IrType, IrTypeDecl } from "../ir/model.ts";
import { SchemaProblem, type ManifestPath } from "./errors.ts";
import {
  ANNOTATIONS,
  CONSTRAINTS,
  STRUCTURAL,
  TYPE_NAMES,
  WIDENING,
  isObject,
  literalsFitType,
  zodExpresses,
  type Json,
  type SchemaObject,
} from "./json-schema-keywords.ts";
import { lowerArray, lowerObject, subschemas, union, type SubschemaLowering } from "./lower-json-shapes.ts";
import { pascalName } from "./names.ts";
import { unguardedCycle } from "./ref-cycles.ts";
import { pointerOf, refTarget, resolveSegments, surveySchema, type SchemaSurvey } from "./schema-survey.ts";
import { clashes, deriveName } from "./type-names.ts";

export interface LoweredSchema {
  /** The root declaration first, then `$defs` declarations in the order they are first needed. */
  readonly decls: readonly IrTypeDecl[];
  readonly warnings: readonly { path: ManifestPath; message: string }[];
  /** Keywords (sorted, unique) whose checks only the JSON Schema validator performs. Empty: zod alone is exact. */
  readonly enforcedByJsonSchema: readonly string[];
}

class Lowering implements SubschemaLowering {
  readonly decls: IrTypeDecl[] = [];
  readonly warnings: { path: ManifestPath; message: string }[] = [];
  readonly enforced = new Set<string>();
  /** Named declarations by the canonical pointer of their schema (`#` is the root). */
  private readonly declByPointer = new Map<string, string>();
  /** Manifest path of each named declaration's schema. */
  private readonly pathOf = new Map<string, ManifestPath>();
  private readonly survey: SchemaSurvey;
  /** The pointer whose declaration is being lowered: its own schema is lowered, not referenced. */
  private declaring: string | undefined;

  constructor(
    private readonly root: SchemaObject,
    private readonly rootName: string,
    private readonly rootPath: ManifestPath,
    private readonly takenNames: Set<string>,
  ) {
    this.draft07 = typeof root["$schema"] === "string" && /draft-0[4-7]/.test(root["$schema"]);
    this.survey = surveySchema(root, rootPath);
  }

  /** Draft-04/06/07 semantics where they differ from 2020-12 (the root's `$schema` decides). */
  private readonly draft07: boolean;

  run(): void {
    this.declByPointer.set("#", this.rootName);
    if (clashes(this.takenNames, this.rootName))
      throw new SchemaProblem(
        this.rootPath,
        `type name ${this.rootName} is generated twice (or meets a validator's name); rename one of the sources`,
      );
    this.takenNames.add(this.rootName);
    const rootDecl = this.declare(this.rootName, this.root, this.rootPath);
    this.decls.unshift(rootDecl);
    const cycle = unguardedCycle(this.decls);
    if (cycle) {
      throw new SchemaProblem(
        this.pathOf.get(cycle[0]!) ?? this.rootPath,
        `recursive $ref: ${cycle.join(" → ")} is only itself (no object or array in between), which no type or validator can be`,
      );
    }
  }

  private declare(name: string, schema: SchemaObject | boolean, path: ManifestPath): IrTypeDecl {
    const description =
      isObject(schema) && typeof schema["description"] === "string" ? schema["description"] : undefined;
    this.declaring = pointerOf(path.slice(this.rootPath.length));
    const type = this.lower(schema, path);
    return { name, type, extends: [], ...(description ? { doc: { text: description } } : {}) };
  }

  /** `asProp`: the schema is a property's, so the zod printer applies `IrProp.constraints` to it. */
  lower(schema: Json, path: ManifestPath, asProp = false): IrType {
    // A schema some `$ref` points at is lowered once, as a named declaration, wherever it is met.
    const pointer = pointerOf(path.slice(this.rootPath.length));
    if (this.declaring === pointer) this.declaring = undefined;
    else if (this.survey.refTargets.has(pointer)) return this.named(pointer, path.slice(this.rootPath.length), path);
    if (schema === true) return { kind: "primitive", name: "unknown" };
    if (schema === false) {
      this.widen("false", path, "the `false` schema (no value is valid) is typed unknown");
      return { kind: "primitive", name: "unknown" };
    }
    if (!isObject(schema)) throw new SchemaProblem(path, "a JSON Schema must be an object or a boolean");
    if (this.draft07 && schema["$ref"] !== undefined) {
      // Draft-07 ignores every keyword beside `$ref` (2020-12 applies them too).
      const ignored = Object.keys(schema).filter((k) => k !== "$ref" && !ANNOTATIONS.has(k));
      if (ignored.length > 0)
        this.warnings.push({ path, message: `draft-07 ignores ${ignored.join(", ")} beside $ref` });
      return this.lowerRef(schema["$ref"], [...path, "$ref"]);
    }
    for (const key of Object.keys(schema)) this.classify(key, path);
    // With enum/const the literals give the type; `type` beside them is then only checked by JSON Schema.
    if (schema["type"] !== undefined && !literalsFitType(schema)) this.enforced.add("type");

    const parts: IrType[] = [];
    if (schema["$ref"] !== undefined) parts.push(this.lowerRef(schema["$ref"], [...path, "$ref"]));
    if (schema["const"] !== undefined) parts.push(this.literal(schema["const"], [...path, "const"]));
    else if (schema["enum"] !== undefined) parts.push(this.lowerEnum(schema["enum"], [...path, "enum"]));
    else parts.push(...this.lowerTyped(schema, path));
    for (const key of ["anyOf", "oneOf"] as const) {
      if (schema[key] !== undefined)
        parts.push(union(subschemas(schema[key], [...path, key]).map(([s, p]) => this.lower(s, p))));
    }
    if (schema["allOf"] !== undefined) {
      for (const [s, p] of subschemas(schema["allOf"], [...path, "allOf"])) parts.push(this.lower(s, p));
    }
    const meaningful = parts.filter((p) => !(p.kind === "primitive" && p.name === "unknown"));
    const type: IrType =
      meaningful.length === 0
        ? { kind: "primitive", name: "unknown" }
        : meaningful.length === 1
          ? meaningful[0]!
          : { kind: "intersection", items: meaningful };
    for (const key of CONSTRAINTS) {
      if (schema[key] !== undefined && !zodExpresses(key, schema[key], type, asProp)) this.enforced.add(key);
    }
    return type;
  }

  private classify(key: string, path: ManifestPath): void {
    if (ANNOTATIONS.has(key) || STRUCTURAL.has(key) || key.startsWith("x-")) {
      if (key === "oneOf") this.enforced.add("oneOf"); // exclusivity: zod unions accept any match
      return;
    }
    if (CONSTRAINTS.has(key)) return; // settled at the end of `lower`, once the type is known
    if (WIDENING.has(key))
      return this.widen(key, [...path, key], `\`${key}\` cannot be typed; the type is wider, validation is kept`);
    const hint = key === "nullable" ? '; write "type": ["<type>", "null"] for a nullable value' : "";
    this.warnings.push({
      path: [...path, key],
      message: `unknown keyword \`${key}\` ignored (as JSON Schema does)${hint}`,
    });
  }

  widen(keyword: string, path: ManifestPath, message: string): void {
    this.enforced.add(keyword);
    this.warnings.push({ path, message });
  }

  /** The `type` keyword (or the type implied by object/array keywords), one IR type per listed type. */
  private lowerTyped(schema: SchemaObject, path: ManifestPath): IrType[] {
    const declared = schema["type"];
    let names: string[];
    if (declared === undefined) {
      if (["properties", "additionalProperties", "patternProperties"].some((k) => k in schema)) names = ["object"];
      else if (["items", "prefixItems"].some((k) => k in schema)) names = ["array"];
      else {
        // `{ required: [...] }` alone (typical in anyOf/oneOf alternatives) says nothing about non-objects.
        if ("required" in schema)
          this.widen(
            "required",
            [...path, "required"],
            "`required` without `type`/`properties` is not typed; validation is kept",
          );
        return [];
      }
    } else {
      names = typeof declared === "string" ? [declared] : Array.isArray(declared) ? declared.map(String) : [];
      if (names.length === 0 || names.some((n) => !TYPE_NAMES.has(n))) {
        throw new SchemaProblem(
          [...path, "type"],
          `invalid type ${JSON.stringify(declared)}: use ${[...TYPE_NAMES].join(", ")} or an array of them`,
        );
      }
    }
    const items = names.map((name): IrType => {
      if (name === "object") return lowerObject(this, schema, path);
      if (name === "array") return lowerArray(this, schema, path);
      return { kind: "primitive", name: name as "string" | "number" | "integer" | "boolean" | "null" };
    });
    return [union(items)];
  }

  private lowerEnum(values: Json, path: ManifestPath): IrType {
    if (!Array.isArray(values) || values.length === 0)
      throw new SchemaProblem(path, "`enum` must be a non-empty array");
    return union(values.map((v, i) => this.literal(v, [...path, i])));
  }

  private literal(value: Json, path: ManifestPath): IrType {
    if (value === null) return { kind: "primitive", name: "null" };
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
      return { kind: "literal", value };
    this.widen("const", path, "an object or array constant is typed unknown");
    return { kind: "primitive", name: "unknown" };
  }

  private lowerRef(ref: Json, path: ManifestPath): IrType {
    if (typeof ref !== "string") throw new SchemaProblem(path, "`$ref` must be a string");
    if (ref !== "#" && !ref.startsWith("#"))
      throw new SchemaProblem(
        path,
        `unresolvable $ref ${JSON.stringify(ref)}: only local references (#/…, #anchor) are supported; mcp-gen never fetches schemas`,
      );
    const target = refTarget(ref, this.survey.anchors);
    if (target === undefined && !ref.startsWith("#/"))
      throw new SchemaProblem(
        path,
        `unresolvable $ref ${JSON.stringify(ref)}: no $anchor ${JSON.stringify(ref.slice(1))}`,
      );
    if (target === undefined || resolveSegments(this.root, target.segments) === undefined)
      throw new SchemaProblem(path, `unresolvable $ref ${JSON.stringify(ref)}`);
    return this.named(target.pointer, target.segments, path);
  }

  /**
   * The named declaration of the schema at `pointer` (a `$ref` target), declared on first use: `$defs`/`definitions`
   * entries are named by their path without those keywords (`#/$defs/day` of `GetForecastOutput` →
   * `GetForecastOutputDay`), other targets by their whole path; either made free of every name taken.
   */
  private named(pointer: string, segments: readonly (string | number)[], path: ManifestPath): IrType {
    const known = this.declByPointer.get(pointer);
    if (known) return { kind: "ref", name: known };
    const target = resolveSegments(this.root, segments);
    const targetPath = [...this.rootPath, ...segments];
    if (!isObject(target) && typeof target !== "boolean")
      throw new SchemaProblem(target === undefined ? path : targetPath, "a JSON Schema must be an object or a boolean");
    const isDef = segments.length >= 2 && ["$defs", "definitions"].includes(String(segments[segments.length - 2]));
    const parts = isDef ? segments.filter((s) => s !== "$defs" && s !== "definitions") : segments;
    const name = deriveName(this.takenNames, this.rootName + pascalName(parts.join("/")));
    this.declByPointer.set(pointer, name);
    this.pathOf.set(name, targetPath);
    // A boolean definition is lowered as itself: `false` must stay enforced, not become `{}`.
    this.decls.push(this.declare(name, target, targetPath));
    return { kind: "ref", name };
  }
}

/**
 * Lowers one schema. `takenNames` is shared by every schema of a manifest so generated names stay unique.
 * Throws `SchemaProblem` with the path of the offending keyword.
 */
export function lowerJsonSchema(
  schema: Json,
  rootName: string,
  rootPath: ManifestPath,
  takenNames: Set<string>,
): LoweredSchema {
  if (!isObject(schema)) throw new SchemaProblem(rootPath, "a JSON Schema must be an object");
  const lowering = new Lowering(schema, rootName, rootPath, takenNames);
  lowering.run();
  return { decls: lowering.decls, warnings: lowering.warnings, enforcedByJsonSchema: [...lowering.enforced].sort() };
}
