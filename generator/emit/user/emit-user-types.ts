/**
 * `UserModel` → the unformatted bodies of `types.ts`, `schemas.ts` and `definitions.ts` of a manifest's output.
 * Types and validators come from the shared IR printers (`emit/ts-types.ts`, `emit/zod.ts`), exactly as for the
 * protocol bindings. A tool schema whose keywords zod cannot express gets a JSON Schema check of the original
 * schema (the runtime's `jsonSchemaCheck`) refined onto its root validator.
 */
import { posix } from "node:path";
import { dependencyOrder } from "../../ir/walk.ts";
import type { UserModel, UserRevision, UserSchema, UserToolUi } from "../../manifest/user-model.ts";
import { typeUse, type Printable, type Printer } from "../printer.ts";
import { builtinRevision, relativeModule, runtime, zod } from "../runtime-symbols.ts";
import { emitDoc, emitTypeDeclaration, propertyKey } from "../ts-types.ts";
import { createZodContext, emitZodDeclaration } from "../zod.ts";
import { jsonLiteral } from "./json-literal.ts";
import { builtinRevisionSpecifier, createUserPrinter, D, T } from "./user-printer.ts";

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
function jsonSchemaConst(typeName: string): string {
  return `jsonSchemas.${typeName}`;
}

export function emitUserTypesFile(model: UserModel, header: string): string {
  const f = createUserPrinter(model);
  for (const decl of model.types) f.print(emitTypeDeclaration(decl));
  return f.render(header);
}

/**
 * `schemas.ts`: every validator is typed as its declared type (`z.ZodMiniType<T.X>`), through the runtime's
 * `exactly<T.X>()`, which compiles only if the type zod infers for the validator and `T.X` are mutually assignable:
 * the user's tsc proves each validator against its type, and importers see the compact declared types. With
 * `generate.proveValidators: false` the file is marked `// @ts-nocheck` instead (see {@link UNPROVED}).
 */
export function emitUserSchemasFile(model: UserModel, header: string): string {
  const f = createUserPrinter(model);
  const checked = checkedRoots(model);
  const ctx = createZodContext({
    printer: f,
    ref: (name) => (checked.has(name) ? `${name}Shape` : `${name}Schema`),
  });
  const { order, recursive } = dependencyOrder(model.types);
  const typeRef = (name: string) => `${f.use(T, true)}.${name}`;
  for (const decl of order)
    f.print(emitZodDeclaration(decl, ctx, { recursive: recursive.has(decl.name), typeRef, declaredTypes: true }));
  for (const s of toolSchemas(model).filter((s) => checked.has(s.typeName))) {
    const keywords = s.enforcedByJsonSchema.map((k) => `\`${k}\``).join(", ");
    f.print(
      emitDoc({
        text: `Validates {@link ${typeRef(s.typeName)}} completely: the zod shape plus the original JSON Schema for ${keywords}.`,
      }),
      `export const ${s.typeName}Schema: ${f.use(zod, true)}.ZodMiniType<${typeRef(s.typeName)}> = `,
      `${s.typeName}Shape.check(`,
      zod,
      ".superRefine(",
      runtime.jsonSchemaCheck,
      "(",
      D,
      `.${jsonSchemaConst(s.typeName)})));\n`,
    );
  }
  printToolValidators(f, model);
  return f.render(model.proveValidators ? header : `${header.slice(0, -1)}${UNPROVED}\n`);
}

/**
 * The pragma of an unproved schemas.ts (`generate.proveValidators: false`). Only this file goes unchecked: every
 * validator keeps its declared type, which is all other files (and the user's code) see, so tsc has no zod generics
 * to infer — most of a large manifest's compile time and memory (bench/manifest-tsc.ts measures both forms).
 */
const UNPROVED =
  "// Validators not re-proved by tsc here (generate.proveValidators: false); each keeps its declared type.\n// @ts-nocheck\n";

/** `text` as a template literal whose value is exactly `text` (kept readable: newlines stay newlines). */
function templateLiteral(text: string): string {
  return `\`${text.replace(/\\/g, "\\\\").replace(/`/g, "\\`").replace(/\$\{/g, "\\${")}\``;
}

/** Each tool's validators by tool name, for the runtime's `registerTypedTools`. */
function printToolValidators(f: Printer, model: UserModel): void {
  if (model.tools.length === 0) return;
  f.print("/** Each tool's validators by tool name (`createServer` registers them with the handlers). */");
  f.print("export const toolValidators: Readonly<Record<string, ", typeUse(runtime.TypedToolValidators), ">> = {");
  for (const t of model.tools) {
    const output = t.output ? `, output: ${t.output.typeName}Schema` : "";
    f.print(`${propertyKey(t.name)}: { input: ${t.input.typeName}Schema${output} },`);
  }
  f.print("};");
}

