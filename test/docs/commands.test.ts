/**
 * Every shell command README.md and docs/*.md show in a ```sh or ```bash block is run by a test (issue 22: "every
 * command in them is run by a test"). A command is covered in one of three ways:
 * - the Quick start block: test/package/user-flow.sh reads it from README.md and runs each line (checked here by
 *   running user-flow.sh's own extraction and finding the command in what it returns);
 * - this file runs it (cheap commands that need no network and leave the tree as it was);
 * - RUN_BY names the test or CI script that runs it and strings that file must contain (its invocation of the
 *   command), and, for `npm run <script>`, package.json must define the script.
 * Anything else fails with its file and line. Usage summaries and commands that need an account, the network or a
 * clean machine belong in ```text blocks. A long run (bench, fuzz, mutation) is covered by its documented short form,
 * which test/docs/long-commands.ts runs and checks (a script CI runs after the suite: it takes minutes).
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { REPO, runNode } from "../generator/cli-run.ts";
import { shellCommands, userDocs, type ShellCommand } from "./markdown.ts";

interface RunBy {
  /** The test file or CI script that runs the command, relative to the repository. */
  readonly file: string;
  /** What that file contains when it runs the command (its invocation in the file's own syntax; whitespace-blind). */
  readonly shows: readonly string[];
  /** A shell script: some line of it (comment stripped) is exactly the first of `shows`. */
  readonly asLine?: boolean;
}

/** A line of .ci/run, the script CI runs. */
const ci = (line: string): RunBy => ({ file: ".ci/run", shows: [line], asLine: true });

/** A long run in its short form, run and checked by test/docs/long-commands.ts (which .ci/run runs, checked below). */
const longRun = (command: string): RunBy => ({ file: LONG_COMMANDS, shows: [JSON.stringify(command)] });
const LONG_COMMANDS = "test/docs/long-commands.ts";
const BENCH_SMOKE = "npm run bench -- --smoke";
const FUZZ_SMOKE = "npm run fuzz -- 1 1";
const MUTATION_SMOKE =
  "STRYKER_TESTS=test/runtime/jsonrpc npm run mutation -- --mutate runtime/jsonrpc/params-meta.ts --concurrency 1 --reporters clear-text";

