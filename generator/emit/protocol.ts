/**
 * `IrModel` of a protocol revision → the unformatted files of `generated/protocol/<revision>/`:
 * types.ts, schemas.ts, methods.ts, constants.ts, index.ts and ir.json.
 */
import type { IrMethod, IrModel, IrTypeDecl } from "../ir/model.ts";
import { dependencyOrder } from "../ir/walk.ts";
import { stableJson, tsHeader, headerLine, type GeneratedFile } from "./generated-file.ts";
import { emitDoc, emitTypeDeclaration, emitTypeExpression } from "./ts-types.ts";
import { createZodContext, emitZodDeclaration, emitZodExpression, emitZodPrelude } from "./zod.ts";
import { emitDescriptorFile } from "./descriptor.ts";

export interface ProtocolEmitOptions {
  /** Import specifier of runtime/protocol/method-type.ts as seen from the output directory. */
  readonly runtimeImport: string;
}

export function emitProtocolFiles(model: IrModel, options: ProtocolEmitOptions): GeneratedFile[] {
  const header = tsHeader(model.source.path, model.source.sha256);
  const descriptor = emitDescriptorFile(model, options);
  return [
    { path: "types.ts", content: header + emitTypesModule(model.types) },
    { path: "schemas.ts", content: header + emitSchemasModule(model.types) },
    { path: "methods.ts", content: header + emitMethodsFile(model, options) },
    { path: "constants.ts", content: header + emitConstantsFile(model) },
    ...(descriptor !== undefined ? [{ path: "revision.ts", content: header + descriptor }] : []),
    { path: "index.ts", content: header + emitIndexFile(descriptor !== undefined) },
    {
      path: "ir.json",
      content: stableJson({ $generated: headerLine(model.source.path, model.source.sha256).slice(3), ...model }),
    },
  ];
}

/** A module declaring every type, in the given order. Reusable for any list of declarations (e.g. a manifest's). */
export function emitTypesModule(types: readonly IrTypeDecl[]): string {
  return types.map((decl) => emitTypeDeclaration(decl)).join("\n");
}

/** Names whose generated schema is a plain zod object (open or closed object with declared properties, not lazy). */
function objectSchemaNames(types: readonly IrTypeDecl[], recursive: ReadonlySet<string>): Set<string> {
  return new Set(
    types
      .filter((t) => t.type.kind === "object" && t.type.props.length > 0 && !recursive.has(t.name))
      .map((t) => t.name),
  );
}

/**
 * A module with one `<Name>Schema` per declaration, in dependency order (recursive ones lazy), each annotated with its
 * declared type (`z.ZodType<T.Name>`) so importers and the emitted .d.ts never expand zod's inferred generics.
 * `typesImport` is the specifier of the module declaring the types (used in the annotations and doc links).
 */
export function emitSchemasModule(types: readonly IrTypeDecl[], typesImport = "./types.ts"): string {
  const { order, recursive } = dependencyOrder(types);
  const objects = objectSchemaNames(types, recursive);
  const ctx = createZodContext(undefined, (name) => objects.has(name));
  const typeRef = (name: string) => `T.${name}`;
  const body = order.map((decl) =>
    emitZodDeclaration(decl, ctx, { recursive: recursive.has(decl.name), typeRef, declaredTypes: true }),
  );
  return [
    `import { z } from "zod";\nimport type * as T from ${JSON.stringify(typesImport)};\n`,
    emitZodPrelude(ctx),
    ...body,
  ].join("\n");
}

export function emitMethodsFile(model: IrModel, options: ProtocolEmitOptions): string {
  const ctx = createZodContext((name) => `S.${name}Schema`);
  const typeOptions = { ref: (name: string) => `T.${name}` };
  const entries = model.methods.map((m) => emitMethodEntry(m, ctx, typeOptions));
  const usesRequests = model.methods.some((m) => m.kind === "request");
  const usesNotifications = model.methods.some((m) => m.kind === "notification");
  const runtimeNames = [
    "type MethodTable",
    usesNotifications ? "ProtocolNotificationType" : "",
    usesRequests ? "ProtocolRequestType" : "",
  ]
    .filter(Boolean)
    .join(", ");
  const prelude = emitZodPrelude(ctx);
  return [
    `import { z } from "zod";`,
    `import { ${runtimeNames} } from ${JSON.stringify(options.runtimeImport)};`,
    `import * as S from "./schemas.ts";`,
    `import type * as T from "./types.ts";\n`,
    prelude,
    `/** Every JSON-RPC method of revision ${model.revision}, keyed by method string. */`,
    `export const methods = {\n${entries.join("")}} as const satisfies MethodTable;\n`,
  ].join("\n");
}

function emitMethodEntry(
  m: IrMethod,
  ctx: ReturnType<typeof createZodContext>,
  typeOptions: { ref: (n: string) => string },
): string {
  const method = JSON.stringify(m.method);
  const paramsType = m.params ? emitTypeExpression(m.params, typeOptions) : "undefined";
  const paramsSchema = m.params ? emitZodExpression(m.params, ctx) : "z.undefined()";
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
      ? { type: emitTypeExpression(facts.complete, typeOptions), schema: emitZodExpression(facts.complete, ctx) }
      : undefined;
    const typeArgs = [method, paramsType, resultType, ...(complete ? [complete.type] : [])].join(", ");
    const fields = [
      ...common,
      `result: ${emitZodExpression(m.result!, ctx)}`,
      `paramsOptional: ${m.paramsOptional}`,
      `delivery: "${m.delivery}"`,
      ...gate,
      `resultType: ${facts.resultType}`,
      `cacheable: ${facts.cacheable}`,
      `inputRequired: ${facts.inputRequired}`,
      ...(complete ? [`completeResult: ${complete.schema}`] : []),
    ];
    return `${doc}${method}: new ProtocolRequestType<${typeArgs}>({ ${fields.join(", ")} }),\n`;
  }
  const fields = [...common, `paramsOptional: ${m.paramsOptional}`, ...gate];
  return `${doc}${method}: new ProtocolNotificationType<${method}, ${paramsType}>({ ${fields.join(", ")} }),\n`;
}

export function emitConstantsFile(model: IrModel): string {
  const constants = model.constants.map(
    (c) => `${emitDoc(c.doc)}export const ${c.name} = ${JSON.stringify(c.value)};\n`,
  );
  const revision = `/** The revision these bindings were generated for (the generator's \`--revision\`). */\nexport const PROTOCOL_REVISION = ${JSON.stringify(model.revision)};\n`;
  return [...constants, revision].join("\n");
}

export function emitIndexFile(withDescriptor: boolean): string {
  return [
    'export type * from "./types.ts";',
    'export * from "./schemas.ts";',
    'export * from "./constants.ts";',
    'export { methods } from "./methods.ts";',
    ...(withDescriptor ? ['export { revision } from "./revision.ts";'] : []),
    "",
  ].join("\n");
}
