/** Repeated keys among a manifest list's entries, each reported once at the repeat with where the first one is. */
import { formatPath, SchemaProblem, type ManifestPath } from "./errors.ts";
import { memberName, pascalName } from "./names.ts";

/** A duplicate among a list's entries: the problem, and the entry's position in the list being lowered. */
export type Duplicate = SchemaProblem & { readonly index: number };

/**
 * Every item whose `key` repeats an earlier one, pointing at `<list>[i].<field>` (or `<list>[i]`); `at` maps a
 * position to the index shown.
 */
export function duplicates<T>(
  items: readonly T[],
  list: string | ManifestPath,
  what: string,
  key: (item: T) => string,
  field: string | null,
  at: (i: number) => number = (i) => i,
): Duplicate[] {
  const base = typeof list === "string" ? [list] : list;
  const seen = new Map<string, number>();
  const found: Duplicate[] = [];
  items.forEach((item, i) => {
    const value = key(item);
    const first = seen.get(value);
    if (first === undefined) {
      seen.set(value, i);
      return;
    }
    const problem = new SchemaProblem(
      field === null ? [...base, at(i)] : [...base, at(i), field],
      `duplicate ${what} ${JSON.stringify(value)} (first at ${formatPath([...base, at(first)])})`,
    );
    found.push(Object.assign(problem, { index: i }));
  });
  return found;
}

/** Records duplicates in `problems`, one per entry (a repeated name is not also reported as a repeated identifier). */
export function reportDuplicates(problems: SchemaProblem[], found: Duplicate[][]): Set<number> {
  const indices = new Set<number>();
  for (const problem of found.flat()) {
    if (indices.has(problem.index)) continue;
    indices.add(problem.index);
    problems.push(problem);
  }
  return indices;
}

/** Repeated names, and distinct names that meet once turned into an identifier or a typed client's method. */
export function nameClashes<T extends { readonly name: string }>(
  items: readonly T[],
  list: string,
  what: string,
  at: (i: number) => number,
): Duplicate[][] {
  return [
    duplicates(items, list, `${what} name`, (t) => t.name, "name", at),
    duplicates(items, list, `${what} name (as an identifier)`, (t) => pascalName(t.name), "name", at),
    duplicates(items, list, `${what} name (as a client method)`, (t) => memberName(t.name), "name", at),
  ];
}

/** Throws the first duplicate (inside one entry, where the entry stops at its first problem). */
export function unique<T>(
  items: readonly T[],
  list: ManifestPath,
  what: string,
  key: (item: T) => string,
  field: string | null = "name",
): void {
  const [first] = duplicates(items, list, what, key, field);
  if (first) throw first;
}
