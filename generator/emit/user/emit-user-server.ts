/**
 * `UserModel` → `server.ts`: the typed handler interface (`ServerHandlers`) and `createServer`, a facade over the
 * runtime's `McpServer` given the revision descriptors `definitions.ts` names: the manifest's, or every built-in one
 * (`builtinRevisions`) when the manifest names none. So a bundle of a generated server holds exactly the bindings of
 * the revisions it serves, and there is one construction for both cases. The result types and the tool
 * registration (validation, output check, scopes) come from the runtime (`runtime/server/typed-tools.ts`); every
 * runtime name is printed as a symbol, so the file imports exactly what it uses (projects with `noUnusedLocals`
 * compile it).
 */
import type { UserModel, UserPrompt, UserResourceTemplate, UserTool } from "../../manifest/user-model.ts";
import { typeUse, type Printable, type Printer } from "../printer.ts";
import { runtime } from "../runtime-symbols.ts";
import { emitDescription, memberAccess, propertyKey } from "../ts-types.ts";
import { createUserPrinter, D, K, S, T, V } from "./user-printer.ts";

interface Member {
  readonly doc: string;
  readonly signature: Printable;
}

const Context = typeUse(runtime.RequestContext);
const Awaitable = typeUse(runtime.Awaitable);
const ReadResourceResult = typeUse(runtime.ReadResourceResult);
const t = (name: string): Printable => [typeUse(T), ".", name];

/** What a handler of a tool that may run as a task can do there (the manifest's `task`). */
const TASK_DOC: Readonly<Record<UserTool["task"], string | undefined>> = {
  forbidden: undefined,
  optional: "May run as a task (when the request declares the Tasks extension)",
  required: "Runs as a task (a request that does not declare the Tasks extension gets -32021)",
};

function toolMember(tool: UserTool): Member {
  const result: Printable = tool.output
    ? [typeUse(runtime.StructuredToolResult), "<", t(tool.output.typeName), ">"]
    : typeUse(runtime.ContentToolResult);
  const task = TASK_DOC[tool.task];
  const description = tool.description ?? tool.title;
  return {
    doc: emitDescription(
      task === undefined
        ? description
        : `${description ? `${description}\n\n` : ""}${task}: \`context.reportProgress\` sets the task's statusMessage, \`context.elicit\` asks the client through the task, and \`context.signal\` aborts when the task is cancelled.`,
    ),
    signature: handlerSignature(propertyKey(tool.name), [["input", t(tool.input.typeName)]], result),
  };
}

/** `key(param: Type, …, context: RequestContext): Awaitable<result>`: one handler of the interface. */
function handlerSignature(key: string, params: readonly [string, Printable][], result: Printable): Printable {
  return [
    key,
    "(",
    params.map(([name, type]) => [`${name}: `, type, ", "]),
    "context: ",
    Context,
    "): ",
    Awaitable,
    "<",
    result,
    ">",
  ];
}

/** `, complete: { city: handlers.completions.resourceTemplates.city_forecast.city }` for the completable names. */
function completers(path: string, names: readonly string[]): string {
  if (names.length === 0) return "";
  return `, complete: { ${names.map((n) => `${propertyKey(n)}: ${memberAccess(path, n)}`).join(", ")} }`;
}

function templateRegistration(t: UserResourceTemplate): Printable {
  const completable = t.variables.filter((v) => v.completion).map((v) => v.name);
  return [
    "server.resourceTemplate<",
    typeUse(T),
    `.${t.variablesTypeName}>(`,
    D,
    `${memberAccess(".resourceTemplateDefinitions", t.name)}, (uri, variables, context) => `,
    `${memberAccess("handlers.resourceTemplates", t.name)}(variables, uri, context), { variables: `,
    S,
    `.${t.variablesTypeName}Schema${completers(memberAccess("handlers.completions.resourceTemplates", t.name), completable)} });`,
  ];
}

function promptRegistration(p: UserPrompt): Printable {
  const completable = p.arguments.filter((a) => a.completion).map((a) => a.name);
  const complete = completable.length
    ? `, complete: { ${completable.map((n) => `${propertyKey(n)}: ${memberAccess(memberAccess("handlers.completions.prompts", p.name), n)}`).join(", ")} }`
    : "";
  return [
    "server.prompt<",
    t(p.argumentsTypeName),
    ">(",
    D,
    `${memberAccess(".promptDefinitions", p.name)}, (args, context) => `,
    `${memberAccess("handlers.prompts", p.name)}(args, context), { arguments: `,
    S,
    `.${p.argumentsTypeName}Schema${complete} });`,
  ];
}

