/**
 * `UserModel` → `client.ts`: `TypedClient` (one typed method per tool, resource, template and prompt) and
 * `createClient`, a facade over the runtime's `McpClient`. Decisions here; `templates/user/client.ts.hbs` loops.
 * Calls go through the runtime's typed helpers (`runtime/client/typed-tools.ts`), with explicit type arguments so
 * tsc infers nothing from the validators.
 * Resource templates are expanded by the runtime's `expandUriTemplate` (RFC 6570, all four levels), so generated
 * code imports nothing but the runtime, zod and its own files.
 */
import type { UserModel, UserTool } from "../../manifest/user-model.ts";
import { emitDoc, propertyKey } from "../ts-types.ts";
import { runtimeImportLine, siblingImport } from "./runtime-import.ts";
import { renderTemplate } from "./render-template.ts";

interface Entry {
  readonly doc: string;
  readonly signature: string;
  readonly code: string;
}

function doc(text: unknown): string {
  return typeof text === "string" && text ? emitDoc({ text }) : "";
}

function toolEntry(tool: UserTool): Entry {
  const key = propertyKey(tool.name);
  const name = JSON.stringify(tool.name);
  const input = `T.${tool.input.typeName}`;
  if (tool.output) {
    return {
      doc: doc(tool.description ?? tool.title),
      signature: `${key}(input: ${input}, options?: CallOptions): Promise<StructuredToolCall<T.${tool.output.typeName}>>`,
      code: `${key}: (input, options) => callStructured<T.${tool.output.typeName}>(client, ${name}, input, S.${tool.output.typeName}Schema, options)`,
    };
  }
  return {
    doc: doc(tool.description ?? tool.title),
    signature: `${key}(input: ${input}, options?: CallOptions): Promise<CallToolResult>`,
    code: `${key}: (input, options) => callTool(client, ${name}, input, options)`,
  };
}

export function clientView(model: UserModel, header: string): object {
  const sections = [
    { name: "tools", entries: model.tools.map(toolEntry) },
    {
      name: "resources",
      entries: model.resources.map((r) => ({
        doc: doc(r.descriptor["description"]),
        signature: `${JSON.stringify(r.uri)}(options?: CallOptions): Promise<ReadResourceResult>`,
        code: `${JSON.stringify(r.uri)}: (options) => client.readResource(${JSON.stringify(r.uri)}, options)`,
      })),
    },
    {
      name: "resourceTemplates",
      entries: model.resourceTemplates.map((t) => ({
        doc: doc(t.descriptor["description"]),
        signature: `${propertyKey(t.name)}(variables: T.${t.variablesTypeName}, options?: CallOptions): Promise<ReadResourceResult>`,
        code:
          `${propertyKey(t.name)}: (variables, options) => ` +
          `client.readResource(expandUriTemplate(${JSON.stringify(t.uriTemplate)}, { ...variables }), options)`,
      })),
    },
    {
      name: "prompts",
      entries: model.prompts.map((p) => ({
        doc: doc(p.descriptor["description"]),
        signature: `${propertyKey(p.name)}(args: T.${p.argumentsTypeName}, options?: CallOptions): Promise<GetPromptResult>`,
        code: `${propertyKey(p.name)}: (args, options) => getPrompt(client, ${JSON.stringify(p.name)}, args, options)`,
      })),
    },
  ].filter((s) => s.entries.length > 0);
  const runtimeValues = [
    ...(model.tools.some((t) => t.output) ? ["callStructured"] : []),
    ...(model.tools.some((t) => !t.output) ? ["callTool"] : []),
    ...(model.resourceTemplates.length > 0 ? ["expandUriTemplate"] : []),
    ...(model.prompts.length > 0 ? ["getPrompt"] : []),
  ];
  const runtimeTypes = [
    "CallOptions",
    ...(model.tools.some((t) => !t.output) ? ["CallToolResult"] : []),
    ...(model.prompts.length > 0 ? ["GetPromptResult"] : []),
    "McpClient",
    ...(model.resources.length + model.resourceTemplates.length > 0 ? ["ReadResourceResult"] : []),
    ...(model.tools.some((t) => t.output) ? ["StructuredToolCall"] : []),
  ];
  const imports = [
    ...runtimeImportLine(model, runtimeValues, runtimeTypes),
    ...(model.tools.some((t) => t.output) ? [`import * as S from ${siblingImport(model, "schemas")};`] : []),
    ...(sections.some((s) => s.name !== "resources") ? [`import type * as T from ${siblingImport(model, "types")};`] : []),
  ];
  return {
    header,
    imports: imports.map((line) => ({ line })),
    sections: sections.map((s) => ({
      name: s.name,
      members: s.entries.map((e) => ({ doc: e.doc, signature: e.signature })),
      implementations: s.entries.map((e) => ({ code: e.code })),
    })),
  };
}

export function emitUserClientFile(model: UserModel, header: string): string {
  return renderTemplate("user/client.ts.hbs", clientView(model, header));
}