/**
 * `revisions: [revision_2025_11_25.revision, revision_draft.revision]`: descriptor values, each imported from its own
 * module (a built-in one from the runtime's `protocol/<name>` entry, a user's folder by relative path), so a bundle
 * of the server holds only the manifest's revisions.
 */
function revisionLocals(f: Printer, model: UserModel, revisions: readonly UserRevision[]): string[] {
  const taken = new Set<string>();
  return revisions.map((r) => {
    const base = `revision_${(r.kind === "builtin" ? r.name : posix.basename(r.folder)).replace(/[^A-Za-z0-9_$]/g, "_")}`;
    let local = base;
    for (let n = 2; taken.has(local); n++) local = `${base}_${n}`;
    taken.add(local);
    const symbol =
      r.kind === "builtin"
        ? builtinRevision(local, builtinRevisionSpecifier(model, r.name))
        : relativeModule(local, `${r.module}${model.importExtension}`);
    return f.use(symbol);
  });
}

/**
 * `methodTokens`: the token of each request `ServerHandlers.methods` serves, from the revision that types it, so the
 * server file names them without importing any revision itself.
 */
function printMethodTokens(f: Printer, model: UserModel, locals: readonly string[]): void {
  if (model.methods.length === 0) return;
  const entries = model.methods.map(
    (m) => `${propertyKey(m.method)}: ${locals[m.revision]}.revision.methods[${JSON.stringify(m.method)}]`,
  );
  f.print("");
  f.print("/** The method token of each request a revision adds that `ServerHandlers.methods` serves. */");
  f.print(`export const methodTokens = { ${entries.join(", ")} };`);
}

/** Server info, capabilities and the tools/resources/templates/prompts lists, as served (schemas verbatim). */
export function emitUserDefinitionsFile(model: UserModel, header: string): string {
  const f = createUserPrinter(model);
  const locals = printServerOptions(f, model);
  printToolDefinitions(f, model);
  printKeyedDefinitions(f, model);
  printMethodTokens(f, model, locals);
  return f.render(header);
}

/** A definition list's element type: a field a revision adds is not in the runtime's types, so then any field goes. */
function definitionType(model: UserModel, symbol: (typeof runtime)["ToolDefinition"]): Printable {
  return model.definitionFields ? ["(", typeUse(symbol), " & Readonly<Record<string, unknown>>)"] : typeUse(symbol);
}

/** `serverOptions`: info, instructions, the revisions as values, capabilities. Returns the revisions' local names. */
function printServerOptions(f: Printer, model: UserModel): string[] {
  // Object literals keep every key as an own property (`__proto__` included): see json-literal.ts.
  const json = jsonLiteral;
  const { revisions, instructions, ...info } = model.server;
  const locals = revisions ? revisionLocals(f, model, revisions) : [];
  const serverOptions = [
    `info: ${json(info)}`,
    ...(instructions !== undefined ? [`instructions: ${json(instructions)}`] : []),
    // The manifest's revisions, or every built-in one when it names none: the server always gets them as values.
    revisions
      ? `revisions: [${locals.map((l) => `${l}.revision`).join(", ")}]`
      : `revisions: ${f.use(runtime.builtinRevisions)}`,
    `capabilities: ${wireCapabilities(model)}`,
  ];
  f.print("/** Server info, instructions, revisions and capability switches from the manifest. */");
  f.print("export const serverOptions: ", typeUse(runtime.ServerOptions), ` = { ${serverOptions.join(", ")} };`);
  f.print("");
  return locals;
}

/**
 * MCP Apps: a tool's `_meta.ui` (its view's URI and visibility as declared), and the deprecated flat
 * `ui/resourceUri` beside it, which hosts written before `_meta.ui` still read.
 */
function toolUiMeta(ui: UserToolUi): Record<string, unknown> {
  const inner = {
    ...(ui.resourceUri !== undefined ? { resourceUri: ui.resourceUri } : {}),
    ...(ui.visibility ? { visibility: ui.visibility } : {}),
  };
  return { ui: inner, ...(ui.resourceUri !== undefined ? { "ui/resourceUri": ui.resourceUri } : {}) };
}