function completionMembers(model: UserModel): Member[] {
  const Completer = typeUse(runtime.Completer);
  const group = (items: { name: string; names: string[] }[]): Printable[] =>
    items
      .filter((i) => i.names.length > 0)
      .map((i) => [
        `${propertyKey(i.name)}: { `,
        i.names.map((n) => [`readonly ${propertyKey(n)}: `, Completer, "; "]),
        "}",
      ]);
  const joined = (parts: Printable[]): Printable => parts.map((p, i) => (i === 0 ? p : ["; ", p]));
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
      ? [
          {
            doc: emitDescription("Completers of prompt arguments."),
            signature: ["readonly prompts: { ", joined(prompts), " }"],
          },
        ]
      : []),
    ...(templates.length
      ? [
          {
            doc: emitDescription("Completers of resource template variables."),
            signature: ["readonly resourceTemplates: { ", joined(templates), " }"],
          },
        ]
      : []),
  ];
}

function sections(model: UserModel): { name: string; members: Member[] }[] {
  return [
    { name: "tools", members: model.tools.map(toolMember) },
    {
      name: "resources",
      members: model.resources.map((r) => ({
        doc: emitDescription(r.descriptor["description"]),
        signature: handlerSignature(JSON.stringify(r.uri), [["uri", "string"]], ReadResourceResult),
      })),
    },
    {
      name: "resourceTemplates",
      members: model.resourceTemplates.map((rt) => ({
        doc: emitDescription(rt.descriptor["description"]),
        signature: handlerSignature(
          propertyKey(rt.name),
          [
            ["variables", t(rt.variablesTypeName)],
            ["uri", "string"],
          ],
          ReadResourceResult,
        ),
      })),
    },
    {
      name: "prompts",
      members: model.prompts.map((p) => ({
        doc: emitDescription(p.descriptor["description"]),
        signature: handlerSignature(
          propertyKey(p.name),
          [["args", t(p.argumentsTypeName)]],
          typeUse(runtime.GetPromptResult),
        ),
      })),
    },
    { name: "completions", members: completionMembers(model) },
    { name: "methods", members: model.methods.map(methodMember) },
  ].filter((s) => s.members.length > 0);
}

function registrations(model: UserModel): Printable[] {
  return [
    ...(model.tools.length > 0
      ? [
          [
            runtime.registerTypedTools,
            "(server, handlers.tools, { definitions: ",
            D,
            ".toolDefinitions, validators: ",
            S,
            ".toolValidators, scopes: ",
            D,
            ".toolScopes",
            // Tasks extension: the tools that may run as tasks, by name.
            ...(model.tasks
              ? [
                  ", extensions: ",
                  runtime.taskTools,
                  "(",
                  JSON.stringify(
                    Object.fromEntries(model.tools.filter((t) => t.task !== "forbidden").map((t) => [t.name, t.task])),
                  ),
                  ")",
                ]
              : []),
            " });",
          ],
        ]
      : []),
    ...model.resources.map((r): Printable => [
      "server.resource(",
      D,
      `${memberAccess(".resourceDefinitions", r.uri)}, (uri, context) => ${memberAccess("handlers.resources", r.uri)}(uri, context));`,
    ]),
    ...model.resourceTemplates.map(templateRegistration),
    ...model.prompts.map(promptRegistration),
    ...model.methods.map((m): Printable => [
      "server.setRequestHandler(",
      D,
      `.methodTokens[${JSON.stringify(m.method)}], (params, context) => `,
      `${memberAccess("handlers.methods", m.method)}(params, context));`,
    ]),
  ];
}

/** `skills({ … })`: the generated catalog and its embedded files, with the options' additions and overrides. */
function skillsExtension(): Printable {
  return [
    runtime.skills,
    "({ directoryRead: ",
    K,
    ".skillsDirectoryRead, ...options.skills, skills: [...",
    K,
    ".skillCatalog, ...(options.skills?.skills ?? [])], load: options.skills?.load ?? ",
    runtime.embeddedSkillFiles,
    "(",
    K,
    ".skillFiles) }), ",
  ];
}

