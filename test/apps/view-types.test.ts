/**
 * The generated view modules are browser code: they compile under lib ["ES2022", "DOM"] with no Node types, and
 * their types reject wrong uses (each `@ts-expect-error` in view-types/usage.ts must be an error, or tsc reports the
 * directive as unused). The control: the same file with the directives stripped fails to compile with one error each.
 */
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync, rmSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const DIR = path.join(import.meta.dirname, "view-types");
const TSC = path.resolve(import.meta.dirname, "../../node_modules/typescript/bin/tsc");

async function tsc(project: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(process.execPath, [TSC, "-p", project], { cwd: DIR });
    return { code: 0, out: stdout };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    return { code: failed.code ?? 1, out: failed.stdout ?? "" };
  }
}

describe("generated view modules", () => {
  it("compile for the browser alone, and every wrong use is a type error", { timeout: 120_000 }, async () => {
    const { code, out } = await tsc("tsconfig.json");
    expect(out).toBe("");
    expect(code).toBe(0);
  });

  it("the control: without the directives each wrong use is reported", { timeout: 120_000 }, async () => {
    const usage = readFileSync(path.join(DIR, "usage.ts"), "utf8");
    const expected = usage.split("\n").filter((l) => l.includes("@ts-expect-error")).length;
    writeFileSync(path.join(DIR, "stripped.ts"), usage.replaceAll("// @ts-expect-error", "// expected:"));
    writeFileSync(
      path.join(DIR, "tsconfig.stripped.json"),
      JSON.stringify({ extends: "./tsconfig.json", files: ["stripped.ts"] }),
    );
    try {
      const { code, out } = await tsc("tsconfig.stripped.json");
      expect(code).not.toBe(0);
      const lines = new Set(out.split("\n").flatMap((l) => /^stripped\.ts\((\d+),/.exec(l)?.[1] ?? []));
      expect(lines.size).toBe(expected);
    } finally {
      rmSync(path.join(DIR, "stripped.ts"), { force: true });
      rmSync(path.join(DIR, "tsconfig.stripped.json"), { force: true });
    }
  });
});
