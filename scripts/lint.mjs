#!/usr/bin/env node
/**
 * `npm run lint`: eslint (type-aware), dependency-cruiser (the import rules of .dependency-cruiser.cjs) and
 * `prettier --check`, started at once: eslint keeps one core busy for most of the run (it type-checks the whole
 * project) and the other two fit beside it on a second core, so the wall time is about eslint's alone. Each tool's
 * output is printed whole when it ends, under its command; the exit status is 1 when any of them failed (each
 * failure named on the last lines). Plain Node so it needs nothing but the three tools from the workspace root.
 */
import { Buffer } from "node:buffer";
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const CHECKS = [
  ["eslint", "."],
  ["depcruise", "runtime", "generator", "bin", "--config", ".dependency-cruiser.cjs"],
  ["prettier", "--check", "**/*.{ts,mjs,js,cjs}"],
];

/** Runs `command` from node_modules/.bin; resolves with its exit status and its stdout and stderr interleaved. */
function run([command, ...args]) {
  const child = spawn(path.join(ROOT, "node_modules/.bin", command), args, {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const chunks = [];
  child.stdout.on("data", (chunk) => chunks.push(chunk));
  child.stderr.on("data", (chunk) => chunks.push(chunk));
  return new Promise((resolve) => {
    child.once("error", (error) => resolve({ status: 1, output: `${error.message}\n` }));
    child.once("close", (code, signal) =>
      resolve({ status: code ?? signal, output: Buffer.concat(chunks).toString() }),
    );
  });
}

const failed = [];
await Promise.all(
  CHECKS.map(async (check) => {
    const { status, output } = await run(check);
    process.stdout.write(`\n> ${check.join(" ")}\n${output}`);
    if (status !== 0) failed.push(`${check.join(" ")} (exit ${status})`);
  }),
);
for (const failure of failed) process.stderr.write(`lint: failed: ${failure}\n`);
process.exitCode = failed.length > 0 ? 1 : 0;
