#!/usr/bin/env node
/**
 * `npm test` after `npm run spec`: the two type-checks (`tsc -p tsconfig.json`, everything with the generated code;
 * `tsc -p test/protocol/fidelity/tsconfig.json`, the fidelity checks) and the vitest suite, started at once. Each tsc
 * keeps one core busy for ~40 and ~10 s of CPU while the other core would wait; beside the suite (whose test files
 * mostly wait on child processes at first) they take no time of their own. The suite's output streams as it runs;
 * each tsc's output is printed whole when it ends, under its command; the exit status is 1 when any of the three
 * failed (each failure named on the last lines). Arguments are passed to vitest. Plain Node, like scripts/lint.mjs.
 */
import { Buffer } from "node:buffer";
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (command) => path.join(ROOT, "node_modules/.bin", command);

/** Runs `command`; resolves with its exit status, and its output when not streamed (`stdio: "inherit"`). */
function run(command, args, streamed) {
  const child = spawn(bin(command), args, { cwd: ROOT, stdio: streamed ? "inherit" : ["ignore", "pipe", "pipe"] });
  const chunks = [];
  child.stdout?.on("data", (chunk) => chunks.push(chunk));
  child.stderr?.on("data", (chunk) => chunks.push(chunk));
  return new Promise((resolve) => {
    child.once("error", (error) => resolve({ status: 1, output: `${error.message}\n` }));
    child.once("close", (code, signal) =>
      resolve({ status: code ?? signal, output: Buffer.concat(chunks).toString() }),
    );
  });
}

const failed = [];
const typeChecks = [
  ["tsc", "--noEmit", "-p", "tsconfig.json"],
  ["tsc", "--noEmit", "-p", "test/protocol/fidelity/tsconfig.json"],
].map(async ([command, ...args]) => {
  const { status, output } = await run(command, args, false);
  process.stdout.write(`\n> ${command} ${args.join(" ")}${status === 0 ? " (ok)" : ""}\n${output}`);
  if (status !== 0) failed.push(`${command} ${args.join(" ")} (exit ${status})`);
});
const suite = run("vitest", ["run", ...process.argv.slice(2)], true).then(({ status }) => {
  if (status !== 0) failed.push(`vitest run (exit ${status})`);
});
await Promise.all([...typeChecks, suite]);
for (const failure of failed) process.stderr.write(`test: failed: ${failure}\n`);
process.exitCode = failed.length > 0 ? 1 : 0;
