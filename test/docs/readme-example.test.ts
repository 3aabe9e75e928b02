/**
 * The README's "A server in two files": its manifest generates, its handlers compile against the generated types
 * under strict + exactOptionalPropertyTypes, and the promise the comment makes holds (a structuredContent that does
 * not fit the tool's outputSchema does not compile). `@mcp-gen/runtime` resolves as in a user's project, through the
 * workspace link to its package build (runtime/dist's .d.ts, which the suite's global setup builds from the sources).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO, cli, runNode } from "../generator/cli-run.ts";
import { userCompilerOptions } from "./user-tsconfig.ts";

const SECTION = "## A server in two files";

/** The body of the first ```<lang> block after the section's heading. */
function block(readme: string, lang: string): string {
  const section = readme.slice(readme.indexOf(SECTION));
  const match = new RegExp("```" + lang + "\\n([\\s\\S]*?)```").exec(section);
  if (!match?.[1]) throw new Error(`README.md has no \`\`\`${lang} block under "${SECTION}"`);
  return match[1];
}

describe("the README's server in two files", () => {
  const readme = readFileSync(path.join(REPO, "README.md"), "utf8");
  // Inside the repository, so the generated files' own imports (zod) resolve from its node_modules.
  mkdirSync(path.join(REPO, ".tmp"), { recursive: true });
  const project = mkdtempSync(path.join(REPO, ".tmp", "readme-example-"));
  afterAll(() => rmSync(project, { recursive: true, force: true }));
  const handlers = block(readme, "ts").replace("./generated/index.js", "./generated/index.ts");

  // The handlers and a copy breaking the comment's promise (wrong.ts) are type-checked by one tsc run: each
  // diagnostic with its continuation lines, told apart by the file it starts in.
  let diagnostics: string[] = [];
  const wrong = handlers.replace("{ high: 20 }", '{ high: "warm" }');

  it("generates from the manifest and the handlers type-check", async () => {
    expect(readme).toContain(SECTION);
    const manifest = `${block(readme, "yaml")}generate:\n  importExtension: ".ts"\n`;
    writeFileSync(path.join(project, "mcp.yaml"), manifest);
    writeFileSync(path.join(project, "package.json"), JSON.stringify({ type: "module" }));
    const compilerOptions = userCompilerOptions({ importTsExtensions: true });
    const files = ["server.ts", "wrong.ts"];
    writeFileSync(path.join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, files }));
    const generated = await cli(project, "generate", "--manifest", "mcp.yaml", "--out", "generated");
    expect(generated.stderr).toBe("");
    expect(generated.code).toBe(0);
    writeFileSync(path.join(project, "server.ts"), handlers);
    writeFileSync(path.join(project, "wrong.ts"), wrong);
    const tsc = path.join(REPO, "node_modules/typescript/bin/tsc");
    const checked = await runNode(tsc, ["-p", "."], { cwd: project });
    expect(checked.stderr).toBe("");
    diagnostics = checked.stdout.split(/\n(?=\S)/).filter((d) => d.trim() !== "");
    expect(diagnostics.filter((d) => !d.startsWith("wrong.ts("))).toEqual([]);
  }, 180_000); // the CLI and a tsc run: over 60 s at load 20

  it("a structuredContent that does not fit the outputSchema does not compile", async () => {
    expect(handlers).toContain("structuredContent: { high: 20 }");
    expect(wrong).not.toBe(handlers);
    expect(diagnostics.join("\n")).toMatch(
      /^wrong\.ts\(\d+,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/m,
    );
  });
});
