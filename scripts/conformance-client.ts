/**
 * `npm run conformance:client`: the official conformance suite's **client** scenarios against the runtime's
 * `McpClient` with default options (scripts/conformance-client-command.ts, bundled once with esbuild so that the
 * suite's parallel scenarios do not each pay for a TypeScript loader):
 *   - 0.1.16          `client --suite all`
 *   - 0.2.0-alpha.12  `client --requirements 2025-11-25`, `--requirements 2026-07-28`, and `--suite all`;
 *   - 0.2.0-alpha.12  `client --scenario sep-2640-…`: the Skills extension's host scenarios (no prefetch, and refusing
 *     a file whose digest, size or frontmatter differs from its entry), each run on its own and required to pass.
 * A scenario passes only when it emitted at least one check and none failed or warned (the suite's own summary
 * counts zero-check scenarios as passes); one that does not pass in the parallel run is run once more alone, and that
 * run counts (both are printed). Scored: the scenarios a `--requirements` run lists as required; in
 * `--suite all` runs, every scenario that is not an extension. Extensions are reported, not scored.
 * Exit 1 when a scored scenario does not pass. Options: `--only <id>` (repeatable; `skills` for the Skills
 * scenarios), `--keep-results`.
 */
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join } from "node:path";
import {
  argValues,
  CACHE,
  harness,
  node22,
  readResults,
  ROOT,
  runMain,
  type ScenarioResult,
} from "./conformance-lib.ts";
import { allPassStrictly, listScenarios, outcomeOf, passesStrictly, score } from "./conformance-scoring.ts";

const SUITES = [
  { id: "0.1.16-all", version: "0.1.16", args: ["--suite", "all"] },
  { id: "2025-11-25", version: "0.2.0-alpha.12", args: ["--requirements", "2025-11-25"] },
  { id: "2026-07-28", version: "0.2.0-alpha.12", args: ["--requirements", "2026-07-28"] },
  { id: "alpha-all", version: "0.2.0-alpha.12", args: ["--suite", "all"] },
] as const;

/** The Skills extension's client scenarios (0.2.0-alpha.12); in no requirements set, so each is run by name. */
const SKILL_SCENARIOS = [
  "sep-2640-client-no-prefetch",
  "sep-2640-client-verify-digest",
  "sep-2640-client-verify-size",
  "sep-2640-client-verify-frontmatter",
];
const SKILLS_SUITE = "0.2.0-alpha.12";

/** Each Skills scenario on its own, counted strictly (a skipped check fails: the client never listed the skills). */
function skillScenariosPass(node: string, command: string): boolean {
  const outDir = join(CACHE, "results", "client-skills");
  rmSync(outDir, { recursive: true, force: true });
  console.log(`\nconformance: ${SKILLS_SUITE} client --scenario ${SKILL_SCENARIOS.join(", ")}`);
  for (const scenario of SKILL_SCENARIOS)
    spawnSync(
      node,
      [harness(SKILLS_SUITE), "client", "--command", command, "--scenario", scenario, "-o", join(outDir, scenario)],
      { stdio: "ignore", cwd: CACHE, timeout: 120_000 },
    );
  const results = SKILL_SCENARIOS.flatMap((scenario) => readResults(join(outDir, scenario)));
  return allPassStrictly("sep-2640-client-* (client)", SKILL_SCENARIOS, results);
}

/** One scenario on its own, at the wire the suite arguments imply; returns its result (or the parallel one if none). */
function runAlone(
  node: string,
  cli: string,
  command: string,
  suiteArgs: readonly string[],
  parallel: ScenarioResult,
  outDir: string,
): ScenarioResult {
  const aloneDir = join(outDir, "alone", parallel.scenario.replace(/\//g, "_"));
  const wire = suiteArgs[0] === "--requirements" ? ["--spec-version", suiteArgs[1]!] : [];
  spawnSync(node, [cli, "client", "--command", command, "--scenario", parallel.scenario, ...wire, "-o", aloneDir], {
    stdio: "ignore",
    cwd: CACHE,
    timeout: 120_000,
  });
  const alone = readResults(aloneDir)[0];
  console.log(
    `  rerun alone ${parallel.scenario}: in parallel ${outcomeOf(parallel)}; alone ${alone ? outcomeOf(alone) : "no results"}`,
  );
  return alone ? { ...alone, scenario: parallel.scenario } : parallel;
}

function bundleClient(): string {
  const out = join(CACHE, "client-command.mjs");
  const esbuild = spawnSync(
    join(ROOT, "node_modules", ".bin", "esbuild"),
    [
      join(ROOT, "scripts", "conformance-client-command.ts"),
      "--bundle",
      "--platform=node",
      "--format=esm",
      `--outfile=${out}`,
      "--log-level=warning",
      "--banner:js=import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    ],
    { stdio: "inherit" },
  );
  if (esbuild.status !== 0) throw new Error("could not bundle the conformance client");
  return out;
}

async function main(): Promise<number> {
  const only = argValues("--only");
  const suites = SUITES.filter((s) => only.length === 0 || only.includes(s.id));
  const node = node22();
  const command = `${process.execPath} ${bundleClient()}`;
  let exitCode = 0;
  for (const suite of suites) {
    const cli = harness(suite.version);
    // `list` takes --requirements but not --suite (a suite run lists every client scenario).
    const listed = listScenarios(node, cli, "client", suite.args[0] === "--requirements" ? suite.args : []);
    const outDir = join(CACHE, "results", `client-${suite.id}`);
    rmSync(outDir, { recursive: true, force: true });
    console.log(`\nconformance: ${suite.version} client ${suite.args.join(" ")}`);
    spawnSync(node, [cli, "client", "--command", command, ...suite.args, "-o", outDir], {
      stdio: "ignore",
      cwd: CACHE,
      timeout: 10 * 60_000,
    });
    const parallel = readResults(outDir);
    // The suite runs every scenario at once; timing checks (sse-retry's reconnect window) then measure CPU contention
    // on a 2-core machine as much as the client. A scenario that did not pass runs once more alone, and both
    // outcomes are printed; the one alone counts.
    const results = parallel.map((r) =>
      passesStrictly(r) || !listed.scored.has(r.scenario) ? r : runAlone(node, cli, command, suite.args, r, outDir),
    );
    const { passing, total } = score(`client ${suite.id}`, results, listed);
    if (passing !== total) exitCode = 1;
  }
  if ((only.length === 0 || only.includes("skills")) && !skillScenariosPass(node, command)) exitCode = 1;
  if (!process.argv.includes("--keep-results")) rmSync(join(CACHE, "results"), { recursive: true, force: true });
  return exitCode;
}

runMain(main);
