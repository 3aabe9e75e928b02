/**
 * A syntax error in a `schema.ts` is reported as TypeScript reports it, with file:line:column, before lowering reads
 * the module (which would otherwise say "unsupported top-level statement (ExpressionStatement)" or name an empty type
 * in backticks). Oracle: TypeScript's own diagnostic codes and texts (tsc prints the same for these files). The
 * missing-manifest hint is checked here too, with the real CLI.
 */
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GeneratorError } from "../../../generator/ir/errors.ts";
import { lowerSchema } from "../../../generator/lower/schema.ts";
import { cli } from "../cli-run.ts";

function failure(text: string): string {
  try {
    lowerSchema({ text, displayPath: "in/schema.ts", revision: "test" });
  } catch (error) {
    if (error instanceof GeneratorError) return error.message;
    throw error;
  }
  throw new Error("expected a GeneratorError");
}

describe("schema.ts syntax errors", () => {
  it.each([
    [
      "a missing type",
      "export interface A {\n  x: string;\n}\nexport interface B { y: number\n  z: ;\n}\n",
      "in/schema.ts:5:6: error TS1110: Type expected.",
    ],
    [
      "a nameless const",
      "export interface A { x: string }\nexport const = 3;\n",
      "in/schema.ts:2:14: error TS1134: Variable declaration expected. (and 1 more syntax error)",
    ],
    ["an unclosed call", "export interface A { x: string }\nfoo(;\n", "in/schema.ts:2:5: error TS1005: ')' expected."],
    ["an unclosed interface", "export interface A {\n  x: string;\n", "in/schema.ts:3:1: error TS1005: '}' expected."],
  ])("%s", (_what, text, message) => {
    expect(failure(text)).toBe(message);
  });

  it("a valid schema that lowering refuses still gets lowering's own message", () => {
    expect(failure("export interface A { x: string }\nconsole.log(1);\n")).toBe(
      "in/schema.ts:2: unsupported top-level statement (ExpressionStatement)",
    );
  });
});

describe("the CLI", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "mcp-gen-syntax-"));
    await writeFile(path.join(dir, "broken.ts"), "export interface A { x: string }\nexport const = 3;\n");
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("mcp-gen protocol prints TypeScript's diagnostic with line and column, and writes nothing", async () => {
    const run = await cli(dir, "protocol", "--schema", "broken.ts", "--revision", "draft", "--out", "out");
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^mcp-gen: \S*broken\.ts:2:14: error TS1134: Variable declaration expected\./);
    expect(run.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(existsSync(path.join(dir, "out"))).toBe(false);
  });

  it("a missing manifest suggests mcp-gen init", async () => {
    for (const command of ["generate", "diff"]) {
      const run = await cli(dir, command);
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        "mcp-gen: mcp.yaml: manifest not found; start a project with `mcp-gen init`, or name the manifest with --manifest\n",
      );
    }
  });
});
