/**
 * `mcp-gen import --config .vscode/mcp.json`: VS Code's `servers` map with `inputs`. `${input:id}` is filled in from
 * `MCP_INPUT_<ID>` (a CLI cannot prompt), `${workspaceFolder}` is the folder above `.vscode/`, and an input
 * without a value fails that server by name, naming the placeholder and not its value.
 */
import { execFile } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CLI, REPO } from "../cli-run.ts";

const require = createRequire(import.meta.url);
const FILESYSTEM = require.resolve("@modelcontextprotocol/server-filesystem/dist/index.js");
const SCRATCH = path.join(REPO, ".tmp", `consumer-vscode-${process.pid}`);

function importConfig(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, "import", "--config", ".vscode/mcp.json"],
      { cwd: SCRATCH, env: { ...process.env, ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  await mkdir(path.join(SCRATCH, ".vscode"), { recursive: true });
  await mkdir(path.join(SCRATCH, "shared"), { recursive: true });
  const config = {
    inputs: [{ type: "promptString", id: "folder", description: "Folder to serve" }],
    servers: {
      files: { type: "stdio", command: process.execPath, args: [FILESYSTEM, "${workspaceFolder}/${input:folder}"] },
    },
  };
  await writeFile(path.join(SCRATCH, ".vscode", "mcp.json"), JSON.stringify(config));
});

afterAll(async () => {
  await rm(SCRATCH, { recursive: true, force: true });
});

it("fills ${input:…} from MCP_INPUT_<ID> and ${workspaceFolder} with the folder above .vscode", async () => {
  const missing = await importConfig({});
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain("files: failed: no value for ${input:folder}");

  const run = await importConfig({ MCP_INPUT_FOLDER: "shared" });
  expect(run.stderr).toBe("");
  expect(run.code).toBe(0);
  const manifest = await readFile(path.join(SCRATCH, "mcp-servers", "files", "mcp.yaml"), "utf8");
  expect(manifest).toContain('# Imported by mcp-gen from server "files" of ../../.vscode/mcp.json');
  expect(manifest).toContain("name: read_text_file");
  const index = await readFile(path.join(SCRATCH, "mcp-servers", "index.ts"), "utf8");
  expect(index).toContain('"${workspaceFolder}/${input:folder}"');
}, 120_000);