/** Commands run elsewhere, keyed by the command as the docs write it (whitespace collapsed). */
const RUN_BY: Readonly<Record<string, RunBy>> = {
  // The long runs: the full command by its short form (the same script, fewer cases or reps).
  "npm run bench": longRun(BENCH_SMOKE),
  [BENCH_SMOKE]: longRun(BENCH_SMOKE),
  // bench/run.ts (run by the bench smoke above) runs every bench file with tsx, as this command does for one.
  "npx tsx bench/bundle.ts": {
    file: "bench/run.ts",
    shows: ["spawnSync(process.execPath, [tsx, path.join(dir, file), ...args]"],
  },
  // user-flow.sh bundles init's src/server.ts this way (also --target=node20, not minified) and runs the bundle with
  // node from a folder without node_modules, called by the SDK v1 client.
  "npx esbuild src/server.ts --bundle --platform=node --format=esm --minify --outfile=dist/server.mjs": {
    file: "test/package/user-flow.sh",
    shows: [
      '"src/$entry_point.ts" --bundle --platform=node --format=esm',
      'sdk_client stdio node "$WORK/bundle/server.mjs"',
    ],
  },
  "node dist/server.mjs": {
    file: "test/package/user-flow.sh",
    shows: ['sdk_client stdio node "$WORK/bundle/server.mjs"'],
  },
  // The Quick start's installs once the packages are published: user-flow.sh's TypeScript 7 pass runs these lines as
  // written, against a loopback registry (test/package/local-registry.mjs) serving the packed tarballs, and checks
  // node_modules holds exactly those tarballs.
  "npm i @mcp-gen/runtime zod": {
    file: "test/package/user-flow.sh",
    shows: ["npm i @mcp-gen/runtime zod"],
    asLine: true,
  },
  "npm i -D mcp-gen typescript @types/node": {
    file: "test/package/user-flow.sh",
    shows: ["npm i -D mcp-gen typescript @types/node"],
    asLine: true,
  },
  "npm run fuzz": longRun(FUZZ_SMOKE),
  [FUZZ_SMOKE]: longRun(FUZZ_SMOKE),
  "npm run mutation": longRun(MUTATION_SMOKE),
  [MUTATION_SMOKE]: longRun(MUTATION_SMOKE),
  // Run as documented; long-commands.ts fails if it rewrote any file (the committed goldens are current).
  "npm run test:update-golden": longRun("npm run test:update-golden"),
  "npm ci": ci("npm ci --no-audit --no-fund"),
  "npm test": ci("npm test"),
  "npm run test:unit": ci("npm run test:unit"),
  "npm run lint": ci("npm run lint"),
  "npm run generate:check": ci("npm run generate:check"),
  "npm run test:user-flow": ci("npm run test:user-flow"),
  "npm run conformance": ci("npm run conformance"),
  "npm run conformance:client": ci("npm run conformance:client"),
  // docs/apps.md: the browser test runs it as a process (on a free port) and drives the page it serves.
  "npm run example:apps": {
    file: "test/apps/browser.test.ts",
    shows: ['startUrlProcess("npm", ["run", "example:apps", "--", "0"])'],
  },
  "npx mcp-gen import --config .mcp.json": {
    file: "test/generator/consumer/import-config.test.ts",
    shows: ['cli(SCRATCH, "import", "--config", ".mcp.json")'],
  },
  "npx mcp-gen check --live --format sarif --output mcp.sarif": {
    file: "test/generator/consumer/check-live.test.ts",
    shows: ['"check", "--live"', 'check("--format", "sarif", "--output", "drift.sarif")'],
  },
  "npx mcp-gen generate -m mcp-servers/filesystem/mcp.yaml --check": {
    file: "test/generator/consumer/workflow-doc.test.ts",
    shows: ['"npx mcp-gen generate -m mcp-servers/filesystem/mcp.yaml --check"', "runDocCommand(generating)"],
  },
  "npx tsx app.ts": {
    file: "test/generator/consumer/workflow-doc.test.ts",
    shows: ['"npx tsx app.ts"', "runDocCommand(using)"],
  },
  "npx mcp-gen diff 2025-11-25 2026-07-28": {
    file: "test/generator/diff/diff.test.ts",
    shows: ['[CLI, "diff", "2025-11-25", "2026-07-28"]'],
  },
  "npx mcp-gen protocol --spec draft --out src/protocol/draft": {
    file: "test/package/protocol-layouts.test.ts",
    shows: ['["protocol", "--spec", "draft", "--out", "src/protocol/draft"]'],
  },
  "npx mcp-gen protocol --schema notes.schema.ts --revision notes-draft --out src/protocol/notes-draft": {
    file: "test/revisions/draft-end-to-end.test.ts",
    shows: [
      '"protocol", "--schema", "notes.schema.ts", "--revision", "notes-draft", "--out", "src/protocol/notes-draft",',
    ],
  },
  "npx mcp-gen protocol --schema ext/schema.ts --revision tasks --extension-id io.modelcontextprotocol/tasks --out tasks/":
    {
      file: "test/generator/commands/extension-cli.test.ts",
      shows: [
        '"--schema", wrapper, "--revision", "tasks", "--out", out, "--extension-id", "io.modelcontextprotocol/tasks",',
      ],
    },
  "npx mcp-gen protocol --schema spec/schema.ts --revision clock --extension-id com.example/clock --out src/clock": {
    file: "test/docs/extensions-doc.test.ts",
    shows: [
      '"protocol", "--schema", "spec/schema.ts", "--revision", "clock", "--extension-id", "com.example/clock", ];',
      'cli(dir, ...args, "--out", "src/clock")',
    ],
  },
};

const flat = (text: string): string => text.replace(/\s+/g, " ");

