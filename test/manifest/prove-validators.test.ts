/**
 * `generate.proveValidators`: by default the user's tsc proves every validator of schemas.ts against its declared
 * type (`exactly<T>()`); with `false` the generator marks that one file `// @ts-nocheck`, so tsc skips zod's
 * inference there (most of a large manifest's compile cost, bench/manifest-tsc.ts) while every other file and the
 * user's code still see the declared types. Shown with one manifest generated both ways and checked by tsc against the
 * runtime as installed: the only difference is the pragma after the header; in both a wrong handler output fails tsc
 * at its field; a validator edited to disagree with its type fails tsc only in the proved form.
 */
import { execFileSync } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { stringify } from "yaml";
import { generateFromManifest } from "../../generator/pipeline/manifest.ts";
import { writeOutputFolder } from "../../generator/pipeline/output-folder.ts";
import { REPO_ROOT } from "../../scripts/repo-root.ts";
import { RUNTIME_AS_INSTALLED } from "../package/runtime-declarations.ts";

const SCRATCH = path.join(REPO_ROOT, ".tmp", `prove-validators-${process.pid}`);
const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");

afterAll(async () => {
  await rm(SCRATCH, { recursive: true, force: true });
});

const manifest = (prove: boolean | undefined) => ({
  server: { name: "prove", version: "1.0.0" },
  tools: [
    {
      name: "search",
      description: "Searches.",
      inputSchema: {
        type: "object",
        properties: { query: { type: "string" }, limit: { type: "integer", minimum: 1 } },
        required: ["query"],
        additionalProperties: false,
      },
      outputSchema: {
        type: "object",
        properties: { total: { type: "integer" } },
        required: ["total"],
        additionalProperties: false,
      },
    },
  ],
  generate: { out: "generated", ...(prove === undefined ? {} : { proveValidators: prove }) },
});

/** The handler file: line 4's output field is wrong, which must fail tsc whatever the option. */
const APP = `import { createServer, type ServerHandlers } from "./generated/index.js";
const handlers: ServerHandlers = {
  tools: {
    search: (input) => ({ structuredContent: { total: input.query } }),
  },
};
export const server = createServer(handlers);
`;

async function project(name: string, prove: boolean | undefined): Promise<string> {
  const dir = path.join(SCRATCH, name);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "mcp.yaml"), stringify(manifest(prove)));
  const output = await generateFromManifest({ manifestPath: path.join(dir, "mcp.yaml") });
  await writeOutputFolder(output.outDir, output.files);
  await writeFile(path.join(dir, "app.ts"), APP);
  await writeFile(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      extends: path.relative(dir, path.join(REPO_ROOT, "tsconfig.json")),
      compilerOptions: { ...RUNTIME_AS_INSTALLED, noEmit: true },
      include: ["app.ts", "generated/*.ts"],
    }),
  );
  return dir;
}

function tsc(dir: string): string[] {
  try {
    execFileSync(process.execPath, [TSC, "--pretty", "false", "-p", path.join(dir, "tsconfig.json")], {
      encoding: "utf8",
    });
    return [];
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error)
      .split("\n")
      .filter((line) => /error TS\d+/.test(line))
      .map((line) => line.slice(line.indexOf(path.basename(dir)) + path.basename(dir).length + 1));
  }
}

it("proveValidators: false marks only schemas.ts unchecked; user code keeps its errors, the proof goes", async () => {
  const [proved, byDefault, unproved] = await Promise.all([
    project("proved", true),
    project("default", undefined),
    project("unproved", false),
  ]);
  const schemas = (dir: string) => readFile(path.join(dir, "generated/schemas.ts"), "utf8");
  expect(await schemas(byDefault)).toBe(await schemas(proved));
  const [provedText, unprovedText] = [await schemas(proved), await schemas(unproved)];
  expect(provedText).not.toContain("@ts-nocheck");
  const provedLines = provedText.split("\n");
  const unprovedLines = unprovedText.split("\n");
  // The header (two comment lines), then the two lines of the pragma, then the same file.
  expect(unprovedLines.slice(2, 4)).toEqual([
    "// Validators not re-proved by tsc here (generate.proveValidators: false); each keeps its declared type.",
    "// @ts-nocheck",
  ]);
  expect([...unprovedLines.slice(0, 2), ...unprovedLines.slice(4)]).toEqual(provedLines);
  for (const name of ["types.ts", "definitions.ts", "server.ts", "client.ts", "index.ts"])
    expect(await readFile(path.join(unproved, "generated", name), "utf8")).toBe(
      await readFile(path.join(proved, "generated", name), "utf8"),
    );

  // A validator that disagrees with its type: `total` validated as a string.
  for (const dir of [proved, unproved]) {
    const file = path.join(dir, "generated/schemas.ts");
    const text = await readFile(file, "utf8");
    const broken = text.replace(/total: z\.int\(\)/, "total: z.string()");
    expect(broken).not.toBe(text);
    await writeFile(file, broken);
  }
  const [provedErrors, unprovedErrors] = [tsc(proved), tsc(unproved)];
  // Both: the wrong handler output, at line 4 of app.ts.
  for (const errors of [provedErrors, unprovedErrors]) expect(errors.some((e) => e.startsWith("app.ts(4,"))).toBe(true);
  expect(provedErrors.some((e) => e.startsWith("generated/schemas.ts("))).toBe(true);
  expect(unprovedErrors.filter((e) => !e.startsWith("app.ts("))).toEqual([]);
}, 240_000);
