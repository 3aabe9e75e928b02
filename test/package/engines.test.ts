/**
 * Contributors on the oldest Node 20 the workspace's `engines` admit get a quiet `npm ci`: npm itself, asked to
 * install the lock file as that Node version would (`npm ci --dry-run --node-version …`, nothing downloaded or
 * written), warns about no package whose own `engines` refuse it (EBADENGINE). Stryker 10 (with Babel 8 under it)
 * and ts-json-schema-generator ≥ 2.5 require Node 22: 49 warnings on Node 20, hence their pins in package.json.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/repo-root.ts";

const scratch = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-engines-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

it("npm ci on the oldest Node 20 the engines admit warns about no package's engines", () => {
  const { engines } = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    engines: { node: string };
  };
  const node20 = /\^(20\.\d+\.\d+)/.exec(engines.node)?.[1];
  if (node20 === undefined) throw new Error(`engines.node (${engines.node}) names no Node 20 line`);
  for (const file of ["package.json", "package-lock.json", "runtime/package.json", "generator/package.json"]) {
    mkdirSync(path.dirname(path.join(scratch, file)), { recursive: true });
    copyFileSync(path.join(REPO_ROOT, file), path.join(scratch, file));
  }
  const npm = spawnSync(
    process.platform === "win32" ? "npm.cmd" : "npm",
    ["ci", "--dry-run", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=warn", `--node-version=${node20}`],
    { cwd: scratch, encoding: "utf8" },
  );
  expect(npm.status, npm.stderr).toBe(0);
  expect(npm.stdout).toMatch(/added \d+ packages/); // the whole lock file was considered
  const refused = [...npm.stderr.matchAll(/EBADENGINE\s+package: '([^']+)'/g)].map((m) => m[1]);
  expect(refused).toEqual([]);
}, 120_000);
