/**
 * `mcp-gen import --config` and `check --live` with the credentials people put in host configs (issue 34, items 11–13;
 * issue 35, item 5), the built CLI against real server processes:
 * - an HTTP server taking a personal access token (`pat-server.mjs`: `Authorization` from the config's headers and
 *   `?api_key=` in its URL) is imported and checked: the config's own `Authorization` reaches it;
 * - literal credentials in `args` (`--api-key sk-…`) and in the URL are not written into the index: each becomes an
 *   input, with a note; no planted secret appears in any written file or any output;
 * - a stopped server is reported with its URL and the cause below "fetch failed";
 * - the note about the client's capabilities is printed once per run;
 * - a lock whose `manifest` points outside its folder is refused, and nothing is written there.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, REPO, type CliRun } from "../cli-run.ts";

const SCRATCH = path.join(REPO, ".tmp", `consumer-credentials-${process.pid}`);
const PAT_SERVER = path.join(REPO, "test/generator/consumer/pat-server.mjs");
const TOOLS_SERVER = path.join(REPO, "test/generator/consumer/tools-file-server.mjs");
const SECRETS = {
  pat: "pat-PLANTED-q1w2e3r4",
  urlKey: "urlkey-PLANTED-t5y6u7",
  argKey: "sk-PLANTEDa8s9d0f1g2",
};
let server: ChildProcess;
let port: number;
let stoppedPort: number;
let imported: CliRun;

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, "127.0.0.1");
  await once(probe, "listening");
  const free = (probe.address() as { port: number }).port;
  probe.close();
  await once(probe, "close");
  return free;
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

beforeAll(async () => {
  await mkdir(SCRATCH, { recursive: true });
  await writeFile(path.join(SCRATCH, "package.json"), JSON.stringify({ type: "module", private: true }));
  await writeFile(
    path.join(SCRATCH, "tools.json"),
    JSON.stringify([{ name: "echo", inputSchema: { type: "object" } }]),
  );
  server = spawn(process.execPath, [PAT_SERVER], {
    env: { ...process.env, PAT: SECRETS.pat, API_KEY: SECRETS.urlKey },
    stdio: ["ignore", "pipe", "inherit"],
  });
  port = await new Promise<number>((resolve, reject) => {
    let out = "";
    server.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    server.once("exit", (code) => reject(new Error(`pat-server exited with ${code}`)));
  });
  stoppedPort = await freePort();
  const config = {
    mcpServers: {
      pat: {
        type: "http",
        url: `http://127.0.0.1:${port}/mcp?api_key=${SECRETS.urlKey}`,
        headers: { Authorization: "Bearer ${env:PLANTED_PAT}" },
      },
      tools: { command: process.execPath, args: [TOOLS_SERVER, "tools.json", "--api-key", SECRETS.argKey] },
      stopped: { type: "http", url: `http://127.0.0.1:${stoppedPort}/mcp` },
    },
  };
  await writeFile(path.join(SCRATCH, ".mcp.json"), JSON.stringify(config, null, 2));
  process.env["PLANTED_PAT"] = SECRETS.pat;
  imported = await cli(SCRATCH, "import", "--config", ".mcp.json");
}, 180_000);

afterAll(async () => {
  server?.kill();
  delete process.env["PLANTED_PAT"];
  await rm(SCRATCH, { recursive: true, force: true });
});

const stoppedReason = () =>
  new RegExp(
    `http://127\\.0\\.0\\.1:${stoppedPort}/mcp: fetch failed: connect ECONNREFUSED 127\\.0\\.0\\.1:${stoppedPort}`,
  );

describe("import --config with credentials in the config", () => {
  it("imports the server that takes a personal access token from the config's Authorization header", async () => {
    expect(imported.stderr).not.toMatch(/pat: failed/);
    const manifest = await readFile(path.join(SCRATCH, "mcp-servers", "pat", "mcp.yaml"), "utf8");
    expect(manifest).toContain("name: whoami");
    expect(imported.code, imported.stderr).toBe(2); // `stopped` failed
    expect(imported.stderr).toContain("imported 2 of 3 servers; failed: stopped");
  });

  it("names a stopped server's URL and the cause", () => {
    expect(imported.stderr).toMatch(new RegExp(`stopped: failed: ${stoppedReason().source}`));
  });

  it("writes literal credentials of args and url as inputs, with a note each, and prints the capabilities note once", async () => {
    const index = await readFile(path.join(SCRATCH, "mcp-servers", "index.ts"), "utf8");
    expect(index).toMatch(/"--api-key",\s*"\$\{input:tools\.api-key\}"/);
    expect(index).toContain(`/mcp?api_key=\${input:pat.url-api_key}`);
    expect(imported.stdout).toContain(
      `mcp-gen: tools: note: args[3] (after --api-key) is a literal credential in the config: the index reads it from connect()'s inputs["tools.api-key"]`,
    );
    expect(imported.stdout).toContain(
      `mcp-gen: pat: note: the url's ?api_key is a literal credential in the config: the index reads it from connect()'s inputs["pat.url-api_key"]`,
    );
    expect(imported.stdout.match(/read as a client declaring/g)).toHaveLength(1);
  });

  it("check --live reaches the token server too; stopped, it is named with its URL (redacted) and the cause", async () => {
    const checked = await cli(SCRATCH, "check", "--live");
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
    expect(checked.stdout).toContain("pat: matches its pins");
    server.kill();
    await once(server, "exit");
    const stopped = await cli(SCRATCH, "check", "--live");
    expect(stopped.code).toBe(1);
    expect(stopped.stdout).toMatch(
      new RegExp(
        `pat: not checked: http://127\\.0\\.0\\.1:${port}/mcp\\?api_key=\\*\\*\\*: fetch failed: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}`,
      ),
    );
    const outputs = [imported, checked, stopped].flatMap((run) => [run.stdout, run.stderr]);
    const written = (await filesUnder(SCRATCH)).filter((f) => f !== path.join(SCRATCH, ".mcp.json"));
    const texts = [...outputs, ...(await Promise.all(written.map((f) => readFile(f, "utf8"))))];
    for (const secret of Object.values(SECRETS)) for (const text of texts) expect(text).not.toContain(secret);
  }, 120_000);

  it("refuses a lock whose manifest path leaves its folder, and writes nothing there", async () => {
    const lockFile = path.join(SCRATCH, "mcp-servers", "mcp.lock.json");
    const lock = JSON.parse(await readFile(lockFile, "utf8")) as { servers: Record<string, { manifest: string }> };
    lock.servers["tools"]!.manifest = "../escape/mcp.yaml";
    await writeFile(lockFile, JSON.stringify(lock));
    const again = await cli(SCRATCH, "import", "--config", ".mcp.json", "--server", "tools");
    const checked = await cli(SCRATCH, "check", "--live");
    for (const run of [again, checked]) {
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(
        "mcp.lock.json is not an mcp-gen lock: servers.tools.manifest: must be <folder>/mcp.yaml as import --config writes it",
      );
    }
    expect(existsSync(path.join(SCRATCH, "mcp.yaml"))).toBe(false);
    expect(existsSync(path.join(SCRATCH, "escape"))).toBe(false);
  }, 120_000);
});
