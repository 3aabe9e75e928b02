/**
 * `UserModel` → `server.ts`: the typed handler interface (`ServerHandlers`) and `createServer`, a facade over the
 * runtime's `McpServer`. Every decision (which sections exist, which tools are structured, signatures, the
 * registration statements) is taken here; `templates/user/server.ts.hbs` only loops. The result types and the tool
 * registration (validation, output check, scopes) come from the runtime (`runtime/server/typed-tools.ts`).
 */
import type { UserModel, UserPrompt, UserResourceTemplate, UserTool } from "../../manifest/user-model.ts";
import { emitDoc, propertyKey } from "../ts-types.ts";
import { runtimeImportLine, siblingImport } from "./runtime-import.ts";
import { renderTemplate } from "./render-template.ts";

interface Member {
  readonly doc: string;
  readonly signature: string;
}
interface Section {
  readonly name: string;
  readonly members: readonly Member[];
}

/** `handlers.tools.get_forecast` / `handlers.tools["get.forecast"]`. */
export function memberAccess(base: string, key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

function doc(text: string | undefined): string {
  return text ? emitDoc({ text }) : "";
}

function toolMember(tool: UserTool): Member {
  const result = tool.output ? `StructuredToolResult<T.${tool.output.typeName}>` : "ContentToolResult";
  return {
    doc: doc(tool.description ?? tool.title),
    signature: `${propertyKey(tool.name)}(input: T.${tool.input.typeName}, context: RequestContext): Awaitable<${result}>`,
  };
}

/** `{ city: handlers.completions.resourceTemplates.city_forecast.city }` for the completable names. */
function completers(path: string, names: readonly string[]): string {
  if (names.length === 0) return "";
  return `, { complete: { ${names.map((n) => `${propertyKey(n)}: ${memberAccess(path, n)}`).join(", ")} } }`;
}

function templateRegistration(t: UserResourceTemplate, index: number): string {
  const completable = t.variables.filter((v) => v.completion).map((v) => v.name);
  return (
    `server.resourceTemplate(D.resourceTemplateDefinitions[${index}]!, (uri, variables, context) => ` +
    `${memberAccess("handlers.resourceTemplates", t.name)}(S.${t.variablesTypeName}Schema.parse(variables), uri, context)` +
    `${completers(memberAccess("handlers.completions.resourceTemplates", t.name), completable)});`
  );
}

function promptRegistration(p: UserPrompt, index: number): string {
  const completable = p.arguments.filter((a) => a.completion).map((a) => a.name);
  const complete = completable.length
    ? `, complete: { ${completable.map((n) => `${propertyKey(n)}: ${memberAccess(memberAccess("handlers.completions.prompts", p.name), n)}`).join(", ")} }`
    : "";
  return (
    `server.prompt<T.${p.argumentsTypeName}>(D.promptDefinitions[${index}]!, (args, context) => ` +
    `${memberAccess("handlers.prompts", p.name)}(args, context), { arguments: S.${p.argumentsTypeName}Schema${complete} });`
  );
}

function completionMembers(model: UserModel): Member[] {
  const group = (items: { name: string; names: string[] }[]) =>
    items
      .filter((i) => i.names.length > 0)
      .map(
        (i) => `${propertyKey(i.name)}: { ${i.names.map((n) => `readonly ${propertyKey(n)}: Completer;`).join(" ")} }`,
      );
  const prompts = group(
    model.prompts.map((p) => ({ name: p.name, names: p.arguments.filter((a) => a.completion).map((a) => a.name) })),
  );
  const templates = group(
    model.resourceTemplates.map((t) => ({
      name: t.name,
      names: t.variables.filter((v) => v.completion).map((v) => v.name),
    })),
  );
  return [
    ...(prompts.length
      ? [{ doc: doc("Completers of prompt arguments."), signature: `readonly prompts: { ${prompts.join("; ")} }` }]
      : []),
    ...(templates.length
      ? [
          {
            doc: doc("Completers of resource template variables."),
            signature: `readonly resourceTemplates: { ${templates.join("; ")} }`,
          },
        ]
      : []),
  ];
}

export function serverView(model: UserModel, header: string): object {
  const sections: Section[] = [
    { name: "tools", members: model.tools.map(toolMember) },
    {
      name: "resources",
      members: model.resources.map((r) => ({
        doc: doc(r.descriptor["description"] as string | undefined),
        signature: `${JSON.stringify(r.uri)}(uri: string, context: RequestContext): Awaitable<ReadResourceResult>`,
      })),
    },
    {
      name: "resourceTemplates",
      members: model.resourceTemplates.map((t) => ({
        doc: doc(t.descriptor["description"] as string | undefined),
        signature:
          `${propertyKey(t.name)}(variables: T.${t.variablesTypeName}, uri: string, context: RequestContext): ` +
          "Awaitable<ReadResourceResult>",
      })),
    },
    {
      name: "prompts",
      members: model.prompts.map((p) => ({
        doc: doc(p.descriptor["description"] as string | undefined),
        signature: `${propertyKey(p.name)}(args: T.${p.argumentsTypeName}, context: RequestContext): Awaitable<GetPromptResult>`,
      })),
    },
    { name: "completions", members: completionMembers(model) },
  ].filter((s) => s.members.length > 0);
  const registrations = [
    ...(model.tools.length > 0
      ? [
          "registerTypedTools(server, handlers.tools, " +
            "{ definitions: D.toolDefinitions, validators: S.toolValidators, scopes: D.toolScopes });",
        ]
      : []),
    ...model.resources.map(
      (r, i) =>
        `server.resource(D.resourceDefinitions[${i}]!, (uri, context) => ${memberAccess("handlers.resources", r.uri)}(uri, context));`,
    ),
    ...model.resourceTemplates.map(templateRegistration),
    ...model.prompts.map(promptRegistration),
  ].map((statement) => ({ statement }));
  return { header, imports: serverImports(model, sections).map((line) => ({ line })), sections, registrations };
}

/** Only what the file uses, so projects with `noUnusedLocals` compile it too. */
function serverImports(model: UserModel, sections: readonly Section[]): string[] {
  const has = (name: string) => sections.some((s) => s.name === name);
  const tools = model.tools.length > 0;
  const runtimeValues = ["McpServer", ...(tools ? ["registerTypedTools"] : [])];
  const runtimeTypes = [
    ...(sections.length > 0 ? ["Awaitable"] : []),
    ...(has("completions") ? ["Completer"] : []),
    ...(model.tools.some((t) => !t.output) ? ["ContentToolResult"] : []),
    ...(has("prompts") ? ["GetPromptResult"] : []),
    ...(has("resources") || has("resourceTemplates") ? ["ReadResourceResult"] : []),
    ...(sections.length > 0 ? ["RequestContext"] : []),
    "ServerOptions",
    ...(model.tools.some((t) => t.output) ? ["StructuredToolResult"] : []),
  ];
  const validated = model.tools.length + model.resourceTemplates.length + model.prompts.length > 0;
  return [
    ...runtimeImportLine(model, runtimeValues, runtimeTypes),
    `import * as D from ${siblingImport(model, "definitions")};`,
    ...(validated ? [`import * as S from ${siblingImport(model, "schemas")};`] : []),
    ...(sections.length > 0 ? [`import type * as T from ${siblingImport(model, "types")};`] : []),
  ];
}

export function emitUserServerFile(model: UserModel, header: string): string {
  return renderTemplate("user/server.ts.hbs", serverView(model, header));
}
