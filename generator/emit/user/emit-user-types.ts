/**
 * `UserModel` → the unformatted bodies of `types.ts`, `schemas.ts` and `definitions.ts` of a manifest's output.
 * Types and validators come from the shared IR printers (`emit/ts-types.ts`, `emit/zod.ts`), exactly as for the
 * protocol bindings. A tool schema whose keywords zod cannot express gets a JSON Schema check of the original
 * schema (the runtime's `jsonSchemaCheck`) refined onto its root validator.
 */
import { dependencyOrder } from "../../ir/walk.ts";
import type { UserModel, UserSchema } from "../../manifest/user-model.ts";
import { emitDoc, emitTypeDeclaration, propertyKey } from "../ts-types.ts";
import { createZodContext, emitZodDeclaration, emitZodPrelude } from "../zod.ts";
import { runtimeImportLine, siblingImport } from "./runtime-import.ts";

/** Every tool schema of the model, with the tool it belongs to. */
export function toolSchemas(model: UserModel): UserSchema[] {
  return model.tools.flatMap((t) => (t.output ? [t.input, t.output] : [t.input]));
}

/** Names of the validators that need the JSON Schema check (their zod part is then declared as `<Name>Shape`). */
function checkedRoots(model: UserModel): Set<string> {
  return new Set(
    toolSchemas(model)
      .filter((s) => s.enforcedByJsonSchema.length > 0)
      .map((s) => s.typeName),
  );
}

/**
 * Where a tool schema's original JSON lives in definitions.ts: one `jsonSchemas` object keyed by type name (a
 * lower-case name, so it can never collide with a declaration-derived name such as `<Type>Schema`).
 */
export function jsonSchemaConst(typeName: string): string {
  return `jsonSchemas.${typeName}`;
}

export function emitUserTypesFile(model: UserModel): string {
  return model.types.map((decl) => emitTypeDeclaration(decl)).join("\n");
}

/**
 * How schemas.ts is emitted. By default tsc does not check it (`// @ts-nocheck`) and every validator is annotated
 * with its declared type (`z.ZodType<T.X>`): a user's tsc then never infers zod's generics, which is most of what a
 * zod-based server costs to type-check (bench/manifest-tsc.ts). `checked` emits the same validators for tsc to check,
 * with inferred types: the differential tests compile that form to prove `z.infer` of each validator equals its type.
 */
export interface SchemasEmitOptions {
  readonly checked?: boolean;
}

const NO_CHECK =
  "// @ts-nocheck: the validators are annotated with their declared types (./types.ts); mcp-gen's tests prove each\n" +
  "// validator's inferred type equals its declaration, so tsc need not infer zod's generics here.\n";

export function emitUserSchemasFile(model: UserModel, options: SchemasEmitOptions = {}): string {
  const checked = checkedRoots(model);
  const ctx = createZodContext((name) => (checked.has(name) ? `${name}Shape` : `${name}Schema`));
  const { order, recursive } = dependencyOrder(model.types);
  const typeRef = (name: string) => `T.${name}`;
  const annotate = options.checked !== true;
  const body = order.map((decl) =>
    emitZodDeclaration(decl, ctx, { recursive: recursive.has(decl.name), typeRef, annotate }),
  );
  const refinements = toolSchemas(model)
    .filter((s) => checked.has(s.typeName))
    .map(
      (s) =>
        emitDoc({
          text:
            `Validates {@link T.${s.typeName}} completely: the zod shape plus the original JSON Schema for ` +
            `${s.enforcedByJsonSchema.map((k) => `\`${k}\``).join(", ")}.`,
        }) +
        `export const ${s.typeName}Schema${annotate ? `: z.ZodType<T.${s.typeName}>` : ""} = ` +
        `${s.typeName}Shape.superRefine(jsonSchemaCheck(D.${jsonSchemaConst(s.typeName)}));\n`,
    );
  const imports = [
    ...(annotate ? [NO_CHECK] : []),
    'import { z } from "zod";',
    ...runtimeImportLine(
      model,
      checked.size > 0 ? ["jsonSchemaCheck"] : [],
      model.tools.length > 0 ? ["TypedToolValidators"] : [],
    ),
    ...(checked.size > 0 ? [`import * as D from ${siblingImport(model, "definitions")};`] : []),
    `import type * as T from ${siblingImport(model, "types")};\n`,
  ];
  return [imports.join("\n"), emitZodPrelude(ctx), ...body, ...refinements, toolValidators(model)].join("\n");
}

/** `text` as a template literal whose value is exactly `text` (kept readable: newlines stay newlines). */
function templateLiteral(text: string): string {
  return `\`${text.replace(/\\/g, "\\\\").replace(/`/g, "\\`").replace(/\$\{/g, "\\${")}\``;
}

