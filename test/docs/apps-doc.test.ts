/**
 * docs/apps.md: each code block is an excerpt of the apps example file its section names (examples/apps, which
 * test/apps/browser.test.ts runs in Chromium and tsc type-checks), in the page's order, and the screenshot it shows is
 * a PNG. The page's one command, `npm run example:apps`, is run by the browser test (commands.test.ts, RUN_BY).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const REPO = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(REPO, file), "utf8");

/** The file each yaml/ts block of docs/apps.md is taken from, in order. */
const EXCERPTS_OF = [
  "examples/apps/mcp.yaml",
  "examples/apps/mcp.yaml",
  "examples/apps/views/forecast.ts",
  "examples/apps/views/forecast.ts",
  "examples/apps/views/forecast.ts",
  "examples/apps/host/host.ts",
  "examples/apps/host/host.ts",
];

describe("docs/apps.md", () => {
  const page = read("docs/apps.md");

  it("shows each block as it is in the example file its section names", () => {
    const blocks = [...page.matchAll(/```(?:yaml|ts)\n([\s\S]*?)```/g)].map((m) => m[1]!.trimEnd());
    expect(blocks).toHaveLength(EXCERPTS_OF.length);
    blocks.forEach((block, i) => {
      expect(page.slice(0, page.indexOf(block)), `block ${i + 1} is not after a mention of its file`).toContain(
        EXCERPTS_OF[i]!.replace(/^examples\/apps\/(views|host)\//, ""),
      );
      expect(read(EXCERPTS_OF[i]!), `block ${i + 1} is not in ${EXCERPTS_OF[i]}`).toContain(block);
    });
  });

  it("shows the browser test's screenshot, a PNG", () => {
    const image = /!\[[^\]]+\]\((images\/[\w-]+\.png)\)/.exec(page)?.[1];
    expect(image).toBe("images/apps-forecast.png");
    const bytes = readFileSync(path.join(REPO, "docs", image!));
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(read("test/apps/browser.test.ts")).toContain('screenshot(page, "apps-forecast")');
  });
});
