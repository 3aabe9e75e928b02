/**
 * Runs the real `mcp-gen` CLI, or another Node script, in a folder and collects its exit code and output. The CLI is
 * the build of the current sources made once per test run (test/generator/cli-bundle.ts, the suite's global setup);
 * where that setup did not run, the repository's bin/mcp-gen.js (the same sources through tsx).
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { inject } from "vitest";

export const REPO = path.resolve(import.meta.dirname, "../..");
/** The repository's `mcp-gen` command: the TypeScript sources through tsx (for tests about that script itself). */
export const SOURCE_BIN = path.join(REPO, "bin/mcp-gen.js");
/** The script to run as `mcp-gen` (`node CLI …`): the test run's build of the sources, or bin/mcp-gen.js. */
export const CLI = inject("mcpGenCli") ?? SOURCE_BIN;

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export function cli(cwd: string, ...args: string[]): Promise<CliRun> {
  return runNode(CLI, args, { cwd });
}

/**
 * Runs a Node script (a CLI's bin) in a child process without blocking this one, so servers a test runs in-process
 * (a loopback spec copy, an MCP server) keep answering it.
 */
export function runNode(
  script: string,
  args: readonly string[],
  options: { readonly cwd: string; readonly env?: NodeJS.ProcessEnv },
): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script, ...args],
      { cwd: options.cwd, env: options.env ?? process.env, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
