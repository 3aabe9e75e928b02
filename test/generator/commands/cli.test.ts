/** The `mcp-gen protocol` command, run as a real process through bin/mcp-gen.js. */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../../scripts/repo-root.ts";
import { specFile } from "../../protocol/spec.ts";

const execFileAsync = promisify(execFile);
const tmp = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const mcpGen = (...args: string[]) =>
  execFileAsync(process.execPath, [path.join(REPO_ROOT, "bin/mcp-gen.js"), ...args], { cwd: REPO_ROOT }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );

describe("mcp-gen protocol", () => {
  it("writes the seven files of a revision and its outputs record", async () => {
    const out = path.join(tmp, "out");
    const result = await mcpGen(
      "protocol",
      "--schema",
      specFile("2024-11-05"),
      "--revision",
      "2024-11-05",
      "--out",
      out,
    );
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(readdirSync(out).sort()).toEqual([
      ".mcp-gen.json",
      "constants.ts",
      "index.ts",
      "ir.json",
      "methods.ts",
      "revision.ts",
      "schemas.ts",
      "types.ts",
    ]);
  });

  it("fails with file:line and a non-zero exit on a schema it cannot express", async () => {
    const schema = path.join(tmp, "bad.ts");
    writeFileSync(schema, "export interface A {\n  a: string;\n}\nexport type K = keyof A;\n");
    const result = await mcpGen(
      "protocol",
      "--schema",
      schema,
      "--revision",
      "bad",
      "--out",
      path.join(tmp, "bad-out"),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/bad\.ts:4: unsupported type construct: `keyof A`/);
    expect(existsSync(path.join(tmp, "bad-out"))).toBe(false);
  });

  it("rejects a missing option", async () => {
    const result = await mcpGen("protocol", "--schema", specFile("2024-11-05"));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Missing required argument: out/);
    const noRevision = await mcpGen("protocol", "--schema", specFile("2024-11-05"), "--out", path.join(tmp, "x"));
    expect(noRevision.code).toBe(1);
    expect(noRevision.stderr).toMatch(/--revision <name> is required with --schema/);
    const both = await mcpGen("protocol", "--schema", "s.ts", "--spec", "2025-11-25", "--out", path.join(tmp, "x"));
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/give exactly one of --schema <schema\.ts> and --spec <revision>\[@commit\]/);
    expect(existsSync(path.join(tmp, "x"))).toBe(false);
  });
});
