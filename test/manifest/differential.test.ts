/**
 * Differential check of every schema in the test manifests (goldens and examples): the generated TypeScript type
 * and `z.infer` of the generated validator must be mutually assignable, and for tool schemas json-schema-to-typescript's
 * type for the same schema (the oracle) must be mutually assignable with the generated type too. The assertions are
 * written to a scratch file and type-checked with tsc; any disagreement is a tsc error naming the tool.
 *
 * The shipped schemas.ts types each validator as its declaration through the runtime's `exactly<T>()`, so the
 * scratch compile of the shipped files is itself the zod ⇄ type check; a second test shows every shipped validator
 * goes through `exactly` (or is a recursive `z.lazy`, annotated) and that tsc checks the file (no `@ts-nocheck`).
 */
import { execFileSync } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { compile } from "json-schema-to-typescript";
import { afterAll, expect, it } from "vitest";
import { emitUserFiles } from "../../generator/emit/user/emit-user.ts";
import { emitUserSchemasFile } from "../../generator/emit/user/emit-user-types.ts";
import { generateFromManifest } from "../../generator/pipeline/manifest.ts";
import { RUNTIME_AS_INSTALLED } from "../package/runtime-declarations.ts";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, "../..");
const SCRATCH = path.join(REPO, ".tmp", `manifest-differential-${process.pid}`);
const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");

/** Manifest → the folder its generated code is committed in. */
const SOURCES: readonly [string, string][] = [
  ...["tools-basic", "json-schema", "resources-prompts", "proto-key"].map((c): [string, string] => [
    `test/manifest/golden/${c}/mcp.yaml`,
    `test/manifest/golden/${c}/expected`,
  ]),
  ["examples/weather/mcp.yaml", "examples/weather/generated"],
  ["examples/everything/mcp.yaml", "examples/everything/generated"],
];

/**
 * Schemas whose oracle type differs for a documented reason (the zod ⇄ type check still runs for them):
 * - json-schema.shapes: json-schema-to-typescript does not read 2020-12 `prefixItems` (it types `point` as never[]).
 */
const ORACLE_EXCEPTIONS = new Set(["ShapesInput"]);
/**
 * Schemas json-schema-to-typescript cannot read at all: json-schema.conditional uses a `$ref` to an `$anchor`;
 * proto-key.members has a property named `hasOwnProperty` (the oracle calls `schema.hasOwnProperty(…)`).
 */
const ORACLE_UNREADABLE = new Set(["ConditionalInput", "MembersInput"]);

function oracleType(schema: unknown): Promise<string> {
  return compile(structuredClone(schema) as never, "Oracle", {
    bannerComment: "",
    format: false,
    unknownAny: true,
    declareExternallyReferenced: true,
    additionalProperties: true,
  });
}

afterAll(async () => {
  await rm(SCRATCH, { recursive: true, force: true });
});

function relativeImport(target: string): string {
  const rel = path.relative(SCRATCH, path.join(REPO, target)).split(path.sep).join("/");
  return rel.startsWith(".") ? rel : `./${rel}`;
}

/** The manifest's generated files, in SCRATCH/m<index>/, importing the runtime as the package (workspace link). */
async function writeCheckedOutput(index: number, manifest: string, generated: string) {
  const output = await generateFromManifest({
    manifestPath: path.join(REPO, manifest),
    outDir: path.join(REPO, generated),
  });
  const dir = path.join(SCRATCH, `m${index}`);
  await mkdir(dir, { recursive: true });
  // Whatever runtimeImport the manifest names (a golden's relative path too): the package, as a user's project has it.
  const model = { ...output.model, runtimeImport: "@mcp-gen/runtime" };
  for (const file of emitUserFiles(model)) await writeFile(path.join(dir, file.path), file.content);
  return output.model;
}