/** The commands of the README's Quick start block as test/package/user-flow.sh extracts them (its own awk line). */
function quickStartAsUserFlowReadsIt(): string[] {
  const script = readFileSync(path.join(REPO, "test/package/user-flow.sh"), "utf8");
  const extraction = script.split("\n").find((line) => line.startsWith('QUICK_START="$('));
  expect(extraction, "user-flow.sh no longer extracts QUICK_START from README.md").toBeDefined();
  const block = execFileSync(
    "bash",
    ["-c", `REPO=${JSON.stringify(REPO)}\n${extraction}\nprintf '%s' "$QUICK_START"`],
    {
      encoding: "utf8",
    },
  );
  return block.split("\n").flatMap((line) =>
    line
      .replace(/(^|\s)#.*$/, "")
      .split("&&")
      .map((part) => part.trim().replace(/\s+/g, " "))
      .filter((part) => part !== ""),
  );
}

const all = userDocs().flatMap(shellCommands);
const quickStart = new Set(quickStartAsUserFlowReadsIt());
const where = (command: ShellCommand): string => `${command.file}:${command.line}: ${command.command}`;

/** Commands this file runs (the tests at the end). */
const RUN_HERE = new Set([
  "node bin/mcp-gen.js generate --manifest examples/weather/mcp.yaml",
  "npx tsx examples/weather/client.ts",
]);

describe("every command of README.md and docs/ is run by a test", () => {
  it("finds the commands (the parser sees the Quick start and the repository block)", () => {
    expect(all.filter((c) => c.file === "README.md").length).toBeGreaterThanOrEqual(quickStart.size + 4);
    expect([...quickStart]).toContain("npx mcp-gen init");
  });

  it("every command is the Quick start, run here, or named in RUN_BY (file:line of each that is not)", () => {
    const uncovered = all.filter((c) => !quickStart.has(c.command) && !RUN_HERE.has(c.command) && !RUN_BY[c.command]);
    expect(uncovered.map(where)).toEqual([]);
  });

  it("the Quick start commands the docs show are the ones user-flow.sh runs", () => {
    const readme = all.filter((c) => c.file === "README.md").map((c) => c.command);
    for (const command of quickStart) expect(readme, "user-flow.sh runs a line the README lost").toContain(command);
  });

  it("CI runs the long runs' short forms (.ci/run runs test/docs/long-commands.ts)", () => {
    const lines = readFileSync(path.join(REPO, ".ci/run"), "utf8").split("\n");
    expect(lines).toContain(`npx tsx ${LONG_COMMANDS}`);
  });

  it.each(Object.entries(RUN_BY))("%s: the file named runs it", (command, runBy) => {
    expect(
      all.some((c) => c.command === command),
      "a RUN_BY entry no doc shows any more",
    ).toBe(true);
    const file = path.join(REPO, runBy.file);
    expect(existsSync(file), `${runBy.file} does not exist`).toBe(true);
    const text = readFileSync(file, "utf8");
    if (runBy.asLine) {
      const lines = text.split("\n").map((line) => line.replace(/(^|\s)#.*$/, "").trim());
      expect(lines, `no line of ${runBy.file} is ${runBy.shows[0]}`).toContain(runBy.shows[0]);
    } else {
      for (const shown of runBy.shows) expect(flat(text), `${runBy.file} does not run ${shown}`).toContain(flat(shown));
    }
    const script = /^npm run ([\w:-]+)$/.exec(command)?.[1];
    if (script !== undefined) {
      const scripts = (JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as { scripts: object })
        .scripts;
      expect(Object.keys(scripts)).toContain(script);
    }
  });
});

describe("the commands this file runs", () => {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-docs-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("each is still shown by a doc", () => {
    for (const command of RUN_HERE) expect(all.map((c) => c.command)).toContain(command);
  });

  it("node bin/mcp-gen.js generate --manifest examples/weather/mcp.yaml (in a copy of the example)", async () => {
    // The same command and arguments, from a folder holding a copy of the example, so the shared tree is not written.
    mkdirSync(path.join(scratch, "examples/weather"), { recursive: true });
    cpSync(path.join(REPO, "examples/weather/mcp.yaml"), path.join(scratch, "examples/weather/mcp.yaml"));
    const run = await runNode(
      path.join(REPO, "bin/mcp-gen.js"),
      ["generate", "--manifest", "examples/weather/mcp.yaml"],
      {
        cwd: scratch,
      },
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const written = readdirSync(path.join(scratch, "examples/weather/generated")).sort();
    const committed = readdirSync(path.join(REPO, "examples/weather/generated")).sort();
    expect(written).toEqual(committed);
  });

  it("npx tsx examples/weather/client.ts: the typed client calls the weather server over stdio", async () => {
    const tsx = path.join(REPO, "node_modules/tsx/dist/cli.mjs");
    const run = await runNode(tsx, ["examples/weather/client.ts"], { cwd: REPO });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^alerts: /m);
    expect(run.stdout).toMatch(/^revision: \d{4}-\d{2}-\d{2}$/m);
  });
});
