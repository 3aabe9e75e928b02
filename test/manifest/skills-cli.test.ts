/**
 * Skills in the manifest as users run the CLI (`mcp-gen generate` in a child process): every broken rule of the
 * skill folders at once, each at its manifest entry and with its own file:line; `generate --check` failing, naming
 * the skill file, when a skill file changed, was added or removed after generation, and passing again once regenerated.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CLI } from "../generator/cli-run.ts";

const root = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-skills-cli-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let cases = 0;
function project(files: Readonly<Record<string, string>>): string {
  const dir = path.join(root, `p${cases++}`);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

function generate(cwd: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [CLI, "generate", "--manifest", "mcp.yaml", ...args], {
    cwd,
    encoding: "utf8",
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const MANIFEST = [
  "server: { name: s, version: 1.0.0 }", // 1
  "skills:", // 2
  "  folders:", // 3
  "    - skills/notes", // 4
  "    - { path: skills/billing, prefix: acme }", // 5
  "    - skills/nowhere", // 6
  "",
].join("\n");

describe("skills in the manifest, through the CLI", () => {
  it("reports every broken rule of one run, each at its manifest entry with the skill file's own line", () => {
    const dir = project({
      "mcp.yaml": MANIFEST,
      "skills/notes/SKILL.md": "---\nname: notes\n---\n",
      "skills/billing/SKILL.md": "---\ndescription: d\nname: refunds\n---\n",
    });
    const run = generate(dir);
    expect(run.code).toBe(1);
    expect(run.stderr.trimEnd().split("\n")).toEqual([
      "mcp-gen: mcp.yaml:4:7: skills.folders[0]: skills/notes/SKILL.md:2: frontmatter needs a string description",
      'mcp-gen: mcp.yaml:5:7: skills.folders[1]: skills/billing/SKILL.md:3: name "refunds" is not the folder\'s name "billing"',
      "mcp-gen: mcp.yaml:6:7: skills.folders[2]: skills/nowhere:1: no such folder",
    ]);
    const badPrefix = project({
      "mcp.yaml":
        "server: { name: s, version: 1.0.0 }\nskills:\n  folders:\n    - { path: skills/notes, prefix: ../up }\n",
    });
    expect(generate(badPrefix).stderr).toBe(
      "mcp-gen: mcp.yaml:4:37: skills.folders[0].prefix: not a skill-path prefix: write /-separated URI segments (acme/billing)\n",
    );
  });

  it("generate --check fails naming a skill file changed, added or removed after generation", () => {
    const skill = "---\nname: notes\ndescription: Take notes\n---\n\n# Notes\n";
    const dir = project({
      "mcp.yaml": "server: { name: s, version: 1.0.0 }\nskills:\n  folders: [skills/notes]\n",
      "skills/notes/SKILL.md": skill,
      "skills/notes/guide.md": "Write it down.\n",
    });
    expect(generate(dir).code).toBe(0);
    expect(generate(dir, "--check")).toMatchObject({ code: 0, stdout: "mcp-gen: generated is up to date\n" });

    writeFileSync(path.join(dir, "skills/notes/guide.md"), "Write it all down.\n");
    const changed = generate(dir, "--check");
    expect(changed.code).toBe(1);
    expect(changed.stderr.split("\n")).toEqual(
      expect.arrayContaining([
        "mcp-gen: stale: generated/skills.ts",
        "mcp-gen: skill file skills/notes/guide.md changed after generation",
        "mcp-gen: generated is out of date with mcp.yaml; run mcp-gen generate",
      ]),
    );
    expect(generate(dir).code).toBe(0);
    expect(generate(dir, "--check").code).toBe(0);

    writeFileSync(path.join(dir, "skills/notes/extra.txt"), "x");
    unlinkSync(path.join(dir, "skills/notes/guide.md"));
    const moved = generate(dir, "--check");
    expect(moved.code).toBe(1);
    expect(moved.stderr).toContain("mcp-gen: skill file skills/notes/extra.txt was added after generation\n");
    expect(moved.stderr).toContain("mcp-gen: skill file skills/notes/guide.md was removed after generation\n");
  });
});
