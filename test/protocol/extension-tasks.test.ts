/**
 * An extension schema that imports its base revision: the Tasks extension (`.spec/extensions/tasks`, read in
 * place). `mcp-gen protocol` follows `import type { Error as JSONRPCErrorObject, … } from "./spec.types.js"`, finds
 * that the imported declarations are the built-in 2026-07-28 revision's (compared lowered), and writes the
 * extension's own declarations only: they refer to the 2026-07-28 bindings for the imported ones; tokens for the
 * extension's methods, and the `extension` descriptor naming the version it extends.
 *
 * Oracles independent of the lowering: the TypeScript compiler API lists the schema's exported declarations, its
 * imports and its `method` literals; the spec prose (extensions/tasks/tasks.md) says which methods are requests; the
 * spec's own types (schema.ts and spec.types.ts) are what the fidelity file holds the generated types to, with tsc.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { emitFidelityFile } from "../../generator/emit/fidelity.ts";
import { posixRelative } from "../../generator/pipeline/paths.ts";
import { REPO_ROOT } from "../../scripts/repo-root.ts";
import { generateProtocol } from "../../generator/pipeline/protocol.ts";
import { requireSpecRoot } from "../../scripts/spec-inputs.ts";
import { builtinSourceFrom, runtimeSourcesFrom } from "../../scripts/generate-protocol.ts";
import { baseBindings } from "../../generator/pipeline/known-revisions.ts";
import type { BaseBindings } from "../../generator/pipeline/protocol.ts";
import type { RuntimeEntry } from "../../generator/emit/printer.ts";
import type { IrModel } from "../../generator/ir/model.ts";
import { baseNames } from "../../generator/ir/walk.ts";
import { loadModel } from "../../generator/diff/load.ts";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { negativeVariants, type Fixture } from "./fixtures.ts";
import { synthesize, unionMembers } from "./synthesize.ts";
import { RUNTIME_AS_INSTALLED } from "../package/runtime-declarations.ts";

const run = promisify(execFile);
const specRoot = requireSpecRoot();
const schemaPath = path.join(specRoot, "extensions/tasks/schema.ts");
const basePath = path.join(specRoot, "extensions/tasks/spec.types.ts");
// Inside the repository, so the output's imports of zod and @mcp-gen/runtime resolve (the workspace links it).
const outRoot = path.join(REPO_ROOT, ".tmp", `extension-tasks-${process.pid}`);
const outDir = path.join(outRoot, "tasks");
afterAll(() => rmSync(outRoot, { recursive: true, force: true }));

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
}

/** Exported interface and type alias names, by the compiler's parser. */
function exportedDeclarations(source: ts.SourceFile): string[] {
  return source.statements.flatMap((s) =>
    (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) &&
    s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
      ? [s.name.text]
      : [],
  );
}

/** Local name → name in the imported module, for every named import. */
function importAliases(source: ts.SourceFile): Map<string, string> {
  const aliases = new Map<string, string>();
  for (const s of source.statements) {
    const bindings = ts.isImportDeclaration(s) ? s.importClause?.namedBindings : undefined;
    if (bindings && ts.isNamedImports(bindings)) {
      for (const e of bindings.elements) aliases.set(e.name.text, (e.propertyName ?? e.name).text);
    }
  }
  return aliases;
}

