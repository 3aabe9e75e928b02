/**
 * A generated file whose `DO NOT EDIT` header a user removed is theirs (docs/generate.md, "Generation touches only its
 * own output"): while it is still one of the outputs, `generate` and `generate --check` refuse with one line naming it and
 * write nothing; restoring the header (or moving the file away) lets generation run again. Run with the real CLI.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const BIN = path.join(REPO, "bin/mcp-gen.js");
const RUNTIME = path.join(REPO, "runtime/index.ts");

function cli(cwd: string, ...args: string[]): { code: number | null; stderr: string } {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: "utf8" });
  return { code: result.status, stderr: result.stderr };
}

const manifest = (tool: string) =>
  [
    "server: { name: edited, version: 1.0.0 }",
    `generate: { out: generated, runtimeImport: ${JSON.stringify(RUNTIME)} }`,
    "tools:",
    `  - { name: ${tool}, inputSchema: { type: object, properties: { a: { type: string } } } }`,
    "",
  ].join("\n");

async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const name of (await readdir(dir)).sort()) out[name] = await readFile(path.join(dir, name), "utf8");
  return out;
}

let project: string;
let generated: string;
beforeAll(async () => {
  project = await mkdtemp(path.join(tmpdir(), "mcp-gen-edited-"));
  generated = path.join(project, "generated");
  await writeFile(path.join(project, "mcp.yaml"), manifest("first"));
  expect(cli(project, "generate")).toMatchObject({ code: 0 });
});
afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

describe("a generated file whose header was removed", () => {
  it("is neither replaced by generate nor passed by --check, and nothing else is written", async () => {
    const clientPath = path.join(generated, "client.ts");
    const original = await readFile(clientPath, "utf8");
    const edited = original.split("\n").slice(1).join("\n").replace("first", "first /* mine */");
    await writeFile(clientPath, edited);
    // A manifest change makes every output stale, so a run that wrote anything would show.
    await writeFile(path.join(project, "mcp.yaml"), manifest("second"));
    const before = await snapshot(generated);

    const expected =
      "mcp-gen: refusing to generate into generated: client.ts has lost the generated header (edited by hand?), so " +
      "mcp-gen will not replace it; move it out of the folder to keep the edits, or restore the first line to regenerate\n";
    for (const args of [["generate"], ["generate", "--check"]]) {
      const run = cli(project, ...args);
      expect(run).toEqual({ code: 1, stderr: expected });
      expect(await snapshot(generated)).toEqual(before);
    }
  });

  it("names every such file, and generation runs again once the header is back", async () => {
    const typesPath = path.join(generated, "types.ts");
    const types = await readFile(typesPath, "utf8");
    const [header = "", ...rest] = types.split("\n");
    await writeFile(typesPath, rest.join("\n"));
    expect(cli(project, "generate").stderr).toContain(
      "generated: client.ts, types.ts have lost the generated header (edited by hand?), so mcp-gen will not replace them;",
    );
    // Restored: both files are mcp-gen's again and are regenerated from the changed manifest.
    await writeFile(typesPath, types);
    const client = await readFile(path.join(generated, "client.ts"), "utf8");
    await writeFile(path.join(generated, "client.ts"), `${header}\n${client}`);
    expect(cli(project, "generate")).toMatchObject({ code: 0 });
    expect(await readFile(path.join(generated, "client.ts"), "utf8")).toContain('"second"');
    expect(await readFile(path.join(generated, "client.ts"), "utf8")).not.toContain("mine");
    expect(cli(project, "generate", "--check")).toMatchObject({ code: 0 });
    expect(existsSync(path.join(generated, ".mcp-gen.json"))).toBe(true);
  });
});
