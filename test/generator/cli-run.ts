/** Runs the real `mcp-gen` CLI (bin/mcp-gen.js) in a folder and collects its exit code and output. */
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
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
