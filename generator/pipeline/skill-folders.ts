/**
 * Skill folders read at generation time (issue 36.3, the Skills extension's page: "Skill Format", "Limits"): every
 * rule is checked here, with `file:line` errors, all problems of a run at once, so that what a server serves was
 * checked before it was built. A skill is a folder holding `SKILL.md` whose YAML frontmatter has string `name` and
 * `description`; the folder's last path segment equals `name`; a descendant folder with its own `SKILL.md` is a
 * nested skill (its files count for the enclosing skill too); at most 512 files and 16 MiB per skill; no symlinks.
 * The entry records each file's SHA-256 and size, the digests the served entry carries.
 */
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { LineCounter, parseDocument } from "yaml";
import type { ReadSkill, SkillReader } from "../manifest/lower-skills.ts";

/** The page's per-skill limits. */
export const SKILL_LIMITS = { files: 512, bytes: 16 * 1024 * 1024 } as const;

/** The Agent Skills naming rule of a skill's name: 1-64 lowercase letters and digits, single hyphens between. */
const NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Every problem of the named folders, `file:line: reason` each (line 1 where no line applies). */
export class SkillFolderError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join("\n"));
    this.name = "SkillFolderError";
  }
}

interface Found {
  readonly rel: string;
  readonly data: Buffer;
}

/** Files under `dir` (relative, sorted), refusing symlinks and anything that is neither a file nor a folder. */
function walk(dir: string, shown: string, problems: string[]): Found[] {
  const found: Found[] = [];
  const visit = (rel: string) => {
    for (const name of readdirSync(path.join(dir, rel)).sort()) {
      const child = rel === "" ? name : `${rel}/${name}`;
      const stat = lstatSync(path.join(dir, child));
      if (stat.isSymbolicLink()) problems.push(`${shown}/${child}:1: a symlink; a skill holds files only (no links)`);
      else if (stat.isDirectory()) visit(child);
      else if (stat.isFile()) found.push({ rel: child, data: readFileSync(path.join(dir, child)) });
      else problems.push(`${shown}/${child}:1: neither a file nor a folder`);
    }
  };
  visit("");
  return found;
}

/** SKILL.md's frontmatter, or the problems with it. */
function frontmatterOf(file: string, text: string, folderName: string, problems: string[]): Record<string, unknown> {
  const match = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/.exec(text);
  if (!match) {
    problems.push(`${file}:1: SKILL.md must begin with YAML frontmatter between --- lines`);
    return {};
  }
  const lines = new LineCounter();
  const doc = parseDocument(match[1]!, { lineCounter: lines });
  if (doc.errors.length > 0) {
    const error = doc.errors[0]!;
    problems.push(
      // yaml's own "at line N, column M" counts from the frontmatter's first line, not the file's: left out
      `${file}:${lines.linePos(error.pos[0]).line + 1}: frontmatter is not YAML: ${error.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "")}`,
    );
    return {};
  }
  const value: unknown = doc.toJS();
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    problems.push(`${file}:2: frontmatter must be a mapping with name and description`);
    return {};
  }
  const fields = value as Record<string, unknown>;
  const lineOf = (key: string) => {
    const node = doc.contents && "items" in doc.contents ? doc.contents.items : [];
    const pair = (node as { key?: { value?: unknown; range?: [number] } }[]).find((p) => p.key?.value === key);
    return pair?.key?.range ? lines.linePos(pair.key.range[0]).line + 1 : 2;
  };
  for (const key of ["name", "description"]) {
    if (typeof fields[key] !== "string" || fields[key] === "")
      problems.push(`${file}:${fields[key] === undefined ? 2 : lineOf(key)}: frontmatter needs a string ${key}`);
  }
  if (typeof fields.name !== "string" || fields.name === "") return fields; // reported above, once
  if (fields.name !== folderName)
    problems.push(`${file}:${lineOf("name")}: name "${fields.name}" is not the folder's name "${folderName}"`);
  else if (!NAME_PATTERN.test(fields.name) || fields.name.length > 64)
    problems.push(
      `${file}:${lineOf("name")}: name "${fields.name}" must be 1-64 lowercase letters, digits and single hyphens`,
    );
  return fields;
}

/**
 * The skills of the folders a manifest names (`shown`: each as the manifest writes it, for messages), nested
 * skills included, in folder order; throws `SkillFolderError` listing every problem.
 */
export function readSkillFolders(folders: readonly { dir: string; shown: string }[]): ReadSkill[] {
  const problems: string[] = [];
  const entries: ReadSkill[] = [];
  for (const { dir, shown } of folders) {
    let stat;
    try {
      stat = lstatSync(dir);
    } catch {
      problems.push(`${shown}:1: no such folder`);
      continue;
    }
    if (stat.isSymbolicLink() || !stat.isDirectory()) {
      problems.push(`${shown}:1: not a folder (a skill is a folder holding SKILL.md)`);
      continue;
    }
    const files = walk(dir, shown, problems);
    const roots = files
      .filter((f) => f.rel === "SKILL.md" || f.rel.endsWith("/SKILL.md"))
      .map((f) => path.posix.dirname(f.rel));
    if (!roots.includes(".")) problems.push(`${shown}:1: no SKILL.md (every skill has one at its root)`);
    const top = path.basename(path.resolve(dir));
    for (const root of roots) {
      const prefix = root === "." ? "" : `${root}/`;
      const own = files.filter((f) => f.rel.startsWith(prefix));
      const skillPath = root === "." ? top : `${top}/${root}`;
      const skillMd = `${shown}/${prefix}SKILL.md`;
      const frontmatter = frontmatterOf(
        skillMd,
        own.find((f) => f.rel === `${prefix}SKILL.md`)!.data.toString("utf8"),
        path.posix.basename(skillPath),
        problems,
      );
      const bytes = own.reduce((sum, f) => sum + f.data.length, 0);
      if (own.length > SKILL_LIMITS.files)
        problems.push(`${skillMd}:1: ${own.length} files, more than the ${SKILL_LIMITS.files} a skill may hold`);
      if (bytes > SKILL_LIMITS.bytes)
        problems.push(`${skillMd}:1: ${bytes} bytes, more than the ${SKILL_LIMITS.bytes} (16 MiB) a skill may hold`);
      entries.push({
        path: skillPath,
        frontmatter,
        files: own.map((f) => ({
          path: f.rel.slice(prefix.length),
          sha256: createHash("sha256").update(f.data).digest("hex"),
          size: f.data.length,
          bytes: f.data,
        })),
      });
    }
  }
  if (problems.length > 0) throw new SkillFolderError(problems);
  return entries;
}

/** The read stage of `skills.folders`: each folder named relative to the manifest, read and checked. */
export function skillFolderReader(manifestDir: string): SkillReader {
  return (folder) => {
    try {
      return { skills: readSkillFolders([{ dir: path.resolve(manifestDir, folder), shown: folder }]) };
    } catch (error) {
      if (error instanceof SkillFolderError) return { problems: error.problems };
      throw error;
    }
  };
}
