/**
 * docs/manifest.md's Skills section, run as the page says: its manifest and SKILL.md generate (through the CLI) a
 * server that, started as a process, serves the skills the folders hold; the errors it shows are what generate
 * prints for the broken folders its prose describes; its dynamic-skill program type-checks (strict +
 * exactOptionalPropertyTypes, nodenext) against the generated code and serves, beside the manifest's, the dynamic
 * skill a client lists and reads. `@mcp-gen/runtime` resolves through the workspace link to the package build.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { builtinRevisions, McpClient } from "../../runtime/index.ts";
import { StdioClientTransport } from "../../runtime/node.ts";
import { skillsClient, skillsOf } from "../../runtime/skills/index.ts";
import { nodeArgs } from "../fixture-run.ts";
import { REPO, cli, runNode } from "../generator/cli-run.ts";
import { userCompilerOptions } from "./user-tsconfig.ts";

const page = readFileSync(path.join(REPO, "docs/manifest.md"), "utf8");
const section = page.slice(page.indexOf("\n## Skills\n"));
/** The section's ```<lang> blocks, in order. */
const blocks = (lang: string) =>
  [...section.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]!);

mkdirSync(path.join(REPO, ".tmp"), { recursive: true });
const root = mkdtempSync(path.join(REPO, ".tmp", "manifest-skills-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let projects = 0;
function project(files: Readonly<Record<string, string>>): string {
  const dir = path.join(root, `p${projects++}`);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

const [manifest] = blocks("yaml");
const [skillMd] = blocks("markdown");
const NOTES = "---\nname: notes\ndescription: Take notes.\n---\n";

describe("docs/manifest.md#skills", () => {
  it("has its blocks", () => {
    expect(section.startsWith("\n## Skills\n")).toBe(true);
    expect([blocks("yaml").length, blocks("markdown").length, blocks("text").length, blocks("ts").length]).toEqual([
      1, 1, 1, 1,
    ]);
  });

  it("prints the errors it shows for the broken folders it describes", async () => {
    const dir = project({
      "mcp.yaml": manifest!,
      "skills/refunds/SKILL.md": skillMd!.replace("name: refunds", "name: refund"),
      "skills/notes/SKILL.md": "---\nname: notes\n---\n", // no description; line 2 holds name
    });
    const run = await cli(dir, "generate", "--manifest", "mcp.yaml");
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(blocks("text")[0]);
  }, 60_000);

  it("generates a server whose dynamic-skill program type-checks and serves both kinds", async () => {
    const dir = project({
      "mcp.yaml": `${manifest!}generate:\n  importExtension: ".ts"\n`,
      "skills/refunds/SKILL.md": `${skillMd!}\n# Refunds\n`,
      "skills/refunds/policy.md": "Within 30 days.\n",
      "skills/notes/SKILL.md": NOTES,
      "package.json": JSON.stringify({ type: "module" }),
      "server.ts": blocks("ts")[0]!.replace("./generated/index.js", "./generated/index.ts"),
      "tsconfig.json": JSON.stringify({
        compilerOptions: userCompilerOptions({ importTsExtensions: true }),
        files: ["server.ts"],
      }),
    });
    const generated = await cli(dir, "generate", "--manifest", "mcp.yaml", "--out", "generated");
    expect(generated.stderr).toBe("");
    expect(generated.code).toBe(0);
    const checked = await runNode(path.join(REPO, "node_modules/typescript/bin/tsc"), ["-p", "."], { cwd: dir });
    expect(checked.stdout + checked.stderr).toBe("");

    const client = new McpClient({
      revisions: builtinRevisions,
      info: { name: "docs-host", version: "1" },
      extensions: [skillsClient({ server: "support" })],
    });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: nodeArgs(path.join(dir, "server.ts")),
        stderr: "pipe",
      }),
    );
    try {
      const skills = skillsOf(client);
      expect(skills.directoryRead).toBe(true);
      const listing = await skills.list();
      expect(listing.skills.map((s) => [s.uri, s.resources === "dynamic" ? "dynamic" : s.resources.length])).toEqual([
        ["skill://refunds/SKILL.md", 2],
        ["skill://acme/team/notes/SKILL.md", 1],
        ["skill://acme/today/SKILL.md", "dynamic"],
      ]);
      const policy = await skills.read("skill://refunds/policy.md");
      expect(policy).toMatchObject({ verified: true, text: "Within 30 days.\n" });
      const today = await skills.read("skill://acme/today/SKILL.md");
      // A dynamic skill has no digests to verify, but its frontmatter is checked against the entry all the same.
      expect(today).toMatchObject({
        verified: false,
        frontmatter: { name: "today" },
        body: "\nNothing before noon.\n",
      });
    } finally {
      await client.close();
    }
  }, 180_000); // the CLI, a tsc run and a server process: over 60 s at load 20
});