/** `jsonSchemas` (every tool schema verbatim), `toolDefinitions` (`tools/list`) and `toolScopes`. */
function printToolDefinitions(f: Printer, model: UserModel): void {
  const json = jsonLiteral;
  const schemas = toolSchemas(model);
  const keys = schemas.length > 0 ? schemas.map((s) => JSON.stringify(s.typeName)).join(" | ") : "never";
  const tools = model.tools.map((t) => {
    const fields = [
      `name: ${json(t.name)}`,
      ...(t.title !== undefined ? [`title: ${json(t.title)}`] : []),
      ...(t.description !== undefined ? [`description: ${json(t.description)}`] : []),
      `inputSchema: ${jsonSchemaConst(t.input.typeName)}`,
      ...(t.output ? [`outputSchema: ${jsonSchemaConst(t.output.typeName)}`] : []),
      ...(t.annotations ? [`annotations: ${json(t.annotations)}`] : []),
      ...(t.icons ? [`icons: ${json(t.icons)}`] : []),
      ...Object.entries(t.fields).map(([key, value]) => `${propertyKey(key)}: ${json(value)}`),
      ...(t.ui ? [`_meta: ${json(toolUiMeta(t.ui))}`] : []),
    ];
    return `{ ${fields.join(", ")} }`;
  });
  const scopes = Object.fromEntries(model.tools.filter((t) => t.scopes.length > 0).map((t) => [t.name, t.scopes]));
  const jsonText = JSON.stringify(Object.fromEntries(schemas.map((s) => [s.typeName, s.json])), null, 2);
  f.print("/**");
  f.print(
    " * Every tool schema as the manifest declares it, by type name; served unchanged. Parsed from JSON text: every key",
  );
  f.print(
    " * stays an own property (`__proto__` too, which an object literal would turn into a prototype), and a user's tsc",
  );
  f.print(" * has no object literal to check.");
  f.print(" */");
  f.print(
    `export const jsonSchemas: Readonly<Record<${keys}, `,
    typeUse(runtime.ToolInputSchema),
    `>> = JSON.parse(${templateLiteral(jsonText)});`,
  );
  f.print("");
  f.print("/** `tools/list`, in manifest order. */");
  f.print(
    "export const toolDefinitions: readonly ",
    definitionType(model, runtime.ToolDefinition),
    `[] = [${tools.join(",\n")}];`,
  );
  f.print("");
  f.print(
    "/** Required OAuth scopes per tool (manifest `scopes`); `createServer` registers them and HTTP bearer auth enforces them. */",
  );
  f.print(`export const toolScopes: Readonly<Record<string, readonly string[]>> = ${json(scopes)};`);
  f.print("");
}

/** The resource, template and prompt definitions, by the key `ServerHandlers` uses (so server.ts names each). */
function printKeyedDefinitions(f: Printer, model: UserModel): void {
  const keyed = (entries: readonly [string, unknown][]) => ({
    keys: entries.length > 0 ? entries.map(([key]) => JSON.stringify(key)).join(" | ") : "never",
    value: jsonLiteral(Object.fromEntries(entries)),
  });
  const listed: [string, string, (typeof runtime)["ToolDefinition"], ReturnType<typeof keyed>][] = [
    [
      "resourceDefinitions",
      "`resources/list` entries by URI",
      runtime.ResourceDefinition,
      keyed(model.resources.map((r) => [r.uri, r.descriptor])),
    ],
    [
      "resourceTemplateDefinitions",
      "`resources/templates/list` entries by name",
      runtime.ResourceTemplateDefinition,
      keyed(model.resourceTemplates.map((t) => [t.name, t.descriptor])),
    ],
    [
      "promptDefinitions",
      "`prompts/list` entries by name",
      runtime.PromptDefinition,
      keyed(model.prompts.map((p) => [p.name, p.descriptor])),
    ],
  ];
  for (const [name, doc, symbol, { keys, value }] of listed) {
    f.print(`/** ${doc} (\`createServer\` registers them in manifest order). */`);
    f.print(`export const ${name}: Readonly<Record<${keys}, `, definitionType(model, symbol), `>> = ${value};`);
    f.print("");
  }
}

/**
 * The manifest's capability switches as a capabilities object merged over the ones the runtime derives from the
 * registrations. `logging: undefined` removes the runtime's default logging capability.
 */
function wireCapabilities(model: UserModel): string {
  const { tools, resources, prompts, completions, logging, ...declared } = model.capabilities;
  const entries = [
    ...(tools ? [`tools: ${JSON.stringify(tools)}`] : []),
    ...(resources ? [`resources: ${JSON.stringify(resources)}`] : []),
    ...(prompts ? [`prompts: ${JSON.stringify(prompts)}`] : []),
    ...(completions ? ["completions: {}"] : []),
    `logging: ${logging ? "{}" : "undefined"}`,
    // Capabilities a served revision declares, as the manifest writes them.
    ...Object.entries(declared).map(([name, value]) => `${propertyKey(name)}: ${jsonLiteral(value)}`),
  ];
  return `{ ${entries.join(", ")} }`;
}
