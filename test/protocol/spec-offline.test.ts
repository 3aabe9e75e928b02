/**
 * A fresh clone offline (issue 35 item 2): with no `../shared/spec` beside it, no `MCP_SPEC_DIR` and no reachable
 * download host, `npm run spec` (the first step of `npm test`) exits non-zero naming the URL it could not download,
 * its cause, and the three ways to give the files without network access. Run as a process in a copy of the
 * repository's tracked scripts/ and generator/ (`../shared` exists beside every worktree, so the repository itself
 * cannot stand in for the clone), the download host a loopback port nothing listens on.
 */
import { execFileSync, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/repo-root.ts";

const tmp = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-spec-offline-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A loopback port that was free a moment ago and is closed now: connecting to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The clone: the tracked files `npm run spec` can reach, and the workspace's installed node_modules. */
function freshClone(): string {
  const clone = path.join(tmp, "clone");
  const tracked = execFileSync("git", ["ls-files", "-z", "scripts", "generator"], { cwd: REPO_ROOT, encoding: "utf8" });
  for (const file of ["package.json", ...tracked.split("\0").filter((f) => f !== "")]) {
    mkdirSync(path.dirname(path.join(clone, file)), { recursive: true });
    copyFileSync(path.join(REPO_ROOT, file), path.join(clone, file));
  }
  symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(clone, "node_modules"), "dir");
  return clone;
}

function run(cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  const child = spawn("npm", ["run", "--silent", "spec"], { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stderr }));
  });
}

describe("npm run spec in a fresh clone without network", () => {
  it("exits non-zero with the URL, its cause and the MCP_SPEC_DIR / ../shared/spec / mirror instruction", async () => {
    const scripts = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")).scripts;
    expect(scripts.test).toMatch(/^npm run spec && /);
    const clone = freshClone();
    expect(existsSync(path.resolve(clone, "../shared"))).toBe(false);
    const port = await closedPort();
    const env: NodeJS.ProcessEnv = { ...process.env, MCP_SPEC_BASE_URL: `http://127.0.0.1:${port}` };
    delete env.MCP_SPEC_DIR;
    const { code, stderr } = await run(clone, env);
    expect(code).not.toBe(0);
    expect(stderr).toMatch(
      new RegExp(
        `^spec: cannot download http://127\\.0\\.0\\.1:${port}/modelcontextprotocol/\\S+: fetch failed \\(.*ECONNREFUSED`,
      ),
    );
    expect(stderr).toContain("set MCP_SPEC_DIR to a folder laid out as the specification's schema/ folder");
    expect(stderr).toContain(
      `or put that folder at ${path.join(tmp, "shared", "spec")} (../shared/spec beside the clone)`,
    );
    expect(stderr).toContain("or set MCP_SPEC_BASE_URL to a mirror of https://raw.githubusercontent.com");
    expect(existsSync(path.join(clone, ".spec", ".verified"))).toBe(false);
  });
});
