/**
 * How both conformance runners count: a scenario passes only when it emitted at least one check and none failed or
 * warned (the suite's own summary counts a zero-check scenario as a pass, so a missing hook would pass vacuously).
 * Which scenarios are scored comes from the suite's `list`: those a `--requirements` run requires, or for a
 * `--suite all` run every listed scenario that is not an extension; a scored scenario with no results fails.
 */
import { spawnSync } from "node:child_process";
import { CACHE, type ScenarioResult } from "./conformance-lib.ts";

export type Side = "server" | "client";

/** At least one check, no failure, no warning. */
export function passesStrictly(r: ScenarioResult): boolean {
  return r.checks > 0 && r.failures.length === 0 && r.warnings.length === 0;
}

/** "passed", "no checks", or the failures and warnings. */
export function outcomeOf(r: ScenarioResult): string {
  if (r.checks === 0)
    return r.skipped.length > 0 ? `no checks (skipped by the suite: ${r.skipped.join("; ")})` : "no checks";
  if (passesStrictly(r)) return "passed";
  return [...r.failures, ...r.warnings.map((w) => `warning ${w}`)].join("; ");
}

/** The `side` scenarios the suite lists for these arguments, split into scored and never-scored ones. */
export function listScenarios(
  node: string,
  cli: string,
  side: Side,
  args: readonly string[],
): { scored: Set<string>; unscored: Set<string> } {
  const listed = spawnSync(node, [cli, "list", `--${side}`, ...args], { encoding: "utf8", cwd: CACHE });
  const scored = new Set<string>();
  const unscored = new Set<string>();
  const heading = side === "server" ? /^Server scenarios/ : /^Client scenarios/;
  let section: "scored" | "unscored" = "scored";
  let ours = false; // `list --requirements` lists both sides' scenarios under their headings
  for (const line of (listed.stdout ?? "").split("\n")) {
    if (/never scored/i.test(line)) section = "unscored";
    if (/^(Server|Client) scenarios/.test(line)) ours = heading.test(line);
    const match = /^\s+- (\S+)(?: \[([^\]]*)\])?/.exec(line);
    if (!match || (section === "scored" && !ours) || (section === "unscored" && !line.includes(`[${side}]`))) continue;
    const [, name, tags = ""] = match;
    if (section === "unscored" || tags.includes("extension")) unscored.add(name!);
    else scored.add(name!);
  }
  if (listed.status !== 0 || scored.size === 0) throw new Error(`the suite listed no ${side} scenarios for ${args}`);
  return { scored, unscored };
}

export interface Score {
  readonly passing: number;
  /** Scored scenarios: every result that is not an extension, plus the listed ones with no result. */
  readonly total: number;
  readonly unscored: readonly ScenarioResult[];
}

/**
 * Prints each scenario that does not pass strictly (scored ones as FAIL) and the counts; `results` are scored
 * unless listed as never scored, and a scored scenario without a result fails.
 */
export function score(label: string, results: readonly ScenarioResult[], listed: { scored: Set<string> }): Score {
  const unscoredNames = new Set(results.map((r) => r.scenario).filter((name) => !listed.scored.has(name)));
  const scored = results.filter((r) => !unscoredNames.has(r.scenario));
  const unscored = results.filter((r) => unscoredNames.has(r.scenario));
  const missing = [...listed.scored].filter((name) => !results.some((r) => r.scenario === name));
  for (const r of results.filter((x) => !passesStrictly(x)))
    console.log(`  ${unscoredNames.has(r.scenario) ? "fail (not scored)" : "FAIL"} ${r.scenario}: ${outcomeOf(r)}`);
  for (const name of missing) console.log(`  FAIL ${name}: no results`);
  const passing = scored.filter(passesStrictly).length;
  const total = scored.length + missing.length;
  console.log(
    `conformance: ${label}: ${passing}/${total} scored scenarios pass strictly` +
      (unscored.length ? ` (+${unscored.filter(passesStrictly).length}/${unscored.length} not scored)` : ""),
  );
  return { passing, total, unscored };
}

/**
 * Scenarios run one at a time (`--scenario`), each required: present, at least one check, no failure, warning or
 * skipped check (an extension's scenario skips every check of its own when the peer does not negotiate the
 * extension, and would otherwise pass on its wire-schema check alone). Prints each and the count; true when all pass.
 */
export function allPassStrictly(label: string, names: readonly string[], results: readonly ScenarioResult[]): boolean {
  let passing = 0;
  for (const name of names) {
    const r = results.find((result) => result.scenario === name);
    const outcome = !r
      ? "no results"
      : r.skipped.length > 0
        ? `${r.skipped.length} check(s) skipped by the suite, first ${r.skipped[0]}`
        : outcomeOf(r);
    if (outcome === "passed") passing++;
    else console.log(`  FAIL ${name}: ${outcome}`);
  }
  console.log(`conformance: ${label}: ${passing}/${names.length} scenarios pass strictly`);
  return passing === names.length;
}
