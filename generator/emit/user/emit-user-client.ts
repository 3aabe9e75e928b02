/**
 * `UserModel` → `client.ts`: `TypedClient` (one typed method per tool, resource, template and prompt) and
 * `createClient`, a facade over a connected runtime `McpClient` (given `builtinRevisions`, or only the revisions an
 * application speaks). Calls go through
 * the runtime's typed helpers (`runtime/client/typed-tools.ts`), with explicit type arguments so tsc infers nothing
 * from the validators.
 * A tool that may run as a task (manifest `task`) also has a task form under `tasks`, for a client that lists the
 * Tasks extension.
 * Resource templates are expanded by the runtime's `expandUriTemplate` (RFC 6570, all four levels), so generated
 * code imports nothing but the runtime, zod and its own files.
 */
import type { UserModel, UserTool } from "../../manifest/user-model.ts";
import { typeUse, type Printable, type Printer } from "../printer.ts";
import { runtime } from "../runtime-symbols.ts";
import { emitDescription, propertyKey } from "../ts-types.ts";
import { createUserPrinter, S, T } from "./user-printer.ts";

interface Entry {
  readonly doc: string;
  readonly signature: Printable;
  readonly code: Printable;
}

const Options = typeUse(runtime.CallOptions);
const ReadResourceResult = typeUse(runtime.ReadResourceResult);
const t = (name: string): Printable => [typeUse(T), ".", name];

/** `name: T.Type` or, when `{}` is a valid value, `name?: T.Type` (then `{}` is what is sent). */
function param(name: string, typeName: string, optional: boolean): { decl: Printable; value: string } {
  return optional
    ? { decl: [name, "?: ", t(typeName)], value: `${name} ?? {}` }
    : { decl: [name, ": ", t(typeName)], value: name };
}

/**
 * A tool's typed method: the direct call, or (`asTask`, for a tool whose manifest `task` is not `forbidden`) its task
 * form, which resolves to a `TaskHandle` whose `result()` is what the direct call resolves to.
 */
function toolEntry(tool: UserTool, asTask: boolean): Entry {
  const key = propertyKey(tool.member);
  const name = JSON.stringify(tool.name);
  const doc = emitDescription(tool.description ?? tool.title);
  const input = param("input", tool.input.typeName, tool.inputOptional);
  const head = [key, "(", input.decl, ", options?: ", Options, "): Promise<"];
  const handle = (result: Printable): Printable => (asTask ? [typeUse(runtime.TaskHandle), "<", result, ">"] : result);
  if (tool.output) {
    const output = tool.output.typeName;
    return {
      doc,
      signature: [head, handle([typeUse(runtime.StructuredToolCall), "<", t(output), ">"]), ">"],
      code: [
        `${key}: (input, options) => `,
        asTask ? runtime.callStructuredTask : runtime.callStructured,
        "<",
        t(output),
        `>(client, ${name}, ${input.value}, `,
        S,
        `.${output}Schema, options)`,
      ],
    };
  }
  return {
    doc,
    signature: [head, handle(typeUse(runtime.CallToolResult)), ">"],
    code: [
      `${key}: (input, options) => `,
      asTask ? runtime.callToolTask : runtime.callTool,
      `(client, ${name}, ${input.value}, options)`,
    ],
  };
}

function sections(model: UserModel): { name: string; entries: Entry[] }[] {
  return [
    { name: "tools", entries: model.tools.map((tool) => toolEntry(tool, false)) },
    // Tasks extension: the tools that may run as tasks, each resolving to its task's handle.
    {
      name: "tasks",
      entries: model.tools.filter((tool) => tool.task !== "forbidden").map((tool) => toolEntry(tool, true)),
    },
    {
      name: "resources",
      entries: model.resources.map((r) => ({
        doc: emitDescription(r.descriptor["description"]),
        signature: [JSON.stringify(r.uri), "(options?: ", Options, "): Promise<", ReadResourceResult, ">"],
        code: `${propertyKey(r.uri)}: (options) => client.readResource(${JSON.stringify(r.uri)}, options)`,
      })),
    },
    {
      name: "resourceTemplates",
      entries: model.resourceTemplates.map((r) => ({
        doc: emitDescription(r.descriptor["description"]),
        signature: [
          propertyKey(r.member),
          "(",
          param("variables", r.variablesTypeName, r.variablesOptional).decl,
          ", options?: ",
          Options,
          "): Promise<",
          ReadResourceResult,
          ">",
        ],
        code: [
          `${propertyKey(r.member)}: (variables, options) => client.readResource(`,
          runtime.expandUriTemplate,
          `(${JSON.stringify(r.uriTemplate)}, { ...variables }), options)`,
        ],
      })),
    },
    {
      name: "prompts",
      entries: model.prompts.map((p) => ({
        doc: emitDescription(p.descriptor["description"]),
        signature: [
          propertyKey(p.member),
          "(",
          param("args", p.argumentsTypeName, p.argumentsOptional).decl,
          ", options?: ",
          Options,
          "): Promise<",
          typeUse(runtime.GetPromptResult),
          ">",
        ],
        code: [
          `${propertyKey(p.member)}: (args, options) => `,
          runtime.getPrompt,
          `(client, ${JSON.stringify(p.name)}, ${param("args", p.argumentsTypeName, p.argumentsOptional).value}, options)`,
        ],
      })),
    },
  ].filter((s) => s.entries.length > 0);
}

function printClient(f: Printer, model: UserModel): void {
  const Client = typeUse(runtime.McpClient);
  const all = sections(model);
  f.print(
    "/** The manifest's tools, resources, resource templates and prompts as typed methods over a connected client. */",
  );
  f.print("export interface TypedClient {");
  for (const section of all) {
    f.print(`  readonly ${section.name}: {`);
    for (const entry of section.entries) f.print("    ", entry.doc, entry.signature, ";");
    f.print("  };");
  }
  f.print("  /** The untyped runtime client, for anything the manifest does not declare. */");
  f.print("  readonly raw: ", Client, ";");
  f.print("}");
  f.print("");
  f.print("/**");
  f.print(
    " * Wraps a connected runtime client. Inputs are typed; structured outputs are validated before they are returned.",
  );
  f.print(
    " * A tool's `isError` answer rejects with `ToolCallError` (its content kept), a protocol error with `RpcError`.",
  );
  f.print(" */");
  f.print("export function createClient(client: ", Client, "): TypedClient {");
  f.print("  return {");
  for (const section of all) {
    f.print(`    ${section.name}: {`);
    for (const entry of section.entries) f.print("      ", entry.code, ",");
    f.print("    },");
  }
  f.print("    raw: client,");
  f.print("  };");
  f.print("}");
}

export function emitUserClientFile(model: UserModel, header: string): string {
  const f = createUserPrinter(model);
  printClient(f, model);
  return f.render(header);
}