/** A request a listed revision adds: typed by its method token (params in, complete result out). */
function methodMember(m: UserModel["methods"][number]): Member {
  return {
    doc: emitDescription(m.doc),
    signature: [
      `readonly ${propertyKey(m.method)}: `,
      typeUse(runtime.ServerRequestHandler),
      "<(typeof ",
      typeUse(D),
      `.methodTokens)[${JSON.stringify(m.method)}]>`,
    ],
  };
}

function printHandlers(f: Printer, model: UserModel): void {
  f.print(
    model.methods.length === 0
      ? "/** The handlers this server needs: one per tool, resource, resource template and prompt of the manifest. */"
      : "/** The handlers this server needs: one per tool, resource, template and prompt, and per request a revision adds. */",
  );
  f.print("export interface ServerHandlers {");
  for (const section of sections(model)) {
    f.print(`  readonly ${section.name}: {`);
    for (const member of section.members) f.print("    ", member.doc, member.signature, ";");
    f.print("  };");
  }
  f.print("}");
}

export function emitUserServerFile(model: UserModel, header: string): string {
  const f = createUserPrinter(model);
  printHandlers(f, model);
  f.print("");
  f.print(
    "/** Options of `createServer`: info and revisions override the manifest's, capabilities merge over its switches. */",
  );
  f.print("export type CreateServerOptions = Partial<Omit<", typeUse(runtime.ServerOptions), ', "revisions">> & {');
  f.print(
    "  /** Revisions served instead of the manifest's, as descriptors (`revision` of `<runtime>/protocol/<name>`). */",
  );
  f.print("  readonly revisions?: readonly ", typeUse(runtime.RevisionDescriptor), "[];");
  if (model.tasks) {
    f.print("  /** The Tasks extension's options: the task store, TTL and poll interval. */");
    f.print("  readonly tasks?: ", typeUse(runtime.TasksOptions), ";");
  }
  if (model.skills) {
    f.print("  /**");
    f.print(
      "   * The Skills extension's options: skills from code (served besides the manifest's), another loader of the",
    );
    f.print("   * files' bytes (default: the embedded `skillFiles`), page size, cache hints.");
    f.print("   */");
    f.print("  readonly skills?: Partial<", typeUse(runtime.SkillsOptions), ">;");
  }
  f.print("};");
  f.print("");
  f.print("/**");
  f.print(
    " * Builds a runtime server from the handlers. Inputs are validated before a handler runs; structured outputs are",
  );
  f.print(
    " * validated against the tool's `outputSchema` after it returns; tools carry their manifest `scopes` for HTTP auth.",
  );
  f.print(" */");
  f.print(
    // A manifest with nothing to handle (skills only, say) leaves the handlers unread: `_` keeps noUnusedParameters quiet.
    `export function createServer(${registrations(model).length > 0 ? "handlers" : "_handlers"}: ServerHandlers, options: CreateServerOptions = {}): `,
    typeUse(runtime.McpServer),
    " {",
  );
  // Tasks extension: served (besides any the options list) when a tool may run as a task; MCP Apps when there are
  // views; Skills when the manifest names skill folders.
  const served: Printable[] = [
    ...(model.tasks ? [[runtime.tasks, "(options.tasks), "]] : []),
    ...(model.views.length > 0 ? [[runtime.apps, "(), "]] : []),
    ...(model.skills ? [skillsExtension()] : []),
  ];
  const extensions: Printable = served.length > 0 ? ["extensions: [", served, "...(options.extensions ?? [])], "] : "";
  f.print(
    "  const server = new ",
    runtime.McpServer,
    "({ ...",
    D,
    ".serverOptions, ...options, ",
    extensions,
    "capabilities: ",
    runtime.layerCapabilities,
    "(",
    D,
    ".serverOptions.capabilities, options.capabilities) });",
  );
  for (const statement of registrations(model)) f.print("  ", statement);
  if (model.views.length > 0) f.print("  ", runtime.serveViews, "(server, ", V, ".views);");
  f.print("  return server;");
  f.print("}");
  return f.render(header);
}