/** Each tool's validators by tool name, for the runtime's `registerTypedTools`. */
function toolValidators(model: UserModel): string {
  if (model.tools.length === 0) return "";
  const entries = model.tools.map((t) => {
    const output = t.output ? `, output: ${t.output.typeName}Schema` : "";
    return `${propertyKey(t.name)}: { input: ${t.input.typeName}Schema${output} },\n`;
  });
  return (
    "/** Each tool's validators by tool name (`createServer` registers them with the handlers). */\n" +
    `export const toolValidators: Readonly<Record<string, TypedToolValidators>> = {\n${entries.join("")}};\n`
  );
}

/** Server info, capabilities and the tools/resources/templates/prompts lists, as served (schemas verbatim). */
export function emitUserDefinitionsFile(model: UserModel): string {
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  const schemas = toolSchemas(model);
  const keys = schemas.length > 0 ? schemas.map((s) => JSON.stringify(s.typeName)).join(" | ") : "never";
  const jsonSchemas =
    `/**\n * Every tool schema as the manifest declares it, by type name; served unchanged. Parsed from JSON text: every key\n` +
    ` * stays an own property (\`__proto__\` too, which an object literal would turn into a prototype), and a user's tsc\n` +
    ` * has no object literal to check.\n */\n` +
    `export const jsonSchemas: Readonly<Record<${keys}, JsonObject>> = JSON.parse(${templateLiteral(json(Object.fromEntries(schemas.map((s) => [s.typeName, s.json]))))});\n`;
  const tools = model.tools.map((t) => {
    const fields = [
      `name: ${json(t.name)}`,
      ...(t.title !== undefined ? [`title: ${json(t.title)}`] : []),
      ...(t.description !== undefined ? [`description: ${json(t.description)}`] : []),
      `inputSchema: ${jsonSchemaConst(t.input.typeName)}`,
      ...(t.output ? [`outputSchema: ${jsonSchemaConst(t.output.typeName)}`] : []),
      ...(t.annotations ? [`annotations: ${json(t.annotations)}`] : []),
      ...(t.icons ? [`icons: ${json(t.icons)}`] : []),
    ];
    return `{ ${fields.join(", ")} }`;
  });
  const { revisions, instructions, ...info } = model.server;
  const serverOptions = [
    `info: ${json(info)}`,
    ...(instructions !== undefined ? [`instructions: ${json(instructions)}`] : []),
    ...(revisions ? [`revisions: ${json(revisions)}`] : []),
    `capabilities: ${wireCapabilities(model)}`,
  ];
  return [
    `${runtimeImportLine(model, [], ["JsonObject", "PromptDefinition", "ResourceDefinition", "ResourceTemplateDefinition", "ServerOptions", "ToolDefinition"]).join("")}\n`,
    `/** Server info, instructions, revisions and capability switches from the manifest. */\nexport const serverOptions: ServerOptions = { ${serverOptions.join(", ")} };\n`,
    jsonSchemas,
    `/** \`tools/list\`, in manifest order. */\nexport const toolDefinitions: readonly ToolDefinition[] = [${tools.join(",\n")}];\n`,
    `/** Required OAuth scopes per tool (manifest \`scopes\`); \`createServer\` registers them and HTTP bearer auth enforces them. */\nexport const toolScopes: Readonly<Record<string, readonly string[]>> = ${json(Object.fromEntries(model.tools.filter((t) => t.scopes.length > 0).map((t) => [t.name, t.scopes])))};\n`,
    `/** \`resources/list\`, in manifest order. */\nexport const resourceDefinitions: readonly ResourceDefinition[] = ${json(model.resources.map((r) => r.descriptor))};\n`,
    `/** \`resources/templates/list\`, in manifest order. */\nexport const resourceTemplateDefinitions: readonly ResourceTemplateDefinition[] = ${json(model.resourceTemplates.map((t) => t.descriptor))};\n`,
    `/** \`prompts/list\`, in manifest order. */\nexport const promptDefinitions: readonly PromptDefinition[] = ${json(model.prompts.map((p) => p.descriptor))};\n`,
  ].join("\n");
}

/**
 * The manifest's capability switches as a capabilities object merged over the ones the runtime derives from the
 * registrations. `logging: undefined` removes the runtime's default logging capability.
 */
function wireCapabilities(model: UserModel): string {
  const c = model.capabilities;
  const entries = [
    ...(c.tools ? [`tools: ${JSON.stringify(c.tools)}`] : []),
    ...(c.resources ? [`resources: ${JSON.stringify(c.resources)}`] : []),
    ...(c.prompts ? [`prompts: ${JSON.stringify(c.prompts)}`] : []),
    ...(c.completions ? ["completions: {}"] : []),
    `logging: ${c.logging ? "{}" : "undefined"}`,
  ];
  return `{ ${entries.join(", ")} }`;
}
