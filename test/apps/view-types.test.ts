/**
 * The generated view modules are browser code: they compile under lib ["ES2022", "DOM"] with no Node types, and
 * their types reject wrong uses (each `@ts-expect-error` in view-types/usage.ts must be an error, or tsc reports the
 * directive as unused). The same for a view on ext-apps' `App` class typed by `typedForecastApp` (usage-app.ts). The
 * control: each file with the directives stripped fails to compile with an error on each of those lines.
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

/** Each project: its tsconfig and the usage file it compiles. */
const PROJECTS = [
  { name: "the generated view module", tsconfig: "tsconfig.json", usage: "usage.ts" },
  { name: "ext-apps' App class through typedForecastApp", tsconfig: "tsconfig.app.json", usage: "usage-app.ts" },
];

describe.each(PROJECTS)("generated view modules: $name", ({ tsconfig, usage: file }) => {
  it("compile for the browser alone, and every wrong use is a type error", { timeout: 120_000 }, async () => {
    const { code, out } = await tsc(tsconfig);
    expect(out).toBe("");
    expect(code).toBe(0);
  });

  it("the control: without the directives each wrong use is reported", { timeout: 120_000 }, async () => {
    const usage = readFileSync(path.join(DIR, file), "utf8");
    const expected = usage.split("\n").filter((l) => l.includes("@ts-expect-error")).length;
    const stripped = `stripped-${file}`;
    const strippedConfig = `tsconfig.stripped-${file}.json`;
    writeFileSync(path.join(DIR, stripped), usage.replaceAll("// @ts-expect-error", "// expected:"));
    writeFileSync(path.join(DIR, strippedConfig), JSON.stringify({ extends: `./${tsconfig}`, files: [stripped] }));
    try {
      const { code, out } = await tsc(strippedConfig);
      expect(code).not.toBe(0);
      const lines = new Set(
        out.split("\n").flatMap((l) => (l.startsWith(`${stripped}(`) ? (/\((\d+),/.exec(l)?.[1] ?? []) : [])),
      );
      expect(lines.size).toBe(expected);
    } finally {
      rmSync(path.join(DIR, stripped), { force: true });
      rmSync(path.join(DIR, strippedConfig), { force: true });
    }
  });
});
