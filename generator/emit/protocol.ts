/**
 * `IrModel` of a protocol revision → the unformatted files of `runtime/generated/protocol/<revision>/`:
 * types.ts, schemas.ts, methods.ts, constants.ts, revision.ts (when the era is known), extension.ts (for an extension
 * schema given its identifier), index.ts and ir.json.
 * Every TypeScript file prints through the printer, which imports zod, the runtime's method tokens and zod helpers,
 * and the sibling files as their symbols are used.
 */
import type { IrBaseRevision, IrMethod, IrModel, IrType, IrTypeDecl } from "../ir/model.ts";
import { baseNames, dependencyOrder } from "../ir/walk.ts";
import { stableJson, tsHeader, headerLine, type GeneratedFile } from "./generated-file.ts";
import {
  createPrinter,
  typeUse,
  type ImportSymbol,
  type Printable,
  type Printer,
  type RuntimeEntry,
} from "./printer.ts";
import { runtime, sibling, zod } from "./runtime-symbols.ts";
import { emitDoc, emitTypeDeclaration, emitTypeExpression } from "./ts-types.ts";
import { createZodContext, emitZodDeclaration, emitZodExpression, type ZodEmitContext } from "./zod.ts";
import { emitDescriptorFile, emitExtensionFile } from "./descriptor.ts";

export interface ProtocolEmitOptions {
  /** The specifier of a runtime entry point (`method-type`, `zod-helpers`) as seen from the output directory. */
  readonly runtime: (entry: RuntimeEntry) => string;
  /** An extension schema's identifier: adds `extension.ts` (its descriptor). */
  readonly extensionId?: string;
  /** Extension of relative imports between the files (`.js`, `.ts` or ""); default `.ts`. */
  readonly importExtension?: string;
  /**
   * An extension whose model refers to a base revision (`extension.base`): the specifier of that revision's bindings
   * (their index module) as seen from the output directory.
   */
  readonly base?: (base: IrBaseRevision) => string;
}

/**
 * How a file names a declaration: its own through `own`, one the extension takes from its base revision through a
 * namespace import of the base's bindings (`Base.Error`, `Base.ErrorSchema`), under the name the base gives it.
 */
interface Refs {
  /** The name in the base revision, when `name` is taken from it. */
  readonly fromBase: (name: string) => string | undefined;
  readonly base: ImportSymbol | undefined;
}

function refsOf(model: IrModel, options: ProtocolEmitOptions): Refs {
  const names = baseNames(model);
  const base = model.extension?.base;
  if (!base || names.size === 0) return { fromBase: () => undefined, base: undefined };
  if (!options.base)
    throw new Error(`the bindings of ${model.revision} refer to revision ${base.revision}: give its specifier`);
  const declared = new Set(model.types.map((t) => t.name));
  let local = "Base";
  while (declared.has(local)) local += "_";
  const specifier = options.base(base);
  const from = base.builtin
    ? ({ kind: "runtime-module", specifier } as const)
    : ({ kind: "relative", specifier } as const);
  return { fromBase: (name) => names.get(name), base: { name: local, from, namespace: true } };
}

const NO_BASE: Refs = { fromBase: () => undefined, base: undefined };

const T = sibling("T", "types");
const S = sibling("S", "schemas");

function protocolPrinter(options: ProtocolEmitOptions): Printer {
  return createPrinter({ runtime: options.runtime, siblingExtension: options.importExtension ?? ".ts" });
}

export function emitProtocolFiles(model: IrModel, options: ProtocolEmitOptions): GeneratedFile[] {
  const header = tsHeader(model.source.path, model.source.sha256);
  const ext = options.importExtension ?? ".ts";
  const refs = refsOf(model, options);
  const descriptor = emitDescriptorFile(model, options, header);
  const extension =
    options.extensionId !== undefined ? emitExtensionFile(model, options.extensionId, header, ext) : undefined;
  return [
    { path: "types.ts", content: emitTypesModule(model.types, header, refs) },
    { path: "schemas.ts", content: emitSchemasModule(model.types, { ...options, header }, refs) },
    { path: "methods.ts", content: emitMethodsFile(model, options, header) },
    { path: "constants.ts", content: emitConstantsFile(model, header) },
    ...(descriptor !== undefined ? [{ path: "revision.ts", content: descriptor }] : []),
    ...(extension !== undefined ? [{ path: "extension.ts", content: extension }] : []),
    { path: "index.ts", content: emitIndexFile(descriptor !== undefined, header, extension !== undefined, ext) },
    {
      path: "ir.json",
      content: stableJson({ $generated: headerLine(model.source.path, model.source.sha256).slice(3), ...model }),
    },
  ];
}

