/** "Did you mean …?": the closest known word to a misspelt one (a leaf module: the CLI loads it on a usage error). */

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions), case-insensitive. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) => [i, ...Array<number>(t.length).fill(0)]);
  for (let j = 1; j <= t.length; j++) d[0]![j] = j;
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[s.length]![t.length]!;
}

/**
 * The known word closest to `word`, when it is close enough to be a likely typo (at most a third of its letters off,
 * at least one), or when one of them contains the other (`desc` → `description`); undefined otherwise. Ties keep
 * the first candidate.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  const known = [...candidates].filter((c) => c !== word);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = editDistance(word, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best !== undefined && bestDistance <= Math.max(1, Math.floor(word.length / 3))) return best;
  const lower = word.toLowerCase();
  return lower.length >= 3 ? known.find((c) => c.toLowerCase().startsWith(lower)) : undefined;
}

/** ` (did you mean "x"?)`, or "" when nothing is close. */
export function didYouMean(
  word: string,
  candidates: Iterable<string>,
  quote: (w: string) => string = JSON.stringify,
): string {
  const match = closest(word, candidates);
  return match === undefined ? "" : ` (did you mean ${quote(match)}?)`;
}
