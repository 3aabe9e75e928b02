/** Repeated keys among a manifest list's entries, each reported once at the repeat with where the first one is. */
import { formatPath, SchemaProblem, type ManifestPath } from "./errors.ts";

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