/** A module declaring every type, in the given order. Reusable for any list of declarations (e.g. a manifest's). */
export function emitTypesModule(types: readonly IrTypeDecl[], header = "", refs: Refs = NO_BASE): string {
  const f = createPrinter({ runtime: () => "", siblingExtension: ".ts" });
  const ref = (name: string) => {
    const theirs = refs.fromBase(name);
    return theirs !== undefined && refs.base ? `${f.use(refs.base, true)}.${theirs}` : name;
  };
  for (const decl of types) f.print(emitTypeDeclaration(decl, { ref }));
  return f.render(header);
}

/** Names whose generated schema is a plain zod object (open or closed object with declared properties, not lazy). */
function objectSchemaNames(types: readonly IrTypeDecl[], recursive: ReadonlySet<string>): Set<string> {
  return new Set(
    types
      .filter((t) => t.type.kind === "object" && t.type.props.length > 0 && !recursive.has(t.name))
      .map((t) => t.name),
  );
}

export interface SchemasModuleOptions extends ProtocolEmitOptions {
  readonly header?: string;
}

/**
 * A module with one `<Name>Schema` per declaration, in dependency order (recursive ones lazy), each annotated with its
 * declared type (`z.ZodMiniType<T.Name>`) so importers and the emitted .d.ts never expand zod's inferred generics. The
 * types come from the sibling `./types.ts`.
 */
export function emitSchemasModule(
  types: readonly IrTypeDecl[],
  options: SchemasModuleOptions,
  refs: Refs = NO_BASE,
): string {
  const f = protocolPrinter(options);
  const { order, recursive } = dependencyOrder(types);
  const objects = objectSchemaNames(types, recursive);
  // Every declaration is deferred; one refers to another's built schema, except to a declaration on a cycle.
  const own = (name: string) => (recursive.has(name) ? `${name}Schema` : `${f.use(runtime.built)}(${name}Schema)`);
  const ref = (name: string) => baseSchema(name, refs, f) ?? own(name);
  const declared = (name: string) => `${name}Schema`;
  const ctx = createZodContext({ printer: f, ref, declared, isObjectSchema: (name) => objects.has(name) });
  const typeRef = (name: string) => `${f.use(T, true)}.${name}`;
  for (const decl of order)
    f.print(
      emitZodDeclaration(decl, ctx, {
        recursive: recursive.has(decl.name),
        typeRef,
        declaredTypes: true,
        deferred: true,
      }),
    );
  return f.render(options.header ?? "");
}

export function emitMethodsFile(model: IrModel, options: ProtocolEmitOptions, header = ""): string {
  const f = protocolPrinter(options);
  const refs = refsOf(model, options);
  const ctx = createZodContext({
    printer: f,
    ref: (name) => baseSchema(name, refs, f) ?? `${f.use(runtime.built)}(${f.use(S)}.${name}Schema)`,
  });
  const typeOptions = {
    ref: (name: string) => {
      const theirs = refs.fromBase(name);
      return theirs !== undefined && refs.base ? `${f.use(refs.base, true)}.${theirs}` : `${f.use(T, true)}.${name}`;
    },
  };
  const of = options.extensionId !== undefined ? `extension ${options.extensionId}` : `revision ${model.revision}`;
  f.print(`/** Every JSON-RPC method of ${of}, keyed by method string. */`);
  f.print("export const methods = {");
  for (const m of model.methods) f.print(emitMethodEntry(m, ctx, typeOptions, refs));
  f.print("} as const satisfies ", typeUse(runtime.MethodTable), ";");
  return f.render(header);
}

