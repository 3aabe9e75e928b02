/**
 * `npm run test:update-golden` runs only the test files that compare output with a golden (so rewriting goldens takes
 * seconds, and test/docs/long-commands.ts can run it in CI to show the committed goldens are current). This checks
 * the script names exactly the test files that call golden-file.ts: a new golden test left out of the script would
 * never be rewritten by it, and a stale name would make the script fail.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const REPO = path.resolve(import.meta.dirname, "../..");

/** Every *.test.ts under test/, relative to the repository, with forward slashes. */
function testFiles(dir = "test"): string[] {
  return readdirSync(path.join(REPO, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory())
      return entry.name.startsWith(".") || entry.name === "node_modules" ? [] : testFiles(relative);
    return entry.name.endsWith(".test.ts") ? [relative] : [];
  });
}

describe("npm run test:update-golden", () => {
  it("runs with --update exactly the test files that compare with goldens", () => {
    const scripts = (
      JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as { scripts: Record<string, string> }
    ).scripts;
    const words = scripts["test:update-golden"]?.split(/\s+/) ?? [];
    expect(words.slice(0, 2)).toEqual(["vitest", "run"]);
    expect(words).toContain("--update");
    const named = words.filter((w) => w.endsWith(".test.ts")).sort();
    const usingGoldens = testFiles()
      .filter((file) =>
        /from "(?:\.\.?\/)+(?:[\w-]+\/)*golden-file\.ts"/.test(readFileSync(path.join(REPO, file), "utf8")),
      )
      .sort();
    expect(usingGoldens.length).toBeGreaterThan(0);
    expect(named).toEqual(usingGoldens);
  });
});
