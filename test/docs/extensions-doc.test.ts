/**
 * docs/extensions.md, run as a user would follow it in a fresh project folder: its schema.ts beside a copy of the
 * spec's 2026-07-28 schema.ts (spec/base.ts), its `mcp-gen protocol` command through the CLI, its server, client and
 * main files type-checked under strict + exactOptionalPropertyTypes (NodeNext) against the generated bindings and the
 * runtime as installed, and main run as a process: it must print what the page says it prints.
 * `@mcp-gen/runtime` resolves through the workspace link to the package build.
 */
import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { requireSpecRoot } from "../../scripts/spec-inputs.ts";
import { nodeArgs } from "../fixture-run.ts";
import { REPO, cli, runNode } from "../generator/cli-run.ts";
import { userCompilerOptions } from "./user-tsconfig.ts";

const page = readFileSync(path.join(REPO, "docs/extensions.md"), "utf8");
/** The page's ```<lang> blocks, in order. */
const blocks = (lang: string) =>
  [...page.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!);
/** Each ts block's file, as the text before it names it. */
const FILES = ["spec/schema.ts", "src/server.ts", "src/client.ts", "src/main.ts"];

mkdirSync(path.join(REPO, ".tmp"), { recursive: true });
const dir = mkdtempSync(path.join(REPO, ".tmp", "extensions-doc-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("docs/extensions.md", () => {
  it("generates the bindings, type-checks its files and prints what it says", async () => {
    const ts = blocks("ts");
    expect(ts).toHaveLength(FILES.length);
    FILES.forEach((file, i) => {
      expect(page.slice(0, page.indexOf(ts[i]!)), `block ${i + 1} is not after a mention of ${file}`).toContain(
        `\`${file}\``,
      );
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), ts[i]!);
    });
    copyFileSync(path.join(requireSpecRoot(), "2026-07-28", "schema.ts"), path.join(dir, "spec/base.ts"));
    writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));

    expect(blocks("sh")).toEqual([
      "npx mcp-gen protocol --schema spec/schema.ts --revision clock --extension-id com.example/clock --out src/clock\n",
    ]);
    const args = [
      "protocol",
      "--schema",
      "spec/schema.ts",
      "--revision",
      "clock",
      "--extension-id",
      "com.example/clock",
    ];
    const generated = await cli(dir, ...args, "--out", "src/clock");
    expect(generated.stderr).toBe("");
    expect(generated.code).toBe(0);

    const compilerOptions = userCompilerOptions({ importTsExtensions: false });
    writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["src/**/*.ts"] }));
    const checked = await runNode(path.join(REPO, "node_modules/typescript/bin/tsc"), ["-p", "."], { cwd: dir });
    expect(checked.stdout + checked.stderr).toBe("");

    const ran = await promisify(execFile)(process.execPath, nodeArgs(path.join(dir, "src/main.ts")), { cwd: dir });
    expect(ran.stderr).toBe("");
    expect(ran.stdout).toBe(blocks("text")[0]);
  }, 180_000); // the CLI, a tsc run and a process: over 60 s at load 20
});
