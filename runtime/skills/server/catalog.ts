/**
 * What a server's skills are (the Skills extension, `io.modelcontextprotocol/skills`): each skill a path in the
 * server's skill namespace, its SKILL.md frontmatter, and its files with their digests and sizes (recorded by
 * `mcp-gen generate` from the skill folders, or given by code), or "dynamic" content produced on request. The
 * catalog maps every file and folder of it to its `skill://` URI (the page's "Resource Mapping").
 */
import type { Awaitable } from "../../protocol/helper-types.ts";
import type { RequestContext } from "../../server/context.ts";

/** SKILL.md's YAML frontmatter as a JSON object: `name` and `description`, and every other field as written. */
export interface SkillFrontmatter {
  readonly name: string;
  readonly description: string;
  readonly [field: string]: unknown;
}

/** One file of a skill: its path in the skill's folder (`/`-separated), SHA-256 (64 lowercase hex) and size. */
export interface SkillFileRecord {
  readonly path: string;
  readonly sha256: string;
  readonly size: number;
}

/** A skill whose files are known ahead (the generated catalog, or code): every file with its digest and size. */
export interface StaticSkill {
  /** The skill's path in the namespace (`git-workflow`, `acme/billing/refunds`); its last segment is `name`. */
  readonly path: string;
  readonly frontmatter: SkillFrontmatter;
  /** Every file of the skill, SKILL.md and the files of nested skills included. */
  readonly files: readonly SkillFileRecord[];
}

/** A skill whose content is produced on request: served with `resources: "dynamic"` (no digests). */
export interface DynamicSkill {
  readonly path: string;
  readonly frontmatter: SkillFrontmatter;
  readonly resources: "dynamic";
  /** A file's content by its path in the skill's folder, or undefined when there is none. */
  read(file: string, context: RequestContext): Awaitable<Uint8Array | string | undefined>;
  /** The skill's file paths now (for `resources/directory/read`); absent: only SKILL.md is listed. */
  files?(context: RequestContext): Awaitable<readonly string[]>;
}

export type SkillDefinition = StaticSkill | DynamicSkill;

/** The bytes of a static skill's file (by skill path and file path), e.g. `embeddedSkillFiles(...)` or a disk read. */
export type SkillFileLoader = (skill: string, file: string) => Awaitable<Uint8Array | string>;

export function isDynamic(skill: SkillDefinition): skill is DynamicSkill {
  return (skill as DynamicSkill).resources === "dynamic";
}

/** `skill://<skill-path>/<file-path>`, each segment percent-encoded where a URI needs it. */
export function skillUri(skill: string, file?: string): string {
  const segments = (file === undefined ? skill : `${skill}/${file}`).split("/");
  return `skill://${segments.map((s) => encodeURIComponent(s)).join("/")}`;
}

/** A file of the namespace: the skill that owns it first (the innermost one for a nested skill's file). */
export interface CatalogFile {
  readonly skill: SkillDefinition;
  /** Path in `skill`'s folder. */
  readonly path: string;
  /** Its record, for a static skill's file. */
  readonly record: SkillFileRecord | undefined;
}

const NAME_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** Every problem of a skill definition (empty: none), said with the skill's path. */
export function skillProblems(skill: SkillDefinition): string[] {
  const problems: string[] = [];
  const name = skill.path.split("/").at(-1);
  if (!skill.path || skill.path.split("/").some((s) => s === "" || s === "." || s === ".."))
    problems.push(`skill path "${skill.path}" must be /-separated segments, none empty, "." or ".."`);
  if (typeof skill.frontmatter?.name !== "string" || typeof skill.frontmatter.description !== "string")
    problems.push(`skill ${skill.path}: frontmatter needs string name and description`);
  else if (skill.frontmatter.name !== name)
    problems.push(`skill ${skill.path}: the last path segment must equal its name "${skill.frontmatter.name}"`);
  else if (!NAME_PATTERN.test(name) || name.length > 64)
    problems.push(`skill ${skill.path}: name "${name}" must be 1-64 lowercase letters, digits and single hyphens`);
  if (!isDynamic(skill)) {
    if (!skill.files.some((f) => f.path === "SKILL.md")) problems.push(`skill ${skill.path}: no SKILL.md file`);
    for (const f of skill.files)
      if (!/^[0-9a-f]{64}$/.test(f.sha256) || !Number.isSafeInteger(f.size) || f.size < 0)
        problems.push(`skill ${skill.path}: file ${f.path} needs a sha256 of 64 lowercase hex and a size`);
  }
  return problems;
}

/** The namespace of a server's skills: entries by SKILL.md URI, files by URI, folders with their children. */
export class SkillCatalog {
  readonly skills: readonly SkillDefinition[];
  private readonly bySkillUri = new Map<string, SkillDefinition>();
  private readonly files = new Map<string, CatalogFile>();
  /** Folder URI → its direct children (name → whether a folder), for static skills. */
  private readonly folders = new Map<string, Map<string, boolean>>();

  constructor(skills: readonly SkillDefinition[]) {
    const problems = skills.flatMap(skillProblems);
    if (problems.length > 0) throw new Error(`invalid skills:\n${problems.join("\n")}`);
    // Innermost skills first: a nested skill's file belongs to it for reading, whichever entry lists it.
    this.skills = skills;
    const byDepth = [...skills].sort((a, b) => b.path.split("/").length - a.path.split("/").length);
    for (const skill of skills) {
      const uri = skillUri(skill.path, "SKILL.md");
      if (this.bySkillUri.has(uri)) throw new Error(`invalid skills: ${skill.path} is listed twice`);
      this.bySkillUri.set(uri, skill);
    }
    for (const skill of byDepth) {
      // A dynamic skill's folders are its `files()` at the time of a request, not recorded here.
      if (isDynamic(skill)) continue;
      this.addFolder(skill.path);
      for (const record of skill.files) {
        const uri = skillUri(skill.path, record.path);
        if (!this.files.has(uri)) this.files.set(uri, { skill, path: record.path, record });
        this.addPath(skill.path, record.path);
      }
    }
  }

  entry(skillMdUri: string): SkillDefinition | undefined {
    return this.bySkillUri.get(skillMdUri);
  }

  /** A static file, or the dynamic skill whose folder holds the URI (with the file's path in it). */
  file(uri: string): CatalogFile | undefined {
    const known = this.files.get(uri);
    if (known) return known;
    for (const skill of this.skills) {
      const root = `${skillUri(skill.path)}/`;
      if (isDynamic(skill) && uri.startsWith(root))
        return { skill, path: decodeURIComponent(uri.slice(root.length)), record: undefined };
    }
    return undefined;
  }

  /** The direct children of a static folder (name → is a folder), or undefined when `uri` is not one. */
  folder(uri: string): ReadonlyMap<string, boolean> | undefined {
    return this.folders.get(uri);
  }

  /** A skill's root folder (the prefix segments above a skill's root are not directory resources). */
  private addFolder(path: string): void {
    const uri = skillUri(path);
    if (!this.folders.has(uri)) this.folders.set(uri, new Map());
  }

  private addPath(skill: string, file: string): void {
    const segments = file.split("/");
    let folder = skill;
    for (let i = 0; i < segments.length; i++) {
      const isFolder = i < segments.length - 1;
      const children = this.folders.get(skillUri(folder)) ?? new Map<string, boolean>();
      this.folders.set(skillUri(folder), children);
      children.set(segments[i]!, isFolder || (children.get(segments[i]!) ?? false));
      folder = `${folder}/${segments[i]}`;
    }
  }
}
