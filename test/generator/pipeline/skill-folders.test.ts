/**
 * Skill folders checked at generation time (generator/pipeline/skill-folders.ts): real folders on disk, the page's
 * rules each with its exact error line, every problem of a run reported at once, and digests that are the SHA-256
 * of the bytes written here (computed by the test with node:crypto on its own copy).
 */
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readSkillFolders, SkillFolderError } from "../../../generator/pipeline/skill-folders.ts";

const tmp = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-skills-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function tree(name: string, files: Record<string, string | Buffer>): string {
  const dir = path.join(tmp, name);
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    writeFileSync(path.join(dir, rel), content);
  }
  return dir;
}

function problemsOf(folders: { dir: string; shown: string }[]): readonly string[] {
  try {
    readSkillFolders(folders);
  } catch (error) {
    if (error instanceof SkillFolderError) return error.problems;
    throw error;
  }
  throw new Error("expected a SkillFolderError");
}

const sha = (s: string) => createHash("sha256").update(s).digest("hex");

describe("skill folders read at generation time", () => {
  it("lists a skill and its nested skill with every file's digest and size", () => {
    const skill = "---\nname: refunds\ndescription: Process refunds\nlicense: Apache-2.0\n---\n\n# Refunds\n";
    const nested = "---\nname: eu\ndescription: EU rules\n---\nEU\n";
    const dir = tree("one/refunds", { "SKILL.md": skill, "examples/email.md": "Dear customer", "eu/SKILL.md": nested });
    const entries = readSkillFolders([{ dir, shown: "skills/refunds" }]);
    expect(entries).toEqual([
      {
        path: "refunds",
        frontmatter: { name: "refunds", description: "Process refunds", license: "Apache-2.0" },
        files: [
          { path: "SKILL.md", sha256: sha(skill), size: Buffer.byteLength(skill), bytes: Buffer.from(skill) },
          { path: "eu/SKILL.md", sha256: sha(nested), size: Buffer.byteLength(nested), bytes: Buffer.from(nested) },
          { path: "examples/email.md", sha256: sha("Dear customer"), size: 13, bytes: Buffer.from("Dear customer") },
        ],
      },
      {
        path: "refunds/eu",
        frontmatter: { name: "eu", description: "EU rules" },
        files: [{ path: "SKILL.md", sha256: sha(nested), size: Buffer.byteLength(nested), bytes: Buffer.from(nested) }],
      },
    ]);
  });

  it("reports every broken rule of one run, each with its file and line", () => {
    const wrongName = tree("two/billing", { "SKILL.md": "---\ndescription: d\nname: refunds\n---\n" });
    const noDescription = tree("two/notes", { "SKILL.md": "---\nname: notes\n---\n" });
    const noFrontmatter = tree("two/plain", { "SKILL.md": "# just text\n" });
    const noSkillMd = tree("two/empty", { "README.md": "x" });
    const badName = tree("two/Bad_Name", { "SKILL.md": "---\nname: Bad_Name\ndescription: d\n---\n" });
    const linked = tree("two/linked", { "SKILL.md": "---\nname: linked\ndescription: d\n---\n" });
    symlinkSync("/etc/hostname", path.join(linked, "outside.txt"));
    const many = tree(
      "two/many",
      Object.fromEntries([
        ["SKILL.md", "---\nname: many\ndescription: d\n---\n"],
        ...Array.from({ length: 512 }, (_, i) => [`f${i}.txt`, "x"]),
      ]),
    );
    const bigSkill = "---\nname: big\ndescription: d\n---\n";
    const big = tree("two/big", {
      "SKILL.md": bigSkill,
      "blob.bin": Buffer.alloc(16 * 1024 * 1024),
    });
    expect(
      problemsOf([
        { dir: wrongName, shown: "skills/billing" },
        { dir: noDescription, shown: "skills/notes" },
        { dir: noFrontmatter, shown: "skills/plain" },
        { dir: noSkillMd, shown: "skills/empty" },
        { dir: badName, shown: "skills/Bad_Name" },
        { dir: linked, shown: "skills/linked" },
        { dir: many, shown: "skills/many" },
        { dir: big, shown: "skills/big" },
        { dir: path.join(tmp, "nowhere"), shown: "skills/nowhere" },
      ]),
    ).toEqual([
      'skills/billing/SKILL.md:3: name "refunds" is not the folder\'s name "billing"',
      "skills/notes/SKILL.md:2: frontmatter needs a string description",
      "skills/plain/SKILL.md:1: SKILL.md must begin with YAML frontmatter between --- lines",
      "skills/empty:1: no SKILL.md (every skill has one at its root)",
      'skills/Bad_Name/SKILL.md:2: name "Bad_Name" must be 1-64 lowercase letters, digits and single hyphens',
      "skills/linked/outside.txt:1: a symlink; a skill holds files only (no links)",
      "skills/many/SKILL.md:1: 513 files, more than the 512 a skill may hold",
      `skills/big/SKILL.md:1: ${16 * 1024 * 1024 + Buffer.byteLength(bigSkill)} bytes, more than the 16777216 (16 MiB) a skill may hold`,
      "skills/nowhere:1: no such folder",
    ]);
  });

  it("checks each nested skill on its own: frontmatter, name = its folder, and its files counted for the skill enclosing it", () => {
    const outer = tree("three/outer", {
      "SKILL.md": "---\nname: outer\ndescription: d\n---\n",
      "inner/SKILL.md": "---\ndescription: d\nname: other\n---\n",
      "deep/er/SKILL.md": "---\nname: er\n---\n",
      ...Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`inner/f${i}.txt`, "x"])),
      ...Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`g${i}.txt`, "x"])),
    });
    // outer holds all 603 files; inner its own 301 (under the limit); er its one
    expect(problemsOf([{ dir: outer, shown: "skills/outer" }])).toEqual([
      "skills/outer/SKILL.md:1: 603 files, more than the 512 a skill may hold",
      "skills/outer/deep/er/SKILL.md:2: frontmatter needs a string description",
      'skills/outer/inner/SKILL.md:3: name "other" is not the folder\'s name "inner"',
    ]);
  });

  it("refuses every way out of the folder: a linked folder, a linked skill folder, a special file", () => {
    const outside = tree("four/outside", { "secret.txt": "not part of the skill" });
    const escaping = tree("four/escaping", { "SKILL.md": "---\nname: escaping\ndescription: d\n---\n" });
    symlinkSync(outside, path.join(escaping, "docs"));
    symlinkSync("..", path.join(escaping, "up"));
    const real = tree("four/real", { "SKILL.md": "---\nname: linked-skill\ndescription: d\n---\n" });
    const linkedSkill = path.join(tmp, "four/linked-skill");
    symlinkSync(real, linkedSkill);
    const special = tree("four/special", { "SKILL.md": "---\nname: special\ndescription: d\n---\n" });
    execFileSync("mkfifo", [path.join(special, "pipe")]);
    const file = tree("four/file-not-folder", { "x.md": "x" });
    expect(
      problemsOf([
        { dir: escaping, shown: "skills/escaping" },
        { dir: linkedSkill, shown: "skills/linked-skill" },
        { dir: special, shown: "skills/special" },
        { dir: path.join(file, "x.md"), shown: "skills/x.md" },
      ]),
    ).toEqual([
      "skills/escaping/docs:1: a symlink; a skill holds files only (no links)",
      "skills/escaping/up:1: a symlink; a skill holds files only (no links)",
      "skills/linked-skill:1: not a folder (a skill is a folder holding SKILL.md)",
      "skills/special/pipe:1: neither a file nor a folder",
      "skills/x.md:1: not a folder (a skill is a folder holding SKILL.md)",
    ]);
  });

  it("gives a frontmatter problem the line of SKILL.md it is on", () => {
    const broken = tree("five/broken", { "SKILL.md": "---\nname: broken\ndescription: d\nlicense: [open\n---\n" });
    const list = tree("five/list", { "SKILL.md": "---\n- name\n- description\n---\n" });
    const empty = tree("five/empty-name", { "SKILL.md": "---\ndescription: d\nlicense: x\nname: ''\n---\n" });
    const typed = tree("five/typed", { "SKILL.md": "---\nname: typed\n\ndescription: 42\n---\n" });
    const problems = problemsOf([
      { dir: broken, shown: "skills/broken" },
      { dir: list, shown: "skills/list" },
      { dir: empty, shown: "skills/empty-name" },
      { dir: typed, shown: "skills/typed" },
    ]);
    expect(problems).toEqual([
      "skills/broken/SKILL.md:4: frontmatter is not YAML: Flow sequence in block collection must be sufficiently indented and end with a ]",
      "skills/list/SKILL.md:2: frontmatter must be a mapping with name and description",
      "skills/empty-name/SKILL.md:4: frontmatter needs a string name",
      "skills/typed/SKILL.md:4: frontmatter needs a string description",
    ]);
  });
});
