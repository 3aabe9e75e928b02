/**
 * The agent-facing surface of an imported server: `api.d.ts`, one compact declaration file with the server's
 * instructions, every input/output type (descriptions as doc comments) and an `Api` interface whose members are
 * the typed client's (`tools.<member>(input)`, resources, templates, prompts) without call options. The generated
 * typed client is assignable to `Api`, so code an agent writes against it type-checks before it runs. Its size is
 * reported as an estimate of tokens (characters / 4: no tokenizer is shipped).
 */
import type { UserModel } from "../manifest/user-model.ts";
import { createPrinter, typeUse, type Printable } from "../emit/printer.ts";
import { runtime } from "../emit/runtime-symbols.ts";
import { emitDescription, emitTypeDeclaration, propertyKey } from "../emit/ts-types.ts";

export const AGENT_SURFACE_FILE = "api.d.ts";

/** A rough token count of `text` (about four characters per token for English and code). */
export function estimatedTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

function member(doc: string, signature: Printable): Printable[] {
  return doc ? [doc.trimEnd(), "\n", signature, ";"] : [signature, ";"];
}

function sections(model: UserModel): [string, Printable[][]][] {
  const input = (optional: boolean, name: string, type: string): Printable => `${name}${optional ? "?" : ""}: ${type}`;
  return [
    [
      "tools",
      model.tools.map((t) =>
        member(emitDescription(t.description ?? t.title), [
          propertyKey(t.member),
          "(",
          input(t.inputOptional, "input", t.input.typeName),
          "): Promise<",
          ...(t.output
            ? [typeUse(runtime.StructuredToolCall), `<${t.output.typeName}>`]
            : [typeUse(runtime.CallToolResult)]),
          ">",
        ]),
      ),
    ],
    [
      "resources",
      model.resources.map((r) =>
        member(emitDescription(r.descriptor["description"]), [
          JSON.stringify(r.uri),
          "(): Promise<",
          typeUse(runtime.ReadResourceResult),
          ">",
        ]),
      ),
    ],
    [
      "resourceTemplates",
      model.resourceTemplates.map((r) =>
        member(emitDescription(r.descriptor["description"]), [
          propertyKey(r.member),
          "(",
          input(r.variablesOptional, "variables", r.variablesTypeName),
          "): Promise<",
          typeUse(runtime.ReadResourceResult),
          ">",
        ]),
      ),
    ],
    [
      "prompts",
      model.prompts.map((p) =>
        member(emitDescription(p.descriptor["description"]), [
          propertyKey(p.member),
          "(",
          input(p.argumentsOptional, "args", p.argumentsTypeName),
          "): Promise<",
          typeUse(runtime.GetPromptResult),
          ">",
        ]),
      ),
    ],
  ];
}

/** The text of `api.d.ts` (unformatted) for a manifest's model. */
export function emitAgentSurface(model: UserModel, header: string): string {
  const p = createPrinter({ runtime: () => model.runtimeImport, siblingExtension: "" });
  for (const decl of model.types) p.print(emitTypeDeclaration(decl));
  const about = model.server.instructions ?? model.server.description ?? model.server.title;
  p.print(emitDescription(about) || `/** Server ${JSON.stringify(model.server.name)}. */`);
  p.print("export interface Api {");
  for (const [name, members] of sections(model)) {
    if (members.length === 0) continue;
    p.print(`  readonly ${name}: {`);
    for (const m of members) p.print(m);
    p.print("  };");
  }
  p.print("}");
  return p.render(header);
}
