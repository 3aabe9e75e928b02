/**
 * A served SKILL.md's frontmatter, read for verification (extensions/skills, "Verification"): the YAML between the
 * first two `---` lines, parsed by the `yaml` library (YAML 1.2 core schema, duplicate keys refused: the same reading
 * `mcp-gen generate` gives the skill folders it publishes), and compared field by field with the entry's.
 */
import { parseDocument } from "yaml";

/** SKILL.md split into its frontmatter and body, or why it cannot be (never quoting the file). */
export type ReadFrontmatter =
  { readonly frontmatter: Record<string, unknown>; readonly body: string } | { readonly problem: string };

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/;

export function readFrontmatter(text: string): ReadFrontmatter {
  const unmarked = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const match = FRONTMATTER.exec(unmarked);
  if (!match) return { problem: "it does not begin with YAML frontmatter between --- lines" };
  const doc = parseDocument(match[1]!, { schema: "core", uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) return { problem: `its frontmatter is not YAML (${doc.errors[0]!.code})` };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch {
    return { problem: "its frontmatter cannot be read as JSON (too many aliases)" };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { problem: "its frontmatter is not a mapping" };
  return { frontmatter: value as Record<string, unknown>, body: unmarked.slice(match[0].length) };
}

/**
 * The fields whose values differ between the entry's frontmatter and the file's, each as `name: why` (the field's
 * name shown safely, never its value); empty when they are equal field by field.
 */
export function frontmatterDifferences(
  entry: Readonly<Record<string, unknown>>,
  file: Readonly<Record<string, unknown>>,
): string[] {
  const differences: string[] = [];
  for (const key of Object.keys(entry)) {
    if (!Object.hasOwn(file, key)) differences.push(`${fieldName(key)}: in the entry, not in SKILL.md`);
    else if (!sameJson(entry[key], file[key])) differences.push(`${fieldName(key)}: differs`);
  }
  for (const key of Object.keys(file))
    if (!Object.hasOwn(entry, key)) differences.push(`${fieldName(key)}: in SKILL.md, not in the entry`);
  return differences;
}

/** Equal as JSON values (objects key by key regardless of order, arrays item by item). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => sameJson(item, other[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return (
    keys.length === Object.keys(right).length &&
    keys.every((key) => Object.hasOwn(right, key) && sameJson(left[key], right[key]))
  );
}

/** A field name as a message may show it: at most 64 characters, quoted and escaped. */
function fieldName(key: string): string {
  return JSON.stringify(key.length > 64 ? `${key.slice(0, 64)}…` : key);
}
