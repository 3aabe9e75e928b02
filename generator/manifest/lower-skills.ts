/**
 * The manifest's Skills part → the skills the generated server serves (`UserSkills`). Pure: the pipeline reads and
 * checks each folder (`LowerOptions.readSkills`, `pipeline/skill-folders.ts`: the page's rules, with `file:line`);
 * here each folder's problems are reported at its manifest entry, the prefix is applied, skill paths must be unique,
 * and every file's bytes are embedded once (text when UTF-8, Base64 otherwise), so a server needs no file system.
 */
import { SchemaProblem } from "./errors.ts";
import type { Manifest } from "./manifest-schema.ts";
import type { UserSkill, UserSkillContent, UserSkills } from "./user-model.ts";

/** One skill of a folder as the read stage found it: path relative to the folder's parent, `/`-separated. */
export interface ReadSkill {
  readonly path: string;
  readonly frontmatter: Readonly<Record<string, unknown>>;
  readonly files: readonly {
    readonly path: string;
    readonly sha256: string;
    readonly size: number;
    readonly bytes: Uint8Array;
  }[];
}

/** Reads one skill folder, named as the manifest writes it: its skills, or its problems (`file:line: reason`). */
export type SkillReader = (
  folder: string,
) => { readonly skills: readonly ReadSkill[] } | { readonly problems: readonly string[] };

/** The content of a file as embedded: its text when the bytes are UTF-8 (a BOM kept), else Base64. */
function embedded(bytes: Uint8Array): { text: string } | { base64: string } {
  try {
    return { text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    return { base64: Buffer.from(bytes).toString("base64") };
  }
}

/**
 * Lowers `skills`; problems go to `problems`. `readSkills` absent: the folders are not read (no skills are served),
 * for callers that compare definitions and never serve them.
 */
export function lowerSkills(
  manifest: Manifest,
  problems: SchemaProblem[],
  readSkills: SkillReader | undefined,
): UserSkills | undefined {
  const declared = manifest.skills;
  if (!declared) return undefined;
  const entries: UserSkill[] = [];
  const contents = new Map<string, UserSkillContent>();
  const firstFolder = new Map<string, number>();
  declared.folders.forEach((entry, i) => {
    const at = ["skills", "folders", i] as const;
    const { path: folder, prefix } = typeof entry === "string" ? { path: entry, prefix: undefined } : entry;
    const read = readSkills?.(folder.replace(/\/+$/, ""));
    if (!read) return;
    if ("problems" in read) {
      for (const problem of read.problems) problems.push(new SchemaProblem(at, problem));
      return;
    }
    for (const skill of read.skills) {
      const path = prefix ? `${prefix}/${skill.path}` : skill.path;
      const earlier = firstFolder.get(path);
      if (earlier !== undefined) {
        problems.push(new SchemaProblem(at, `skill path ${path} is served by skills.folders[${earlier}] already`));
        continue;
      }
      firstFolder.set(path, i);
      const top = skill.path.split("/")[0]!;
      entries.push({
        path,
        // A nested skill's own folder, as seen from the manifest.
        folder: `${folder.replace(/\/+$/, "")}${skill.path.slice(top.length)}`,
        frontmatter: skill.frontmatter as UserSkill["frontmatter"],
        files: skill.files.map(({ path: file, sha256, size }) => ({ path: file, sha256, size })),
      });
      for (const file of skill.files) {
        const key = `${path}/${file.path}`;
        if (!contents.has(key)) contents.set(key, { key, ...embedded(file.bytes) });
      }
    }
  });
  return {
    directoryRead: declared.directoryRead ?? false,
    skills: entries,
    contents: [...contents.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
  };
}
