/**
 * The entries a client holds for one server (extensions/skills, "Verification"): each `skills/list` or `skills/get`
 * entry, checked once when it arrives (a well-formed digest and size per file, every file once, SKILL.md listed,
 * every file inside the skill's folder), then looked up by file URI for every read. A held skill is one server's:
 * the client that received it holds it, so its identity is (server, uri), never the URI alone.
 */
import type { Skill, SkillResource } from "../../generated/extensions/skills/types.ts";
import { shownText } from "./errors.ts";

/** A held entry, with its files by normalized URI (or "dynamic") and the folder URI its files live in. */
export interface HeldSkill {
  readonly entry: Skill;
  readonly root: string;
  readonly files: ReadonlyMap<string, SkillResource> | "dynamic";
}

/** What a file URI is checked against: the held skills listing it, or a dynamic skill whose folder holds it. */
export interface FileListing {
  /** The held skills that list the file (a nested skill's file is listed by it and by each enclosing skill). */
  readonly listedBy: readonly { readonly skill: HeldSkill; readonly record: SkillResource }[];
  /** A dynamic skill whose folder holds the file, when no held skill lists it. */
  readonly dynamic: HeldSkill | undefined;
  /** The held skill whose own SKILL.md the file is (its frontmatter is checked too). */
  readonly skillOf: HeldSkill | undefined;
}

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/**
 * A URI as a lookup key: each `/`-separated segment percent-decoded and encoded again, so `a%20b` and `a b`, or
 * `%7E` and `~`, are the same file however either side spells it.
 */
export function uriKey(uri: string): string {
  return uri
    .split("/")
    .map((segment) => {
      try {
        return encodeURIComponent(decodeURIComponent(segment));
      } catch {
        return segment;
      }
    })
    .join("/");
}

/** The folder URI of a SKILL.md URI, or undefined when the URI names no SKILL.md. */
function rootOf(uri: string): string | undefined {
  const slash = uri.lastIndexOf("/");
  return slash > 0 && uriKey(uri.slice(slash + 1)) === "SKILL.md" ? uri.slice(0, slash) : undefined;
}

/** Why `entry` cannot be held (empty: it can). */
export function entryProblems(entry: Skill): string[] {
  const root = rootOf(entry.uri);
  if (root === undefined) return ["its uri names no SKILL.md"];
  if (entry.resources === "dynamic") return [];
  const problems: string[] = [];
  const rootKey = `${uriKey(root)}/`;
  const seen = new Set<string>();
  for (const file of entry.resources) {
    const key = uriKey(file.uri);
    const shown = shownText(file.uri);
    if (!DIGEST.test(file.digest)) problems.push(`file ${shown}: digest is not sha256: and 64 lowercase hex`);
    if (!Number.isSafeInteger(file.size) || file.size < 0) problems.push(`file ${shown}: size is not a byte count`);
    if (!key.startsWith(rootKey)) problems.push(`file ${shown} is outside the skill's folder`);
    if (seen.has(key)) problems.push(`file ${shown} is listed twice`);
    seen.add(key);
  }
  if (!seen.has(uriKey(entry.uri))) problems.push("its resources do not list its SKILL.md");
  return problems;
}

/** The held skills of one server's client, by SKILL.md URI. */
export class HeldSkills {
  private readonly skills = new Map<string, HeldSkill>();

  /** Holds a checked entry (replacing what was held at its URI). */
  hold(entry: Skill): void {
    const files =
      entry.resources === "dynamic" ? "dynamic" : new Map(entry.resources.map((file) => [uriKey(file.uri), file]));
    this.skills.set(uriKey(entry.uri), { entry, root: rootOf(entry.uri)!, files });
  }

  /** The held entry whose SKILL.md is at `uri`. */
  skill(uri: string): Skill | undefined {
    return this.skills.get(uriKey(uri))?.entry;
  }

  /** What a read of `uri` is checked against. */
  listing(uri: string): FileListing {
    const key = uriKey(uri);
    const listedBy: { skill: HeldSkill; record: SkillResource }[] = [];
    let dynamic: HeldSkill | undefined;
    for (const skill of this.skills.values()) {
      if (skill.files === "dynamic") {
        // The innermost dynamic skill whose folder holds the file.
        if (key.startsWith(`${uriKey(skill.root)}/`) && (!dynamic || skill.root.length > dynamic.root.length))
          dynamic = skill;
        continue;
      }
      const record = skill.files.get(key);
      if (record) listedBy.push({ skill, record });
    }
    return { listedBy, dynamic: listedBy.length > 0 ? undefined : dynamic, skillOf: this.skills.get(key) };
  }
}
