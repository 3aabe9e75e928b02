/**
 * A `generate` that changes nothing writes nothing: files whose content is already what the run produces keep their
 * modification time (a watcher, `tsc --incremental` or `make` sees no change), and a run that changes one tool
 * rewrites only the files that differ. The real CLI on a copy of the weather example's manifest.
 */
import {
  copyFileSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
  readFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { cli, REPO } from "../cli-run.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-unchanged-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const OLD = new Date("2001-01-01T00:00:00Z");

/** Every generated file's modification time. */
function mtimes(out: string): Map<string, number> {
  return new Map(readdirSync(out).map((name) => [name, statSync(path.join(out, name)).mtimeMs]));
}

it("a no-op generate leaves every file untouched; a change rewrites only the files that differ", async () => {
  const manifest = path.join(dir, "mcp.yaml");
  copyFileSync(path.join(REPO, "examples/weather/mcp.yaml"), manifest);
  const out = path.join(dir, "generated");
  const first = await cli(dir, "generate", "-m", manifest, "-o", out);
  expect(first.code, first.stderr).toBe(0);
  for (const name of readdirSync(out)) utimesSync(path.join(out, name), OLD, OLD);
  const before = mtimes(out);
  expect(before.size).toBeGreaterThan(3);

  const again = await cli(dir, "generate", "-m", manifest, "-o", out);
  expect(again.code, again.stderr).toBe(0);
  expect(mtimes(out)).toEqual(before);
  expect(readdirSync(out).filter((name) => name.endsWith(".tmp"))).toEqual([]);

  // One tool's description changes: the files that carry it are rewritten, the others keep their time.
  const text = readFileSync(manifest, "utf8");
  const edited = text.replace(/description: ([^\n]*)/, "description: $1 (edited)");
  expect(edited).not.toBe(text);
  writeFileSync(manifest, edited);
  const changed = await cli(dir, "generate", "-m", manifest, "-o", out);
  expect(changed.code, changed.stderr).toBe(0);
  const after = mtimes(out);
  const rewritten = [...after].filter(([name, time]) => time !== before.get(name)).map(([name]) => name);
  const holding = readdirSync(out).filter((name) => readFileSync(path.join(out, name), "utf8").includes("(edited)"));
  expect(holding.length).toBeGreaterThan(0);
  // Rewritten: the files holding the new text, and the record (it names the manifest's new digest).
  for (const name of holding) expect(rewritten).toContain(name);
  expect(rewritten.length).toBeLessThan(after.size);
});
