/**
 * IR types → zod v4 source text. Pure functions shared by the protocol and manifest emitters.
 *
 * Choices (see docs/revisions-and-extensions.md, "Validation choices"):
 * - zod's functional entry `zod/mini` (`z.optional(x)`, `x.check(z.minLength(1))`): the same schemas and parser as
 *   classic zod, but tree-shakable, so a bundle carries only the schema kinds and checks it uses (issue 14), and
 *   cheaper to construct (no methods attached per instance).
 * - Objects are built by the runtime's helpers, whose objects compile their parser as classic zod's do. Open objects
 *   keep unknown keys but infer only the declared keys (`openObject`): TypeScript object types are open too, and an
 *   index signature in the inferred type would make spec interfaces unassignable to it. Closed objects (`closed:
 *   true`) use `closedObject`, objects with an index signature `indexedObject`.
 * - Optional properties go through the `optionalKey` helper: typed as zod's exact-optional (`x?: T`, not
 *   `T | undefined`, matching `exactOptionalPropertyTypes`) but run as `.optional()`, because zod 4.6's
 *   `.exactOptional()` still runs the inner schema on every absent key (5-10x slower on typical params). The only
 *   run-time difference, an explicit `undefined` value being accepted, cannot arise from JSON.
 * - Recursive declarations are `z.lazy` with an explicit `z.ZodMiniType<T>` annotation. With `deferred`, every
 *   declaration is `z.lazy`: a module of a few hundred schemas then builds each on its first parse, not at import.
 * The helpers (`optionalKey`, `openObject`, …) live in the runtime (`runtime/protocol/zod-helpers.ts`); every use is
 * recorded with the file's printer, which imports them.
 */
import type { IrConstraints, IrObjectType, IrProp, IrType, IrTypeDecl } from "../ir/model.ts";
import { GeneratorError } from "../ir/errors.ts";
import type { ImportSymbol, Printer } from "./printer.ts";
import { runtime, zod } from "./runtime-symbols.ts";
import { acceptsNull, emitDoc, propertyKey } from "./ts-types.ts";

export interface ZodEmitContext {
  /** The expression naming the schema of a declaration (e.g. `CallToolRequestSchema` or `S.CallToolRequestSchema`). */
  readonly ref: (name: string) => string;
  /** The name a declaration's schema is declared under; default: `ref`. */
  readonly declared: (name: string) => string;
  /**
   * Whether the schema of a named declaration is a zod object (usable in `z.discriminatedUnion`). Unions marked with a
   * `discriminator` use `z.discriminatedUnion` only when every member passes; default: never.
   */
  readonly isObjectSchema?: (name: string) => boolean;
  /** Records a use of `zod` or a runtime helper in the file being printed (`Printer.use`) and returns its name. */
  readonly use: (symbol: ImportSymbol, asType?: boolean) => string;
}

export interface ZodContextOptions {
  /** The printer of the file the expressions go into: it imports zod and the runtime's helpers they use. */
  readonly printer: Pick<Printer, "use">;
  readonly ref?: (name: string) => string;
  readonly declared?: (name: string) => string;
  readonly isObjectSchema?: (name: string) => boolean;
}

export function createZodContext(options: ZodContextOptions): ZodEmitContext {
  const ref = options.ref ?? ((name: string) => `${name}Schema`);
  return {
    ref,
    declared: options.declared ?? ref,
    use: (symbol, asType) => options.printer.use(symbol, asType),
    ...(options.isObjectSchema ? { isObjectSchema: options.isObjectSchema } : {}),
  };
}

/** Regex text for RFC 6570 URI templates: literals and balanced `{…}` expressions. */
const URI_TEMPLATE = String.raw`^(?:[^{}\s]|\{[+#./;?&=,!@|]?[A-Za-z0-9_%.]+(?::[1-9][0-9]{0,3}|\*)?(?:,[A-Za-z0-9_%.]+(?::[1-9][0-9]{0,3}|\*)?)*\})*$`;

/** `@format` values with a zod check; other formats are annotations only (as in JSON Schema 2020-12). */
const FORMATS: Readonly<Record<string, string>> = {
  uri: "z.url()",
  byte: "z.base64()",
  email: "z.email()",
  uuid: "z.uuid()",
  "date-time": "z.iso.datetime({ offset: true })",
  date: "z.iso.date()",
  time: "z.iso.time()",
  ipv4: "z.ipv4()",
  ipv6: "z.ipv6()",
  "uri-template": `z.string().check(z.regex(new RegExp(${JSON.stringify(URI_TEMPLATE)})))`,
};

