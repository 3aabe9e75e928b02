/**
 * docs/consumers.md's "The workflow in four commands", run as written: its shell block (import, generate --check, the
 * program with tsx, check --live with SARIF) and its `app.ts`, in a folder whose `.mcp.json` lists the installed
 * server-filesystem (the docs' `npx -y` would fetch it). `npx mcp-gen` is this repository's CLI, `npx tsx` its tsx.
 */
import { execFile } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CLI, REPO } from "../cli-run.ts";

const require = createRequire(import.meta.url);
const SCRATCH = path.join(REPO, ".tmp", `consumer-workflow-${process.pid}`);
const FILESYSTEM = require.resolve("@modelcontextprotocol/server-filesystem/dist/index.js");
const SECTION = "## The workflow in four commands";

/** The commands as the docs show them; the test fails when the docs say something else. */
const WORKFLOW = [
  "npx mcp-gen import --config .mcp.json",
  "npx mcp-gen generate -m mcp-servers/filesystem/mcp.yaml --check",
  "npx tsx app.ts",
  "npx mcp-gen check --live --format sarif --output mcp.sarif",
];

/** The section's first fenced block of `lang`, unindented (the program sits in a list item). */
function block(doc: string, lang: string): string {
  const section = doc.slice(doc.indexOf(SECTION), doc.indexOf("\n## ", doc.indexOf(SECTION) + SECTION.length));
  const match = new RegExp("^( *)```" + lang + "\\n([\\s\\S]*?)^\\1```", "m").exec(section);
  if (!match) throw new Error(`docs/consumers.md has no \`\`\`${lang} block under "${SECTION}"`);
  const indent = match[1]!.length;
  return match[2]!
    .split("\n")
    .map((line) => line.slice(Math.min(indent, line.length - line.trimStart().length)))
    .join("\n");
}

/** `npx mcp-gen …` / `npx tsx …` as this repository runs them. */
async function runDocCommand(command: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const [npx, tool, ...args] = command.split(" ");
  expect(npx).toBe("npx");
  const entry = tool === "mcp-gen" ? CLI : require.resolve("tsx/cli");
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [entry, ...args], { cwd: SCRATCH });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

let doc: string;

beforeAll(async () => {
  doc = await readFile(path.join(REPO, "docs/consumers.md"), "utf8");
  await mkdir(SCRATCH, { recursive: true });
  await writeFile(path.join(SCRATCH, "package.json"), JSON.stringify({ type: "module", private: true }));
  await writeFile(path.join(SCRATCH, "README.md"), "# Read through the typed client\n");
  const config = {
    mcpServers: { filesystem: { command: process.execPath, args: [FILESYSTEM, "${workspaceFolder}"] } },
  };
  await writeFile(path.join(SCRATCH, ".mcp.json"), JSON.stringify(config));
  await writeFile(path.join(SCRATCH, "app.ts"), block(doc, "ts"));
});

afterAll(async () => {
  await rm(SCRATCH, { recursive: true, force: true });
});

it("shows the four commands this test runs", () => {
  const commands = block(doc, "sh")
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  expect(commands).toEqual(WORKFLOW);
});

it("import, generate --check, the program and check --live each succeed as the docs say", async () => {
  const [importing, generating, using, checking] = WORKFLOW as [string, string, string, string];
  const imported = await runDocCommand(importing);
  expect(imported.code, imported.stderr).toBe(0);
  expect(imported.stdout).toContain("imported 1 of 1 servers");

  const generated = await runDocCommand(generating);
  expect(generated.code, generated.stderr).toBe(0);

  const used = await runDocCommand(using);
  expect(used.code, used.stderr).toBe(0);
  expect(used.stdout).toBe("# Read through the typed client\n\n");

  const checked = await runDocCommand(checking);
  expect(checked.code, checked.stderr + checked.stdout).toBe(0);
  const sarif = JSON.parse(await readFile(path.join(SCRATCH, "mcp.sarif"), "utf8")) as {
    version: string;
    runs: { results: unknown[] }[];
  };
  expect(sarif.version).toBe("2.1.0");
  expect(sarif.runs[0]!.results).toEqual([]);
}, 300_000);
