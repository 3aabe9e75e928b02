/**
 * `mcp-gen import --url` (the real CLI, in a child process) against official SDK v1 servers in their three HTTP
 * shapes and an SDK v2 server: the same negotiation as the runtime client, so each one yields a manifest listing its
 * `echo` tool with the input schema the server published.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { killPeers, startFixture } from "./peers.ts";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const BIN = path.join(REPO, "bin/mcp-gen.js");
const V1 = fileURLToPath(new URL("./fixtures/sdk-v1-http-server.ts", import.meta.url));
const V2 = fileURLToPath(new URL("./fixtures/sdk-v2-http-server.ts", import.meta.url));
let dir: string;

beforeAll(async () => void (dir = await mkdtemp(path.join(tmpdir(), "mcp-gen-import-peers-"))));
afterAll(async () => dir && (await rm(dir, { recursive: true, force: true })));
afterEach(killPeers);

function cli(...args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stderr }));
  });
}

describe.each([
  ["SDK v1 stateful", V1, "stateful"],
  ["SDK v1 stateless", V1, "stateless"],
  ["SDK v1 HTTP+SSE", V1, "sse"],
  ["SDK v2 (2026-07-28)", V2, ""],
])("mcp-gen import --url → %s server", (_name, fixture, mode) => {
  it("writes a manifest with the server's tool", async () => {
    const url = await startFixture(fixture, ...(mode ? [mode] : []));
    const out = path.join(dir, `${mode || "v2"}.yaml`);
    const result = await cli("import", "--url", url, "--out", out);
    expect(result.code, result.stderr).toBe(0);
    const manifest = parse(await readFile(out, "utf8")) as {
      tools: { name: string; inputSchema: { properties: Record<string, unknown> } }[];
    };
    const echo = manifest.tools.find((t) => t.name === "echo");
    expect(echo?.inputSchema.properties).toHaveProperty("text");
  }, 60_000);
});