export function emitZodExpression(type: IrType, ctx: ZodEmitContext, constraints?: IrConstraints): string {
  ctx.use(zod);
  const base = emitBase(type, ctx, constraints);
  const nullable = constraints?.nullable && !acceptsNull(type);
  return nullable ? `z.nullable(${base})` : base;
}

function emitBase(type: IrType, ctx: ZodEmitContext, c: IrConstraints | undefined): string {
  const expr = (t: IrType) => emitZodExpression(t, ctx);
  switch (type.kind) {
    case "primitive":
      return emitPrimitive(type.name, ctx, c);
    case "literal":
      return `z.literal(${JSON.stringify(type.value)})`;
    case "ref":
      return ctx.ref(type.name);
    case "array":
      return withChecks(`z.array(${expr(type.element)})`, countChecks({ ...type.constraints, ...c }, "Items"));
    case "tuple": {
      const items = `[${type.elements.map(expr).join(", ")}]`;
      return `z.tuple(${items}${type.rest ? `, ${expr(type.rest)}` : ""})`;
    }
    case "object":
      return emitObject(type, ctx);
    case "union":
      if (
        type.discriminator !== undefined &&
        type.items.every((t) => t.kind === "ref" && ctx.isObjectSchema?.(t.name))
      ) {
        return `z.discriminatedUnion(${JSON.stringify(type.discriminator)}, [${type.items.map(expr).join(", ")}])`;
      }
      return emitUnion(type.items, ctx, c);
    case "intersection":
      return type.items.map(expr).reduce((left, right) => `z.intersection(${left}, ${right})`);
  }
}

function emitPrimitive(name: string, ctx: ZodEmitContext, c: IrConstraints | undefined): string {
  switch (name) {
    case "string": {
      const format = c?.format === undefined ? undefined : FORMATS[c.format];
      const pattern = c?.pattern === undefined ? [] : [`z.regex(new RegExp(${JSON.stringify(c.pattern)}, "u"))`];
      return withChecks(format ?? "z.string()", [...countChecks(c, "Length"), ...pattern]);
    }
    case "number":
    case "integer":
      return withChecks(name === "integer" ? "z.int()" : "z.number()", numberChecks(c));
    case "boolean":
      return "z.boolean()";
    case "null":
      return "z.null()";
    case "unknown":
      return "z.unknown()";
    case "object":
      return ctx.use(runtime.objectValue);
    default:
      throw new GeneratorError(`unknown primitive ${name}`);
  }
}

/** `schema.check(…)` with the given checks, or `schema` when there are none. */
function withChecks(schema: string, checks: readonly string[]): string {
  return checks.length === 0 ? schema : `${schema}.check(${checks.join(", ")})`;
}

function numberChecks(c: IrConstraints | undefined): string[] {
  if (!c) return [];
  const checks: string[] = [];
  if (c.minimum !== undefined) checks.push(`z.gte(${c.minimum})`);
  if (c.maximum !== undefined) checks.push(`z.lte(${c.maximum})`);
  if (c.exclusiveMinimum !== undefined) checks.push(`z.gt(${c.exclusiveMinimum})`);
  if (c.exclusiveMaximum !== undefined) checks.push(`z.lt(${c.exclusiveMaximum})`);
  if (c.multipleOf !== undefined) checks.push(`z.multipleOf(${c.multipleOf})`);
  return checks;
}

/** Length bounds of a string (`Length`) or an array (`Items`): zod/mini's `minLength` checks `.length` of both. */
function countChecks(c: IrConstraints | undefined, unit: "Items" | "Length"): string[] {
  const min = c?.[`min${unit}`];
  const max = c?.[`max${unit}`];
  return [...(min === undefined ? [] : [`z.minLength(${min})`]), ...(max === undefined ? [] : [`z.maxLength(${max})`])];
}

/** Constraints on a union (e.g. `@minimum` on `number | null`) apply to the members they fit. */
function emitUnion(items: readonly IrType[], ctx: ZodEmitContext, c: IrConstraints | undefined): string {
  const memberConstraints = c ? { ...c, nullable: false } : undefined;
  const member = (t: IrType) =>
    emitZodExpression(t, ctx, t.kind === "primitive" || t.kind === "array" ? memberConstraints : undefined);
  if (items.length === 1) return member(items[0]!);
  const nonNull = items.filter((t) => !(t.kind === "primitive" && t.name === "null"));
  if (nonNull.length === 1 && items.length === 2) return `z.nullable(${member(nonNull[0]!)})`;
  if (items.every((t) => t.kind === "literal" && typeof t.value === "string")) {
    return `z.enum([${items.map((t) => (t.kind === "literal" ? JSON.stringify(t.value) : "")).join(", ")}])`;
  }
  return `z.union([${items.map(member).join(", ")}])`;
}

