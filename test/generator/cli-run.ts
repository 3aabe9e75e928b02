/** Runs the real `mcp-gen` CLI (bin/mcp-gen.js), or another Node script, in a folder and collects its exit code and output. */
import { execFile } from "node:child_process";
import path from "node:path";

export const REPO = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(REPO, "bin/mcp-gen.js");

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export function cli(cwd: string, ...args: string[]): Promise<CliRun> {
  return runNode(BIN, args, { cwd });
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
