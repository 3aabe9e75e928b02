/**
 * The Skills client's errors. Each names the file (its URI, shown safely) and the server, never the file's content:
 * a refused file is one a model must not read, so neither may a log.
 */

/** Why a file failed verification against the held entry (extensions/skills, "Verification"). */
export type SkillVerificationReason =
  /** No held entry of this server lists the file (or a skill held from another server does). */
  | "unlisted"
  /** Its byte length is not the entry's `size`. */
  | "size"
  /** Its SHA-256 is not the entry's `digest`. */
  | "digest"
  /** A skill's SKILL.md whose frontmatter differs from the entry's, field by field, or cannot be read. */
  | "frontmatter"
  /** The server's answer holds no readable content for the file. */
  | "content";

/** A file failed verification: its content was not used, and for a SKILL.md the skill must not be loaded. */
export class SkillVerificationError extends Error {
  override readonly name = "SkillVerificationError";
  readonly reason: SkillVerificationReason;
  /** The file's URI as requested. */
  readonly uri: string;
  /** The SKILL.md URI of the held entry the file was checked against (undefined for an unlisted file). */
  readonly skill: string | undefined;
  /** The host's label of the server it came from (`skillsClient({ server })`), when given. */
  readonly server: string | undefined;
  /** For `frontmatter`: one line per differing field (its name and how it differs, never its value). */
  readonly differences: readonly string[];

  constructor(
    reason: SkillVerificationReason,
    file: {
      readonly uri: string;
      readonly skill?: string | undefined;
      readonly server?: string | undefined;
      /** The server's self-reported `serverInfo.name`, named only when the host gave no label. */
      readonly selfNamed?: string | undefined;
    },
    detail: string,
    differences: readonly string[] = [],
  ) {
    const from =
      file.server !== undefined
        ? ` from server ${shownText(file.server)}`
        : file.selfNamed !== undefined
          ? ` from the server that names itself ${shownText(file.selfNamed)}`
          : "";
    super(`skill file ${shownText(file.uri)}${from} failed verification (${reason}): ${detail}`);
    this.reason = reason;
    this.uri = file.uri;
    this.skill = file.skill;
    this.server = file.server;
    this.differences = differences;
  }
}

/** A `skills/list` or `skills/get` entry the client cannot hold (its digests could not verify anything). */
export class SkillEntryError extends Error {
  override readonly name = "SkillEntryError";
  /** Each refused entry: its URI (shown safely) when it has one, and why. */
  readonly problems: readonly string[];

  constructor(method: string, problems: readonly string[]) {
    super(`${method}: the server sent entries the client refuses:\n${problems.join("\n")}`);
    this.problems = problems;
  }
}

/** Text from the network as a message may show it: at most 200 characters, control characters escaped. */
export function shownText(text: string): string {
  const cut = text.length > 200 ? `${text.slice(0, 200)}…` : text;
  return JSON.stringify(cut).slice(1, -1);
}