/** Object.prototype's own property names (`constructor`, `toString`, `__proto__`, …) in the generator's runtime. */
const PROTOTYPE_KEYS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** A plain zod object, unless a key is also an Object.prototype member: then wrapped in `ownKeys` (see the helper). */
function emitObject(type: IrObjectType, ctx: ZodEmitContext): string {
  const object = emitPlainObject(type, ctx);
  if (!type.props.some((p) => PROTOTYPE_KEYS.has(p.name))) return object;
  const ownKeys = ctx.use(runtime.ownKeys);
  const proto = type.props.find((p) => p.name === "__proto__");
  return proto ? `${ownKeys}(${object}, "${proto.optional ? "optional" : "required"}")` : `${ownKeys}(${object})`;
}

/** The zod object; a `__proto__` property stays in its shape (declared, so a strict object does not reject it). */
function emitPlainObject(type: IrObjectType, ctx: ZodEmitContext): string {
  const shape = `{${type.props.map((p) => emitShapeEntry(p, ctx)).join("")}}`;
  const index = type.index ? emitZodExpression(type.index, ctx) : undefined;
  if (index && (type.closed || type.props.length > 0)) return `${ctx.use(runtime.indexedObject)}(${shape}, ${index})`;
  if (index) return `z.record(z.string(), ${index})`;
  if (type.closed) return `${ctx.use(runtime.closedObject)}(${shape})`;
  if (type.props.length === 0) return `(${ctx.use(runtime.openObject)}({}) as z.ZodMiniType<{}>)`;
  return `${ctx.use(runtime.openObject)}(${shape})`;
}

function emitShapeEntry(prop: IrProp, ctx: ZodEmitContext): string {
  const value = emitZodExpression(prop.type, ctx, prop.constraints);
  const deprecated = prop.doc?.deprecated !== undefined ? emitDoc({ text: "", deprecated: prop.doc.deprecated }) : "";
  if (!prop.optional) return `${deprecated}${propertyKey(prop.name)}: ${value},\n`;
  return `${deprecated}${propertyKey(prop.name)}: ${ctx.use(runtime.optionalKey)}(${value}),\n`;
}

export interface ZodDeclarationOptions {
  /** Emit `z.lazy` with a `z.ZodMiniType<…>` annotation (the declaration is on a reference cycle). */
  readonly recursive: boolean;
  /**
   * Wrap the schema in `z.lazy`, so it is built on its first parse instead of when the module loads (the protocol
   * bindings: a server loads every revision it may serve and parses with a few dozen of their schemas). A lazy
   * object schema still serves as a `z.discriminatedUnion` member.
   */
  readonly deferred?: boolean;
  /**
   * Annotate every schema with its declared type (`z.ZodMiniType<T.X>`, `ObjectSchema<T.X>` for objects) instead
   * of letting TypeScript infer zod's nested generics: consumers (and .d.ts files) then see compact types. The
   * expression goes through `exactly<T.X>()`, so it still compiles only if zod's inferred type and `T.X` agree.
   */
  readonly declaredTypes?: boolean;
  /** How to name the declared TypeScript type in the annotation (e.g. `T.JSONValue`). */
  readonly typeRef: (name: string) => string;
}

/** `export const XSchema = …;` with a short JSDoc pointing at the type (and its deprecation). */
export function emitZodDeclaration(decl: IrTypeDecl, ctx: ZodEmitContext, options: ZodDeclarationOptions): string {
  const doc = emitDoc({
    text: `Validates {@link ${options.typeRef(decl.name)}}.`,
    ...(decl.doc?.deprecated !== undefined ? { deprecated: decl.doc.deprecated } : {}),
  });
  const schema = emitZodExpression(decl.type, ctx, decl.constraints);
  const expr = options.deferred ? `z.lazy(() => ${schema})` : schema;
  const name = ctx.declared(decl.name);
  const type = options.typeRef(decl.name);
  if (options.recursive) return `${doc}export const ${name}: z.ZodMiniType<${type}> = z.lazy(() => ${schema});\n`;
  if (!options.declaredTypes) return `${doc}export const ${name} = ${expr};\n`;
  const isObject = ctx.isObjectSchema?.(decl.name) ?? false;
  const annotation = `${isObject ? ctx.use(runtime.ObjectSchema) : "z.ZodMiniType"}<${type}>`;
  return `${doc}export const ${name}: ${annotation} = ${ctx.use(runtime.exactly)}<${type}>()(${expr});\n`;
}
