/**
 * The printer collects imports from the symbols printed (generator/emit/printer.ts), and the runtime symbol table
 * (generator/emit/runtime-symbols.ts) names only what the runtime really exports, from the entry it says.
 */
import { describe, expect, it } from "vitest";
import * as core from "../../../runtime/index.ts";
import * as methodType from "../../../runtime/protocol/method-type.ts";
import * as zodHelpers from "../../../runtime/protocol/zod-helpers.ts";
import * as tasks from "../../../runtime/tasks/index.ts";
import * as apps from "../../../runtime/apps/index.ts";
import * as skills from "../../../runtime/skills/index.ts";
import { createPrinter, typeUse, type RuntimeEntry } from "../../../generator/emit/printer.ts";
import { runtime, sibling, zod } from "../../../generator/emit/runtime-symbols.ts";

const split = {
  core: "rt",
  "method-type": "rt/method-type",
  "zod-helpers": "rt/zod-helpers",
  tasks: "rt/tasks",
  apps: "rt/apps",
  skills: "rt/skills",
} as const;
const printer = (entries: Readonly<Record<RuntimeEntry, string>> = split) =>
  createPrinter({ runtime: (entry) => entries[entry], siblingExtension: ".js" });

describe("printer", () => {
  it("imports exactly what was printed: grouped (zod, runtime, siblings), sorted, values before types, once each", () => {
    const f = printer();
    const T = sibling("T", "types");
    const S = sibling("S", "schemas");
    f.print("const a = ", runtime.optionalKey, "(", S, ".X);");
    f.print("let b: ", typeUse(T), ".Y = ", runtime.openObject, "(", zod, ".object({}));");
    f.print("let c: ", typeUse(runtime.McpServer), " = new ", runtime.McpServer, "();");
    f.print("let d: ", runtime.ServerOptions, ";");
    f.print("let e: ", typeUse(runtime.MethodTable), ";");
    f.print("const again = ", runtime.optionalKey, ";");
    expect(f.render("// header\n\n")).toBe(
      [
        "// header",
        "",
        'import * as z from "zod/mini";',
        'import { McpServer, type ServerOptions } from "rt";',
        'import type { MethodTable } from "rt/method-type";',
        'import { openObject, optionalKey } from "rt/zod-helpers";',
        'import * as S from "./schemas.js";',
        'import type * as T from "./types.js";',
        "",
        "const a = optionalKey(S.X);",
        "let b: T.Y = openObject(z.object({}));",
        "let c: McpServer = new McpServer();",
        "let d: ServerOptions;",
        "let e: MethodTable;",
        "const again = optionalKey;",
        "",
      ].join("\n"),
    );
  });

  it("merges symbols of entries that resolve to one specifier (a manifest's files import the core entry only)", () => {
    const f = printer({
      core: "rt",
      "method-type": "rt",
      "zod-helpers": "rt",
      tasks: "rt/tasks",
      apps: "rt/apps",
      skills: "rt/skills",
    });
    f.print(runtime.ownKeys, typeUse(runtime.ObjectSchema), runtime.jsonSchemaCheck, typeUse(runtime.Completer));
    expect(f.render("")).toBe(
      'import { jsonSchemaCheck, ownKeys, type Completer, type ObjectSchema } from "rt";\n\nownKeysObjectSchemajsonSchemaCheckCompleter\n',
    );
  });

  it("prints no import section when nothing is imported, and the imports right after the header", () => {
    const plain = printer();
    plain.print("export type A = string;");
    expect(plain.render("// h\n")).toBe("// h\nexport type A = string;\n");
    const withImports = printer();
    withImports.print(zod, ".string()");
    expect(withImports.render("// h\n")).toBe('// h\nimport * as z from "zod/mini";\n\nz.string()\n');
  });

  it("orders by code unit, not by locale", () => {
    const f = printer();
    f.print(runtime.callTool, runtime.McpServer, runtime.callStructured);
    expect(f.render("").split("\n")[0]).toBe('import { McpServer, callStructured, callTool } from "rt";');
  });
});

describe("runtime symbol table", () => {
  const modules: Record<RuntimeEntry, Record<string, unknown>> = {
    core: core,
    "method-type": methodType,
    "zod-helpers": zodHelpers,
    tasks: tasks,
    apps: apps,
    skills: skills,
  };
  const values = Object.values(runtime).filter((s) => s.typeOnly !== true);

  it.each(values.map((s) => [s.name, s] as const))("%s is exported as a value by its entry", (_name, symbol) => {
    if (symbol.from.kind !== "runtime") throw new Error("not a runtime symbol");
    expect(modules[symbol.from.entry][symbol.name]).toBeDefined();
  });

  it("every zod helper is also exported by the core entry (a manifest's files import only that)", () => {
    for (const symbol of values.filter((s) => s.from.kind === "runtime" && s.from.entry === "zod-helpers"))
      expect((core as Record<string, unknown>)[symbol.name], symbol.name).toBe(
        zodHelpers[symbol.name as keyof typeof zodHelpers],
      );
  });
});

// Type-only entries are checked by tsc: each must name an exported type of its entry.
type CoreTypes = [
  core.Awaitable<1>,
  core.Completer,
  core.ContentToolResult,
  core.GetPromptResult,
  core.ReadResourceResult,
  core.RequestContext,
  core.ServerOptions,
  core.StructuredToolResult<1>,
  core.TypedToolValidators,
  core.ToolInputSchema,
  core.ToolDefinition,
  core.ResourceDefinition,
  core.ResourceTemplateDefinition,
  core.PromptDefinition,
  core.CallOptions,
  core.CallToolResult,
  core.StructuredToolCall<1>,
  core.ObjectSchema<1>,
  methodType.MethodTable,
  methodType.RevisionDescriptor,
  zodHelpers.ObjectSchema<1>,
  tasks.TasksOptions,
  tasks.TaskHandle<1>,
];
export type { CoreTypes };