it("generated types, z.infer of the validators and json-schema-to-typescript agree for every schema", async () => {
  const lines = [
    'import type { z } from "zod";',
    "type Mutual<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;",
    "const agree = <T extends true>(value: T): T => value;",
  ];
  let checked = 0;
  let declarations = 0;
  for (const [index, [manifest, generated]] of SOURCES.entries()) {
    const model = await writeCheckedOutput(index, manifest, generated);
    lines.push(
      `import type * as T${index} from "./m${index}/types.ts";`,
      `import * as S${index} from "./m${index}/schemas.ts";`,
    );
    for (const decl of model.types) {
      declarations++;
      lines.push(
        `// ${manifest}: ${decl.name}`,
        `agree<Mutual<T${index}.${decl.name}, z.infer<typeof S${index}.${decl.name}Schema>>>(true);`,
      );
    }
    for (const tool of model.tools) {
      for (const schema of tool.output ? [tool.input, tool.output] : [tool.input]) {
        const name = schema.typeName;
        const ns = `O${index}_${name}`;
        lines.push(`// ${manifest}: tool ${tool.name}`);
        checked++;
        if (ORACLE_UNREADABLE.has(name)) {
          await expect(oracleType(schema.json)).rejects.toThrow();
          continue;
        }
        lines.push(`namespace ${ns} {\n${await oracleType(schema.json)}}`);
        if (!ORACLE_EXCEPTIONS.has(name)) lines.push(`agree<Mutual<T${index}.${name}, ${ns}.Oracle>>(true);`);
      }
    }
  }
  await mkdir(SCRATCH, { recursive: true });
  await writeFile(path.join(SCRATCH, "check.ts"), `${lines.join("\n")}\n`);
  await writeFile(
    path.join(SCRATCH, "tsconfig.json"),
    JSON.stringify({
      extends: relativeImport("tsconfig.json"),
      include: ["check.ts", "m*/*.ts"],
      // The runtime as installed (its .d.ts), as a user's project sees it.
      compilerOptions: { ...RUNTIME_AS_INSTALLED, noUnusedLocals: false },
    }),
  );
  let errors = "";
  try {
    execFileSync(process.execPath, [TSC, "--noEmit", "-p", path.join(SCRATCH, "tsconfig.json")], { encoding: "utf8" });
  } catch (error) {
    errors = String((error as { stdout?: string }).stdout ?? error);
  }
  // Name the tool of each failing line (the nearest comment above it).
  const written = lines.join("\n").split("\n");
  errors = errors.replace(/check\.ts\((\d+),\d+\)/g, (match, line: string) => {
    const above = written
      .slice(0, Number(line))
      .reverse()
      .find((l) => l.startsWith("// "));
    return `${match} [${above?.slice(3) ?? "?"}; ${written[Number(line) - 1]?.trim()}]`;
  });
  expect(checked).toBeGreaterThanOrEqual(38);
  expect(declarations).toBeGreaterThan(checked);
  expect(errors).toBe("");
}, 180_000);

it("every shipped validator is checked by tsc against its declared type", async () => {
  for (const [manifest, generated] of SOURCES) {
    const { model } = await generateFromManifest({
      manifestPath: path.join(REPO, manifest),
      outDir: path.join(REPO, generated),
    });
    const shipped = emitUserSchemasFile(model, "");
    expect(shipped).not.toMatch(/@ts-nocheck|@ts-ignore|@ts-expect-error/);
    // (`toolValidators`, the table of them by tool name, is annotated with the runtime's type.)
    const exported = [...shipped.matchAll(/^export const (\w+)/gm)]
      .map((m) => m[1])
      .filter((name) => name !== "toolValidators");
    const proven = [
      // A validator built by zod, typed through `exactly`: compiles only if zod's type and the declaration agree.
      ...shipped.matchAll(/^export const (\w+): z\.ZodMiniType<T\.(\w+)> = exactly<T\.\2>\(\)\(/gm),
      // A validator on a reference cycle: `z.lazy` needs the annotation, which tsc checks the schema against.
      ...shipped.matchAll(/^export const (\w+): z\.ZodMiniType<T\.(\w+)> = z\.lazy\(/gm),
      // A tool schema with its JSON Schema check: its zod shape (`<Name>Shape`) is one of the above.
      ...shipped.matchAll(/^export const (\w+): z\.ZodMiniType<T\.(\w+)> = \2Shape\.check\(/gm),
    ];
    expect(proven.map((m) => m[1]).sort()).toEqual(exported.sort());
    for (const m of proven) expect(m[1]).toMatch(new RegExp(`^${m[2]}(Schema|Shape)$`));
  }
});