function emitMethodEntry(
  m: IrMethod,
  ctx: ZodEmitContext,
  typeOptions: { ref: (n: string) => string },
  refs: Refs,
): Printable {
  const deferredSchema = (type: IrType) => deferred(type, ctx, refs);
  const method = JSON.stringify(m.method);
  const paramsType = m.params ? emitTypeExpression(m.params, typeOptions) : "undefined";
  const paramsSchema = m.params ? deferredSchema(m.params) : `${ctx.use(zod)}.undefined()`;
  const doc = emitDoc({
    text: `\`${m.method}\` (${m.typeName}).`,
    ...(m.doc?.deprecated !== undefined ? { deprecated: m.doc.deprecated } : {}),
  });
  const common = [`method: ${method}`, `direction: "${m.direction}"`, `params: ${paramsSchema}`];
  const gate = m.capability ? [`capability: ${JSON.stringify(m.capability)}`] : [];
  if (m.kind === "request") {
    const facts = m.resultFacts!;
    const resultType = emitTypeExpression(m.result!, typeOptions);
    const complete = facts.complete
      ? { type: emitTypeExpression(facts.complete, typeOptions), schema: deferredSchema(facts.complete) }
      : undefined;
    const typeArgs = [method, paramsType, resultType, ...(complete ? [complete.type] : [])].join(", ");
    const fields = [
      ...common,
      `result: ${deferredSchema(m.result!)}`,
      `paramsOptional: ${m.paramsOptional}`,
      `delivery: "${m.delivery}"`,
      ...gate,
      `resultType: ${facts.resultType}`,
      `cacheable: ${facts.cacheable}`,
      `inputRequired: ${facts.inputRequired}`,
      ...(complete ? [`completeResult: ${complete.schema}`] : []),
    ];
    return [doc, `${method}: new `, runtime.ProtocolRequestType, `<${typeArgs}>({ ${fields.join(", ")} }),`];
  }
  const fields = [...common, `paramsOptional: ${m.paramsOptional}`, ...gate];
  return [
    doc,
    `${method}: new `,
    runtime.ProtocolNotificationType,
    `<${method}, ${paramsType}>({ ${fields.join(", ")} }),`,
  ];
}

/**
 * A method's params or result schema, built on first parse like the declarations: a declaration's own (deferred)
 * schema, or any other expression in `z.lazy`.
 */
function deferred(type: IrType, ctx: ZodEmitContext, refs: Refs): string {
  const theirs = type.kind === "ref" ? refs.fromBase(type.name) : undefined;
  if (theirs !== undefined && refs.base) return `${ctx.use(refs.base)}.${theirs}Schema`;
  if (type.kind === "ref") return `${ctx.use(S)}.${type.name}Schema`;
  return `${ctx.use(zod)}.lazy(() => ${emitZodExpression(type, ctx)})`;
}

/** The built schema of a declaration taken from the base revision (`built(Base.ErrorSchema)`), else undefined. */
function baseSchema(name: string, refs: Refs, f: Printer): string | undefined {
  const theirs = refs.fromBase(name);
  return theirs !== undefined && refs.base ? `${f.use(runtime.built)}(${f.use(refs.base)}.${theirs}Schema)` : undefined;
}

export function emitConstantsFile(model: IrModel, header = ""): string {
  const f = createPrinter({ runtime: () => "", siblingExtension: ".ts" });
  for (const c of model.constants) f.print(emitDoc(c.doc), `export const ${c.name} = ${JSON.stringify(c.value)};\n`);
  f.print("/** The revision these bindings were generated for (the generator's `--revision`). */");
  f.print(`export const PROTOCOL_REVISION = ${JSON.stringify(model.revision)};`);
  return f.render(header);
}

export function emitIndexFile(withDescriptor: boolean, header = "", withExtension = false, ext = ".ts"): string {
  const f = createPrinter({ runtime: () => "", siblingExtension: ext });
  const from = (name: string) => JSON.stringify(f.sibling(name));
  f.print(`export type * from ${from("types")};`);
  f.print(`export * from ${from("schemas")};`);
  f.print(`export * from ${from("constants")};`);
  f.print(`export { methods } from ${from("methods")};`);
  if (withDescriptor) f.print(`export { revision } from ${from("revision")};`);
  if (withExtension) f.print(`export { extension } from ${from("extension")};`);
  return f.render(header);
}
