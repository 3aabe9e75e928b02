/**
 * Files read in one sitting (issue 22): every hand-written Markdown, shell and JavaScript file and JSON Schema the
 * repository tracks is at most 350 lines, and README.md at most 250 (what it is, the quick start, links; the rest is in docs/).
 * TypeScript is held to 350 lines by eslint's `max-lines`, which reads only `.ts` files. Generated files are left
 * out: the API reports (scripts/api-report.ts), generated bindings and example output, goldens, and the two schemas
 * scripts write from TypeScript models (the IR's, scripts/write-ir-schema.ts; the manifest's,
 * scripts/write-manifest-schema.ts).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "../generator/cli-run.ts";

const MAX = 350;
const README_MAX = 250;
const GENERATED = [
  /^runtime\/api\//,
  /(^|\/)generated\//,
  /(^|\/)golden\//,
  /^generator\/ir\/ir\.schema\.json$/,
  /^generator\/manifest\/mcp-manifest\.schema\.json$/,
];

const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: REPO, encoding: "utf8" })
  .split("\0")
  .filter(
    (file) => /\.(md|sh|js|mjs|cjs|schema\.json)$/.test(file) && !GENERATED.some((pattern) => pattern.test(file)),
  );

/** Lines as `wc -l` and editors count them: a final newline ends the last line rather than starting one. */
function lineCount(file: string): number {
  const text = readFileSync(path.join(REPO, file), "utf8");
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

describe("hand-written file lengths", () => {
  it("reads the files it means to (Markdown, shell, JavaScript and JSON Schema, the generated ones left out)", () => {
    expect(tracked).toEqual(expect.arrayContaining(["README.md", "docs/testing.md", "test/package/user-flow.sh"]));
    expect(tracked).toContain("scripts/build-packages.mjs");
    expect(tracked).toContain("generator/diff/manifest-diff.schema.json");
    expect(tracked.filter((file) => file.startsWith("runtime/api/"))).toEqual([]);
  });

  it(`no Markdown, shell, JavaScript or JSON Schema file is over ${MAX} lines`, () => {
    const long = tracked
      .map((file) => `${file}: ${lineCount(file)}`)
      .filter((entry) => Number(entry.split(": ")[1]) > MAX);
    expect(long).toEqual([]);
  });

  it(`README.md is at most ${README_MAX} lines`, () => {
    expect(lineCount("README.md")).toBeLessThanOrEqual(README_MAX);
  });
});