/** Every `method: "<literal>"` property signature in the file. */
function methodLiterals(source: ts.SourceFile): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isPropertySignature(node) &&
      node.name.getText(source) === "method" &&
      node.type &&
      ts.isLiteralTypeNode(node.type) &&
      ts.isStringLiteral(node.type.literal)
    ) {
      found.push(node.type.literal.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.sort();
}

let generated: { model: IrModel; files: { path: string; content: string }[]; warnings: string[] } | undefined;
async function generate() {
  generated ??= await generateTasks();
  return generated;
}

/**
 * The Tasks bindings, importing the runtime package and the built-in revisions as `mcp-gen protocol` does unless told
 * otherwise (the committed ones import the runtime's sources).
 */
function generateTasks(runtime?: (entry: RuntimeEntry) => string, bases?: readonly BaseBindings[]) {
  return generateProtocol({
    schemaPath,
    revision: "tasks",
    extensionId: "io.modelcontextprotocol/tasks",
    displayRoot: specRoot,
    bases: bases ?? baseBindings([], outDir, ".ts"),
    ...(runtime ? { runtime } : {}),
  });
}

describe("the Tasks extension schema", () => {
  it("generates bindings with the extension's methods only, and its descriptor", async () => {
    const { model, files, warnings } = await generate();
    expect(files.map((f) => f.path).sort()).toEqual(
      ["constants.ts", "extension.ts", "index.ts", "ir.json", "methods.ts", "schemas.ts", "types.ts"].sort(),
    );
    const source = parse(schemaPath);
    expect(model.methods.map((m) => m.method)).toEqual(methodLiterals(source));
    // tasks.md: tasks/get, tasks/update and tasks/cancel are requests; notifications/tasks is a notification.
    expect(Object.fromEntries(model.methods.map((m) => [m.method, m.kind]))).toEqual({
      "notifications/tasks": "notification",
      "tasks/cancel": "request",
      "tasks/get": "request",
      "tasks/update": "request",
    });
    const get = model.methods.find((m) => m.method === "tasks/get")!;
    expect(get).toMatchObject({
      typeName: "GetTaskRequest",
      result: { kind: "ref", name: "GetTaskResult" },
      resultSource: "naming",
      delivery: "message",
      resultFacts: { resultType: true, cacheable: false, inputRequired: false },
    });
    // No direction union in the schema: both directions, and a warning naming every such message.
    expect(new Set(model.methods.map((m) => m.direction))).toEqual(new Set(["both"]));
    expect(warnings).toEqual([
      expect.stringMatching(
        /extensions\/tasks\/schema\.ts:\d+: GetTaskRequest, UpdateTaskRequest, CancelTaskRequest, TaskStatusNotification: in no direction union/,
      ),
    ]);
    expect(model.protocol.era).toBeUndefined();
    const extension = files.find((f) => f.path === "extension.ts")!.content;
    expect(extension).toMatch(/id: "io\.modelcontextprotocol\/tasks",[^]*\bmethods,/);
  });

  it("declares the schema's own declarations only, and takes the imported ones from the 2026-07-28 bindings", async () => {
    const { model, files } = await generate();
    const own = exportedDeclarations(parse(schemaPath));
    expect(model.types.map((t) => t.name)).toEqual(own);
    expect(model.extension?.base).toEqual({ revision: "2026-07-28", version: "2026-07-28", builtin: true });
    expect(model.extension?.versions).toEqual(["2026-07-28"]);
    const aliases = importAliases(parse(schemaPath));
    expect(model.extension?.imports.flatMap((i) => i.names.map((n) => [n.local, n.name]))).toEqual([...aliases]);
    // No base declaration is copied: the generated types file declares none of the base's names.
    const typesFile = path.join(outRoot, "check-types.ts");
    mkdirSync(outRoot, { recursive: true });
    writeFileSync(typesFile, files.find((f) => f.path === "types.ts")!.content);
    const declared = exportedDeclarations(parse(typesFile));
    expect(declared).toEqual(own);
    const base = exportedDeclarations(parse(basePath));
    expect(base.length).toBeGreaterThan(100);
    expect(declared.filter((name) => base.includes(name))).toEqual([]);
    for (const file of ["types.ts", "schemas.ts", "methods.ts"])
      expect(files.find((f) => f.path === file)!.content, file).toContain(
        'from "@mcp-gen/runtime/protocol/2026-07-28"',
      );
    expect(files.find((f) => f.path === "extension.ts")!.content).toMatch(/versions: \["2026-07-28"\],/);
  });

  it("compiles under strict + exactOptionalPropertyTypes (NodeNext) and matches the spec's own types", async () => {
    const { model, files } = await generate();
    mkdirSync(outDir, { recursive: true });
    for (const file of files) writeFileSync(path.join(outDir, file.path), file.content);

    // Fidelity: every declaration (all are the schema's own) against schema.ts. The generated ones refer to the
    // built-in 2026-07-28 bindings where schema.ts refers to its vendored base, so this checks those agree too.
    const fidelityDir = path.join(outRoot, "fidelity");
    mkdirSync(fidelityDir, { recursive: true });
    writeFileSync(
      path.join(fidelityDir, "own.ts"),
      emitFidelityFile(model, {
        generated: posixRelative(fidelityDir, outDir),
        spec: posixRelative(fidelityDir, schemaPath),
      }),
    );
    const tsc = path.join(REPO_ROOT, "node_modules/typescript/bin/tsc");
    // The output as a user's nodenext project sees it (the runtime as installed: its .d.ts).
    writeFileSync(
      path.join(outRoot, "tsconfig.json"),
      JSON.stringify({
        extends: "../../tsconfig.json",
        compilerOptions: RUNTIME_AS_INSTALLED,
        include: ["tasks/*.ts"],
        exclude: [],
      }),
    );
    // The spec folder has no package.json (CommonJS under NodeNext): the fidelity files use `preserve`, as
    // test/protocol/fidelity does.
    writeFileSync(
      path.join(fidelityDir, "tsconfig.json"),
      JSON.stringify({
        extends: "../../../tsconfig.json",
        compilerOptions: { ...RUNTIME_AS_INSTALLED, module: "preserve", moduleResolution: "bundler" },
        include: ["*.ts"],
        exclude: [],
      }),
    );
    // The two projects are checked at once (each tsc keeps one core busy).
    const results = await Promise.all(
      [outRoot, fidelityDir].map((project) =>
        run(process.execPath, [tsc, "--noEmit", "-p", project], { cwd: REPO_ROOT }).then(
          () => "",
          (error: { stdout?: string; stderr?: string }) => error.stdout || error.stderr || String(error),
        ),
      ),
    );
    for (const [index, project] of [outRoot, fidelityDir].entries()) expect(results[index], project).toBe("");
  }, 240_000);

  it("agrees with the extension's schema.json on values synthesized from the IR (the revisions' oracle)", async () => {
    const { model } = await generate();
    // The extension's references resolve in its base: the built-in revision's declarations, and each alias it
    // imports under (JSONRPCErrorObject) as a reference to the base's name (Error).
    const base = loadModel(model.extension!.base!.revision);
    const aliases = [...baseNames(model)]
      .filter(([local, name]) => local !== name)
      .map(([local, name]) => ({ name: local, type: { kind: "ref", name } as const, extends: [] }));
    const resolved: IrModel = { ...model, types: [...model.types, ...base.types, ...aliases] };
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema(JSON.parse(readFileSync(path.join(path.dirname(schemaPath), "schema.json"), "utf8")), "ext");
    const ajvAccepts = (f: Fixture) => ajv.getSchema(`ext#/$defs/${f.type}`)!(f.value) === true;
    const schemas = (await import("../../runtime/generated/extensions/tasks/schemas.ts")) as unknown as Record<
      string,
      { safeParse(value: unknown): { success: boolean } }
    >;
    const zodAccepts = (f: Fixture) => schemas[`${f.type}Schema`]!.safeParse(f.value).success;
    for (const decl of model.types) expect(ajv.getSchema(`ext#/$defs/${decl.name}`), decl.name).toBeDefined();
    const positives: Fixture[] = model.types.flatMap((decl) =>
      unionMembers({ kind: "ref", name: decl.name }, resolved).flatMap((member, i) =>
        [true, false].map((full) => ({
          id: `${decl.name}[${i}]${full ? "/full" : "/minimal"}`,
          type: decl.name,
          value: synthesize(member, resolved, { full }),
        })),
      ),
    );
    const negatives = positives.flatMap((f) => negativeVariants(f, resolved));
    expect(positives.length).toBeGreaterThan(model.types.length * 2 - 1);
    expect(negatives.length).toBeGreaterThan(model.types.length);
    expect(positives.filter((f) => !zodAccepts(f)).map((f) => f.id)).toEqual([]);
    expect(positives.filter((f) => !ajvAccepts(f)).map((f) => f.id)).toEqual([]);
    expect(negatives.filter(zodAccepts).map((f) => f.id)).toEqual([]);
    expect(negatives.filter(ajvAccepts).map((f) => f.id)).toEqual([]);
  });

  it("validates the spec's task shapes with the generated schemas", async () => {
    const { methods } = await import("../../runtime/generated/extensions/tasks/index.ts");
    const get = methods["tasks/get"];
    const base = {
      taskId: "t1",
      createdAt: "2026-01-01T00:00:00Z",
      lastUpdatedAt: "2026-01-01T00:00:01Z",
      ttlMs: null,
    };
    expect(get.params.safeParse({ taskId: "t1" }).success).toBe(true);
    expect(get.params.safeParse({}).success).toBe(false);
    expect(get.result.safeParse({ ...base, resultType: "complete", status: "working" }).success).toBe(true);
    expect(
      get.result.safeParse({ ...base, resultType: "complete", status: "completed", result: { content: [] } }).success,
    ).toBe(true);
    // A completed task without its result, an unknown status, a wrong resultType are not tasks/get results.
    expect(get.result.safeParse({ ...base, resultType: "complete", status: "completed" }).success).toBe(false);
    expect(get.result.safeParse({ ...base, resultType: "complete", status: "paused" }).success).toBe(false);
    expect(get.result.safeParse({ ...base, resultType: "task", status: "working" }).success).toBe(false);
    const failed = { ...base, resultType: "complete", status: "failed", error: { code: -32603, message: "boom" } };
    expect(get.result.safeParse(failed).success).toBe(true);
    expect(get.result.safeParse({ ...failed, error: { message: "no code" } }).success).toBe(false);
    const notification = methods["notifications/tasks"];
    expect(notification.params.safeParse({ ...base, status: "cancelled" }).success).toBe(true);
  });

  it("the committed runtime/generated/extensions/tasks is this output", async () => {
    const committed = path.join(REPO_ROOT, "runtime/generated/extensions/tasks");
    // Generated for the committed folder as scripts/generate-protocol.ts does (nothing is written): same runtime imports.
    const builtins = baseBindings([], committed, ".ts").map((b) => ({
      ...b,
      specifier: builtinSourceFrom(committed, b.model.revision),
    }));
    const { files } = await generateTasks(runtimeSourcesFrom(committed), builtins);
    expect(readdirSync(committed).sort()).toEqual(files.map((f) => f.path).sort());
    for (const file of files)
      expect(readFileSync(path.join(committed, file.path), "utf8"), file.path).toBe(file.content);
    expect(existsSync(path.join(committed, "revision.ts"))).toBe(false);
  });
});
