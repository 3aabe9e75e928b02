/**
 * TEMPORARY (removed once generator/emit/protocol.ts prints through the printer): the helper source the protocol
 * emitter still pastes into its output, for the old `createZodContext(ref, isObjectSchema)` form.
 */
import type { ImportSymbol } from "./printer.ts";
import type { ZodEmitContext } from "./zod.ts";

type ZodHelper = "optionalKey" | "openObject" | "ownKeys" | "objectValue" | "exactly" | "ObjectSchema";

const HELPERS: Record<ZodHelper, string> = {
  optionalKey:
    "/** An optional key typed as exact-optional; `.optional()` at run time (`.exactOptional()` parses absent keys). */\n" +
    "const optionalKey = <S extends z.ZodType>(schema: S) => schema.optional() as unknown as z.ZodExactOptional<S>;\n",
  openObject:
    "/** An open object: unknown keys are kept, the inferred type lists the declared keys (TS object types are open too). */\n" +
    "const openObject = <Shape extends z.ZodRawShape>(shape: Shape) =>\n  z.looseObject(shape) as unknown as z.ZodObject<Shape, z.core.$strip>;\n",
  ownKeys:
    "/**\n * An object schema declaring keys that are also members of Object.prototype (`constructor`, `toString`, `__proto__`,\n" +
    " * …): zod reads `key in input` and `input[key]`, so an absent key would be read from the prototype. The object parses\n" +
    " * a null-prototype copy of the input's own properties instead, so only own properties count. zod skips `__proto__`\n" +
    " * (assigning it would replace the prototype): when the shape declares it (`proto` says whether it is required), it is\n" +
    " * checked here with its schema from the shape and defined on the output as an own property.\n */\n" +
    'const ownKeys = <S extends z.ZodObject>(object: S, proto?: "required" | "optional") =>\n' +
    "  z.unknown().transform((input, ctx) => {\n" +
    '    const isRecord = typeof input === "object" && input !== null && !Array.isArray(input);\n' +
    "    const own: unknown = isRecord ? Object.assign(Object.create(null), input) : input;\n" +
    "    const parsed = object.safeParse(own);\n" +
    '    const present = isRecord && proto !== undefined && Object.prototype.hasOwnProperty.call(input, "__proto__");\n' +
    '    const value = present ? (object.shape["__proto__"] as z.ZodType).safeParse((own as { __proto__: unknown }).__proto__) : undefined;\n' +
    "    const issues = [\n" +
    "      ...(parsed.success ? [] : parsed.error.issues),\n" +
    '      ...(isRecord && !present && proto === "required" ? [{ message: "Required", path: ["__proto__"] }] : []),\n' +
    '      ...(value?.success === false ? value.error.issues.map((issue) => ({ ...issue, path: ["__proto__", ...issue.path] })) : []),\n' +
    "    ];\n" +
    '    for (const issue of issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path, input });\n' +
    "    if (!parsed.success || issues.length > 0) return z.NEVER;\n" +
    "    if (!value?.success) return parsed.data;\n" +
    "    const descriptor = { value: value.data, enumerable: true, writable: true, configurable: true };\n" +
    '    return Object.defineProperty(parsed.data, "__proto__", descriptor);\n' +
    "  }) as unknown as S;\n",
  objectValue:
    "/** TypeScript's `object`: any non-null object. */\n" +
    'const objectValue = z.custom<object>((value) => typeof value === "object" && value !== null);\n',
  exactly:
    "/**\n * `schema`, typed as its declared type `T` (`ObjectSchema<T>` for an object schema). Compiles only if the type zod\n" +
    " * infers for `schema` and `T` are mutually assignable.\n */\n" +
    "function exactly<T>() {\n" +
    "  return <S extends z.core.$ZodType>(\n" +
    "    schema: S & ([T] extends [z.output<S>] ? ([z.output<S>] extends [T] ? unknown : never) : never),\n" +
    "  ) => schema as unknown as S extends z.core.$ZodTypeDiscriminable ? ObjectSchema<T> : z.ZodType<T>;\n" +
    "}\n",
  ObjectSchema:
    "/** The declared type of an object schema: validates `T`, usable as a `z.discriminatedUnion` member. */\n" +
    "type ObjectSchema<T> = z.ZodType<T> & z.core.$ZodTypeDiscriminable;\n",
};

export interface LegacyZodContext extends ZodEmitContext {
  readonly helpers: Set<ZodHelper>;
}

export function createLegacyZodContext(
  ref: (name: string) => string = (name) => `${name}Schema`,
  isObjectSchema?: (name: string) => boolean,
): LegacyZodContext {
  const helpers = new Set<ZodHelper>();
  const use = (symbol: ImportSymbol) => {
    if (symbol.name in HELPERS) helpers.add(symbol.name as ZodHelper);
    return symbol.name;
  };
  return { ref, helpers, use, ...(isObjectSchema ? { isObjectSchema } : {}) };
}

export function emitZodPrelude(context: ZodEmitContext): string {
  const ctx = context as LegacyZodContext;
  return (Object.keys(HELPERS) as ZodHelper[])
    .filter((h) => ctx.helpers.has(h))
    .map((h) => HELPERS[h])
    .join("");
}
