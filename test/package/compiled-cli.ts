/**
 * The CLI compiled as its package build compiles it (`tsc -p tsconfig.cli.json`, what generator/dist/ holds once
 * built), for the tests that install it somewhere (cli-package.test.ts, protocol-layouts.test.ts). One compilation
 * serves them all: it is kept under .tmp/ keyed by a hash of everything tsc reads for it (the generator's sources,
 * both tsconfigs and the runtime package's declarations it types the runtime with), so a changed source compiles
 * again and an unchanged one is not compiled twice, whichever test file (and vitest worker) asks first. A compilation
 * is written beside its final place and renamed into it only when tsc succeeded. Old ones stay until .tmp/ is cleared.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { REPO_ROOT } from "../../scripts/repo-root.ts";

const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const SKIP = new Set(["dist", ".staging", "node_modules"]);

/** `dir`'s files (recursively, sorted), leaving out build output and installed packages. */
function files(dir: string, keep: (file: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !SKIP.has(entry.name))
    .flatMap((entry) => {
      const file = path.join(dir, entry.name);
      return entry.isDirectory() ? files(file, keep) : keep(file) ? [file] : [];
    })
    .sort();
}

function inputsHash(): string {
  const hash = createHash("sha256");
  const inputs = [
    path.join(REPO_ROOT, "tsconfig.json"),
    path.join(REPO_ROOT, "tsconfig.cli.json"),
    ...files(path.join(REPO_ROOT, "generator"), (file) => file.endsWith(".ts") || file.endsWith(".json")),
    ...files(path.join(REPO_ROOT, "runtime/dist"), (file) => file.endsWith(".d.ts")),
  ];
  for (const file of inputs) hash.update(`${path.relative(REPO_ROOT, file)}\0`).update(readFileSync(file));
  return hash.digest("hex").slice(0, 16);
}

/** Sleeps `ms` without giving the event loop back (the callers are synchronous set-ups). */
const sleep = (ms: number): void => void Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * The folder holding the compiled CLI (what the package's `dist/` holds); compiled now unless already there. A lock
 * folder beside it makes a second worker asking meanwhile wait for the first one's compilation instead of repeating it.
 */
export function compiledCli(): string {
  const out = path.join(REPO_ROOT, ".tmp", `compiled-cli-${inputsHash()}`);
  const lock = `${out}.lock`;
  mkdirSync(path.dirname(out), { recursive: true });
  for (;;) {
    if (existsSync(out)) return out;
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Held by another worker: wait for its result, or take over a lock left by a crashed run.
      if (Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now()) > 600_000)
        rmSync(lock, { recursive: true, force: true });
      sleep(500);
    }
  }
  const next = `${out}.${process.pid}`;
  try {
    if (existsSync(out)) return out;
    rmSync(next, { recursive: true, force: true });
    execFileSync(process.execPath, [TSC, "-p", path.join(REPO_ROOT, "tsconfig.cli.json"), "--outDir", next]);
    renameSync(next, out);
  } finally {
    rmSync(next, { recursive: true, force: true });
    rmSync(lock, { recursive: true, force: true });
  }
  return out;
}
