/**
 * Reads the user-facing Markdown (README.md and docs/*.md) the way the docs tests need it: the shell commands of its
 * ```sh / ```bash blocks, its relative links, and the anchors its headings get on GitHub.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { REPO } from "../generator/cli-run.ts";

/** README.md and every Markdown file of docs/, as paths relative to the repository. */
export function userDocs(): string[] {
  const docs = readdirSync(path.join(REPO, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`);
  return ["README.md", ...docs];
}

export interface ShellCommand {
  /** Repository-relative file and 1-based line where the command starts. */
  readonly file: string;
  readonly line: number;
  /** One command: comments removed, `\` continuations joined, a `a && b` chain split, whitespace collapsed. */
  readonly command: string;
}

interface Fence {
  readonly info: string;
  /** 1-based line of the first line inside the fence. */
  readonly start: number;
  readonly lines: readonly string[];
}

function fences(text: string): Fence[] {
  const found: Fence[] = [];
  let open: { marker: string; info: string; start: number; lines: string[] } | undefined;
  text.split("\n").forEach((line, index) => {
    const match = /^\s*(`{3,}|~{3,})\s*([^\s`]*)/.exec(line);
    if (open) {
      if (match?.[1]?.startsWith(open.marker) && line.trim() === match[1]) {
        found.push({ info: open.info, start: open.start, lines: open.lines });
        open = undefined;
      } else open.lines.push(line);
    } else if (match) open = { marker: match[1] ?? "```", info: match[2] ?? "", start: index + 2, lines: [] };
  });
  return found;
}

/** A line's command part: `# …` comments (at the start, or after whitespace) removed. */
function withoutComment(line: string): string {
  return line.replace(/(^|\s)#.*$/, "").trim();
}

export function shellCommands(file: string): ShellCommand[] {
  const commands: ShellCommand[] = [];
  for (const fence of fences(readFileSync(path.join(REPO, file), "utf8"))) {
    if (fence.info !== "sh" && fence.info !== "bash") continue;
    let pending: { text: string; line: number } | undefined;
    fence.lines.forEach((raw, index) => {
      const line = withoutComment(raw);
      if (line === "") return;
      const text = pending ? `${pending.text} ${line}` : line;
      const start = pending?.line ?? fence.start + index;
      if (text.endsWith("\\")) {
        pending = { text: text.slice(0, -1), line: start };
        return;
      }
      pending = undefined;
      for (const part of text.split("&&")) {
        const command = part.trim().replace(/\s+/g, " ");
        if (command !== "") commands.push({ file, line: start, command });
      }
    });
  }
  return commands;
}

/** The text of a file outside its fenced code blocks, line by line (fenced lines become empty). */
function proseLines(text: string): string[] {
  const lines = text.split("\n");
  let inFence: string | undefined;
  return lines.map((line) => {
    const match = /^\s*(`{3,}|~{3,})/.exec(line);
    if (inFence) {
      if (match?.[1]?.startsWith(inFence) && line.trim() === match[1]) inFence = undefined;
      return "";
    }
    if (match) {
      inFence = match[1];
      return "";
    }
    return line;
  });
}

/**
 * The anchor GitHub gives a heading: lower case, inline code and link markup reduced to their text, every character
 * but letters, digits, spaces, `-` and `_` dropped, spaces turned into `-`.
 */
export function githubSlug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** Every anchor a file's headings get (a repeated heading gets `-1`, `-2`, … as on GitHub). */
export function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of proseLines(readFileSync(path.join(REPO, file), "utf8"))) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = githubSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

export interface Link {
  readonly file: string;
  readonly line: number;
  readonly target: string;
}

/** The relative links (`[text](target)`) of a file's prose; absolute URLs and `mailto:` are left out. */
export function relativeLinks(file: string): Link[] {
  const links: Link[] = [];
  proseLines(readFileSync(path.join(REPO, file), "utf8")).forEach((line, index) => {
    for (const match of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = match[1] ?? "";
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      links.push({ file, line: index + 1, target });
    }
  });
  return links;
}
