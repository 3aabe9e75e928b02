/**
 * Every emitted schema is declared with its type (`export const XSchema: z.ZodMiniType<T.X> = exactly<T.X>()(…)`), so
 * `z.infer` of an exported schema is the declared type by construction. What keeps that honest is `exactly`: the
 * module compiles only if the type zod infers for the expression and the declared type are mutually assignable. This
 * test compiles an emitted module as is (no errors), then with the expression changed in ways that make the validator
 * stricter or looser than its type, and expects tsc to reject each change at that declaration.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatTypeScript } from "../../../generator/pipeline/format.ts";
import { emitSchemasModule, emitTypesModule } from "../../../generator/emit/protocol.ts";
import { packageRuntime } from "../../../generator/pipeline/protocol.ts";
import type { IrTypeDecl } from "../../../generator/ir/model.ts";
import { RUNTIME_AS_INSTALLED } from "../../package/runtime-declarations.ts";

const REPO = path.resolve(import.meta.dirname, "../../..");

const decls: IrTypeDecl[] = [
  {
    name: "Thing",
    extends: [],
    type: {
      kind: "object",
      props: [
        { name: "label", optional: false, type: { kind: "primitive", name: "string" } },
        { name: "count", optional: true, type: { kind: "primitive", name: "number" } },
        {
          name: "kind",
          optional: false,
          type: {
            kind: "union",
            items: [
              { kind: "literal", value: "x" },
              { kind: "literal", value: "y" },
            ],
          },
        },
      ],
    },
  },
  {
    name: "Things",
    extends: [],
    type: { kind: "array", element: { kind: "ref", name: "Thing" } },
  },
];

let dir: string;
let schemas: string;

/** The repository's strict options (the runtime as installed); every file but schemas.ts is parsed once and shared by the programs below. */
function compilerSetup(): { options: ts.CompilerOptions; host: ts.CompilerHost } {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(REPO, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => undefined,
    },
  );
  // The runtime as installed (runtime/dist's .d.ts), not its sources, which would be type-checked along each time.
  const options = { ...config!.options, ...RUNTIME_AS_INSTALLED, noEmit: true };
  const host = ts.createCompilerHost(options);
  const parsed = new Map<string, ts.SourceFile | undefined>();
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    if (path.basename(fileName) === "schemas.ts" && fileName.startsWith(dir)) {
      return read(fileName, languageVersion, onError, shouldCreate);
    }
    if (!parsed.has(fileName)) parsed.set(fileName, read(fileName, languageVersion, onError, shouldCreate));
    return parsed.get(fileName);
  };
  return { options, host };
}

let compiler: ReturnType<typeof compilerSetup> | undefined;

/**
 * tsc diagnostics of `schemasText` next to the emitted types, under the repository's strict options: every file's
 * (`all`), or those of schemas.ts and the program's global ones (the changed cases, where a diagnostic must be on the
 * change: the checker then reads of the runtime only what schemas.ts uses).
 */
async function diagnostics(schemasText: string, scope: "all" | "schemas" = "schemas"): Promise<string[]> {
  const file = path.join(dir, "schemas.ts");
  await writeFile(file, schemasText);
  compiler ??= compilerSetup();
  const program = ts.createProgram([file], compiler.options, compiler.host);
  const found =
    scope === "all"
      ? ts.getPreEmitDiagnostics(program)
      : [
          ...program.getConfigFileParsingDiagnostics(),
          ...program.getOptionsDiagnostics(),
          ...program.getGlobalDiagnostics(),
          ...program.getSyntacticDiagnostics(program.getSourceFile(file)),
          ...program.getSemanticDiagnostics(program.getSourceFile(file)),
        ];
  return found.map((d) => {
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
    const text = d.file ? (d.file.text.split("\n")[line] ?? "") : "";
    return `${text.trim()} :: ${ts.flattenDiagnosticMessageText(d.messageText, "\n").split("\n")[0]}`;
  });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(REPO, ".tmp", "exactly-"));
  await writeFile(path.join(dir, "types.ts"), await formatTypeScript(emitTypesModule(decls)));
  schemas = await formatTypeScript(emitSchemasModule(decls, { runtime: packageRuntime() }));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("exactly<T>() in emitted schemas", () => {
  it("the emitted module compiles and declares compact types", async () => {
    expect(schemas).toContain("export const ThingSchema: ObjectSchema<T.Thing> = exactly<T.Thing>()(");
    expect(schemas).toContain("export const ThingsSchema: z.ZodMiniType<T.Things> = exactly<T.Things>()(");
    expect(await diagnostics(schemas, "all")).toEqual([]);
  }, 180_000);

  const changes: [string, string, string][] = [
    ["an optional property made required", "count: optionalKey(z.number())", "count: z.number()"],
    ["an optional property that accepts undefined", "count: optionalKey(z.number())", "count: z.optional(z.number())"],
    ["a literal union narrowed", 'kind: z.enum(["x", "y"])', 'kind: z.enum(["x"])'],
    ["a property widened", "label: z.string()", "label: z.unknown()"],
    ["a property retyped", "label: z.string()", "label: z.number()"],
    ["an array element retyped", "z.array(built(ThingSchema))", "z.array(z.string())"],
  ];
  it.each(changes)("rejects %s", async (_case, from, to) => {
    expect(schemas).toContain(from);
    const errors = await diagnostics(schemas.replace(from, to));
    expect(errors.length, errors.join("\n")).toBeGreaterThan(0);
    // Reported on the changed declaration's expression (its opening line or the changed line).
    expect(errors.some((e) => e.includes("exactly<") || e.includes(to.split(":")[0]!) || e.includes(to))).toBe(true);
  });
});
