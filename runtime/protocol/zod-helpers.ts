/**
 * The zod helpers generated validators are built from (protocol bindings and a manifest's `schemas.ts` alike):
 * generated code imports them from here instead of carrying their source. A leaf like `method-type.ts`: it imports
 * nothing else from the runtime, so generated protocol bindings can depend on it without a cycle.
 */
// The English locale alone: "zod/locales" evaluates every language zod ships (measured: as much CPU again at startup).
import en from "zod/v4/locales/en.js";
import * as z from "zod/mini";
// Named imports from zod's core, not `z.core.…`: reading through the nested namespace makes bundlers keep all of it.
import { $constructor, $ZodObjectJIT } from "zod/v4/core";

// zod/mini has no default locale, so every issue would read "Invalid input". Like classic zod, English is set only
// when the application has not chosen a locale (an explicit `z.config(...)` wins whatever the import order).
if (!z.config().localeError) z.config(en());

/** An optional key typed as exact-optional; `z.optional` at run time (`z.exactOptional` parses absent keys). */
export const optionalKey = <S extends z.ZodMiniType>(schema: S) =>
  z.optional(schema) as unknown as z.ZodMiniExactOptional<S>;

/**
 * zod/mini's object schema with the parser classic zod's objects use: `$ZodObjectJIT` compiles a parser per shape
 * (about 1.6x faster on protocol messages), and interprets where `new Function` is banned (Workers), as zod checks.
 * zod/mini's own `z.object` never compiles. The trait name keeps `instanceof z.ZodMiniObject` and `z.omit` working.
 */
type Init = (inst: z.ZodMiniObject, def: z.core.$ZodObjectDef) => void;
const initCompiled: Init = $ZodObjectJIT.init;
const initMini: Init = z.ZodMiniType.init;
const CompiledObject: $constructor<z.ZodMiniObject> = $constructor("ZodMiniObject", (inst, def) => {
  initCompiled(inst, def);
  initMini(inst, def);
  Object.defineProperty(inst, "shape", { get: () => def.shape, configurable: true });
});

const compiledObject = (shape: z.core.$ZodShape, catchall: z.core.$ZodType) =>
  new CompiledObject({ type: "object", shape, catchall });

/** An open object: unknown keys are kept, the inferred type lists the declared keys (TS object types are open too). */
export const openObject = <Shape extends z.core.$ZodShape>(shape: Shape) =>
  compiledObject(shape, z.unknown()) as unknown as z.ZodMiniObject<Shape, z.core.$strip>;

/** A closed object (`additionalProperties: false`): an undeclared key fails. */
export const closedObject = <Shape extends z.core.$ZodShape>(shape: Shape) =>
  compiledObject(shape, z.never()) as unknown as z.ZodMiniObject<Shape, z.core.$strict>;

/** An object whose undeclared keys are validated by `index` (an index signature, `additionalProperties: {…}`). */
export const indexedObject = <Shape extends z.core.$ZodShape, Index extends z.core.$ZodType>(
  shape: Shape,
  index: Index,
) => compiledObject(shape, index) as unknown as z.ZodMiniObject<Shape, z.core.$catchall<Index>>;

/**
 * An object schema declaring keys that are also members of Object.prototype (`constructor`, `toString`, `__proto__`,
 * …): zod reads `key in input` and `input[key]`, so an absent key would be read from the prototype. The object parses
 * a null-prototype copy of the input's own properties instead, so only own properties count. zod skips `__proto__`
 * (assigning it would replace the prototype): when the shape declares it (`proto` says whether it is required), it is
 * checked here with its schema from the shape and defined on the output as an own property.
 */
export const ownKeys = <S extends z.ZodMiniObject>(object: S, proto?: "required" | "optional") =>
  z.pipe(
    z.unknown(),
    z.transform((input, ctx) => {
      const isRecord = typeof input === "object" && input !== null && !Array.isArray(input);
      const own: unknown = isRecord ? Object.assign(Object.create(null), input) : input;
      const parsed = object.safeParse(own);
      const present = isRecord && proto !== undefined && Object.prototype.hasOwnProperty.call(input, "__proto__");
      const value = present
        ? (object.shape["__proto__"] as z.ZodMiniType).safeParse((own as { __proto__: unknown }).__proto__)
        : undefined;
      const issues = [
        ...(parsed.success ? [] : parsed.error.issues),
        ...(isRecord && !present && proto === "required" ? [{ message: "Required", path: ["__proto__"] }] : []),
        ...(value?.success === false
          ? value.error.issues.map((issue) => ({ ...issue, path: ["__proto__", ...issue.path] }))
          : []),
      ];
      for (const issue of issues)
        ctx.issues.push({ code: "custom", message: issue.message, path: [...issue.path], input });
      if (!parsed.success || issues.length > 0) return z.NEVER;
      if (!value?.success) return parsed.data;
      const descriptor = { value: value.data, enumerable: true, writable: true, configurable: true };
      return Object.defineProperty(parsed.data, "__proto__", descriptor);
    }),
  ) as unknown as S;

/**
 * The schema a deferred declaration (`z.lazy`) builds, built now; zod caches it, so every reference shares one. A
 * generated schema refers to the built schemas of the declarations it uses, not to their lazies: to zod a lazy child
 * may close a cycle, which costs cycle bookkeeping on every parse of the objects above it.
 */
export const built = <S extends z.core.$ZodType>(schema: S): S =>
  schema._zod.def.type === "lazy" ? ((schema as unknown as z.core.$ZodLazy)._zod.innerType as unknown as S) : schema;

/** TypeScript's `object`: any non-null object. */
export const objectValue = z.custom<object>((value) => typeof value === "object" && value !== null);

/** The declared type of an object schema: validates `T`, usable as a `z.discriminatedUnion` member. */
export type ObjectSchema<T> = z.ZodMiniType<T> & z.core.$ZodTypeDiscriminable;

/**
 * `schema`, typed as its declared type `T` (`ObjectSchema<T>` for an object schema). Compiles only if the type zod
 * infers for `schema` and `T` are mutually assignable.
 */
export function exactly<T>() {
  return <S extends z.core.$ZodType>(
    schema: S & ([T] extends [z.output<S>] ? ([z.output<S>] extends [T] ? unknown : never) : never),
  ) => schema as unknown as S extends z.core.$ZodTypeDiscriminable ? ObjectSchema<T> : z.ZodMiniType<T>;
}
