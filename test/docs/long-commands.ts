/**
 * The documented long runs, each run for real in its shortest documented form (docs/contributing.md shows each in a
 * ```sh block; commands.test.ts checks this file runs exactly that text): `npm run bench -- --smoke` (every bench file,
 * each with its own shortest options), `npm run fuzz -- 1 1` (every fuzz property, one case, seed 1), a mutation
 * run over one small file, and `npm run test:update-golden` (which must leave every golden as committed). Together
 * they take minutes (mostly process start-up), too long for the vitest suite, so CI runs this script after the suite
 * (.ci/run): `npx tsx test/docs/long-commands.ts`. Each command must exit 0 and print what shows it did its work
 * (below); the script prints each one's wall time and exits 1 on the first failure.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { benchSections, staleFigures } from "./figures.ts";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

interface LongCommand {
  /** The command exactly as docs/contributing.md shows it, run with bash from the repository root. */
  readonly command: string;
  /** Why the output is not what a working run prints, or undefined when it is. */
  readonly check: (stdout: string) => string | undefined;
  /** Runs just before the command (e.g. a snapshot `check` compares with). */
  readonly before?: () => void;
}

/**
 * `npm run bench -- --smoke`: a `== <file>` section for every bench/*.ts but run.ts, none failed, each with a figure;
 * and every size the docs quote (`<!--figure …-->`, test/docs/figures.ts) is the one printed.
 */
function benchCheck(stdout: string): string | undefined {
  const files = readdirSync(path.join(REPO, "bench")).filter((f) => f.endsWith(".ts") && f !== "run.ts");
  const sections = benchSections(stdout);
  for (const file of files) {
    const lines = sections.get(file);
    if (lines === undefined) return `no section for bench/${file}`;
    if (lines.some((l) => l.startsWith("!! "))) return `bench/${file} failed`;
    if (!lines.some((l) => /\d/.test(l))) return `bench/${file} printed no figure`;
  }
  const stale = staleFigures(REPO, sections);
  return stale.length === 0 ? undefined : `figures in the docs differ from the bench's:\n  ${stale.join("\n  ")}`;
}

/** `npm run fuzz -- 1 1`: the count and seed as given, every property held (an `ok` line each, none failed). */
function fuzzCheck(stdout: string): string | undefined {
  if (!stdout.includes("fuzz: 1 cases per property, seed 1")) return "the count and seed were not taken";
  if (/^FAIL /m.test(stdout)) return "a property failed";
  const held = stdout.match(/^ok {4}\S/gm)?.length ?? 0;
  if (held < 10) return `only ${held} properties ran`;
  return stdout.includes("fuzz: all properties held") ? undefined : "no final verdict";
}

/** The mutation run: Stryker's score line, with mutants tested and killed. */
function mutationCheck(stdout: string): string | undefined {
  const score = /^mutation score: [\d.]+% \((\d+)\/(\d+)\)$/m.exec(stdout);
  if (!score) return "no mutation score line";
  return Number(score[2]) > 0 && Number(score[1]) > 0 ? undefined : `no mutant tested and killed (${score[0]})`;
}

/** Every file of test/ git tracks or would add, with a hash of its content: what a golden rewrite could change. */
function testTree(): Map<string, string> {
  const listed = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z", "test"], {
    cwd: REPO,
    encoding: "utf8",
  });
  const tree = new Map<string, string>();
  for (const file of listed.split("\0").filter(Boolean)) {
    let content: Buffer | undefined;
    try {
      content = readFileSync(path.join(REPO, file));
    } catch {
      content = undefined; // deleted in the working tree: recorded as absent
    }
    tree.set(file, content === undefined ? "absent" : createHash("sha256").update(content).digest("hex"));
  }
  return tree;
}

/**
 * `npm run test:update-golden`: the golden tests pass with --update and rewrite nothing, so the committed goldens are
 * what the generator writes today (the suite checks that too; this shows the documented update command works).
 */
function goldenUpdate(): LongCommand {
  let treeBefore = new Map<string, string>();
  const check = (stdout: string): string | undefined => {
    if (!/Test Files\s.*\d+ passed/.test(stripVTControlCharacters(stdout))) return "no passing test files reported";
    const after = testTree();
    const changed = [...new Set([...treeBefore.keys(), ...after.keys()])].filter(
      (file) => treeBefore.get(file) !== after.get(file),
    );
    return changed.length === 0 ? undefined : `it rewrote ${changed.join(", ")}: the committed goldens are stale`;
  };
  return { command: "npm run test:update-golden", check, before: () => void (treeBefore = testTree()) };
}

const COMMANDS: readonly LongCommand[] = [
  { command: "npm run bench -- --smoke", check: benchCheck },
  { command: "npm run fuzz -- 1 1", check: fuzzCheck },
  {
    command:
      "STRYKER_TESTS=test/runtime/jsonrpc npm run mutation -- --mutate runtime/jsonrpc/params-meta.ts --concurrency 1 --reporters clear-text",
    check: mutationCheck,
  },
  goldenUpdate(),
];

for (const { command, check, before } of COMMANDS) {
  console.log(`\n$ ${command}`);
  before?.();
  const started = Date.now();
  const run = spawnSync("bash", ["-c", command], {
    cwd: REPO,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    stdio: ["ignore", "pipe", "inherit"],
  });
  process.stdout.write(run.stdout);
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const problem = run.status === 0 ? check(run.stdout) : `exit ${run.status ?? run.signal}`;
  if (problem !== undefined) {
    console.error(`long-commands: ${command}: ${problem} (${seconds} s)`);
    process.exit(1);
  }
  console.log(`long-commands: ${command}: ok (${seconds} s)`);
}
