#!/usr/bin/env node
/**
 * Builds the workspace packages: `runtime` (@mcp-gen/runtime → runtime/dist/), `cli` (mcp-gen → generator/dist/), or
 * both in that order (the CLI's declarations of the runtime come from runtime/dist/). Each compiles its own folder
 * only and copies nothing into it from elsewhere. Plain Node so it needs nothing but typescript and esbuild from the workspace root.
 * Each package is built into `<package>/.staging/dist/` and swapped in whole when complete (two renames), so a build
 * or an `npm pack` never leaves `dist/` half-written or missing for whatever imports the package meanwhile (tests
 * running beside it, the CLI).
 * A build whose inputs did not change is skipped: `<package>/.staging/built.json` keeps the hash of everything the last
 * completed build read (the package's folder, the tsconfigs, this script, package-lock.json for the compilers' and
 * types' versions; for the CLI also the runtime's declarations in runtime/dist/) and a listing of the dist/ it swapped
 * in (paths, sizes, modification times). When both still match, dist/ is what a build would write, and `npm pack`
 * (prepack), the benches and the tests that pack stop rebuilding it (~25 s of CPU per runtime build). `--force` builds.
 * Usage: node scripts/build-packages.mjs [--force] [runtime|cli]…
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");

const targets = {
  runtime: () =>
    staged("runtime", "tsconfig.runtime.json", async (dist) => {
      await bundleRuntime(dist);
    }),
  // The generator/ folder alone: templates/ ship as they are (generator/package.json `files`), the built-in
  // revisions' ir.json files with the runtime package.
  cli: () => staged("generator", "tsconfig.cli.json", () => {}),
};

/**
 * Compiles `config` into `<pkg>/.staging/<pid>/dist`, lets `finish` complete it there, then swaps it in for
 * `<pkg>/dist`. The staging folder is this process's own, so builds running at once (two test workers packing, a
 * bench building beside them) do not delete each other's half-built output.
 */
async function staged(pkg, config, finish) {
  const live = path.join(ROOT, pkg, "dist");
  const record = path.join(ROOT, pkg, ".staging", "built.json");
  const inputs = inputsHash(pkg, config);
  if (!FORCE && upToDate(record, inputs, live)) {
    process.stderr.write(`build-packages: ${pkg}/dist is up to date (its inputs are unchanged since it was built)\n`);
    return;
  }
  const staging = path.join(ROOT, pkg, ".staging", String(process.pid));
  const next = path.join(staging, "dist");
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    tsc(config, path.relative(ROOT, next));
    await finish(next);
    swapIn(next, live, staging);
    // Recorded only when no input changed while building (else the next build runs again).
    if (inputsHash(pkg, config) === inputs) {
      writeFileSync(`${record}.${process.pid}`, JSON.stringify({ inputs, dist: listing(live) }));
      renameSync(`${record}.${process.pid}`, record);
    }
  } finally {
    // A failed build leaves the last complete dist/ in place and nothing half-written beside it.
    rmSync(staging, { recursive: true, force: true });
  }
}

const SKIP = new Set(["dist", ".staging", "node_modules"]);

/** `dir`'s files, recursively, sorted, leaving out build output and installed packages. */
function files(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !SKIP.has(entry.name))
    .flatMap((entry) => {
      const file = path.join(dir, entry.name);
      return entry.isDirectory() ? files(file) : [file];
    })
    .sort();
}

/** A hash of everything a build of `pkg` reads: its folder, the tsconfigs, this script, the lockfile (versions). */
function inputsHash(pkg, config) {
  const inputs = [
    ...["tsconfig.json", config, "scripts/build-packages.mjs", "package-lock.json"].map((f) => path.join(ROOT, f)),
    ...files(path.join(ROOT, pkg)),
    // The CLI is typed against the runtime's built declarations.
    ...(pkg === "runtime" ? [] : listAll(path.join(ROOT, "runtime/dist")).filter((f) => f.endsWith(".d.ts"))),
  ];
  const hash = createHash("sha256");
  for (const file of inputs)
    hash
      .update(`${path.relative(ROOT, file)}\0`)
      .update(readFileSync(file))
      .update("\0");
  return hash.digest("hex");
}

/** Every file under `dir` (dist/ included), sorted. */
function listAll(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/** dist/ as a build left it: each file's path, size and modification time (changed by any later write). */
function listing(dist) {
  return listAll(dist)
    .map((file) => {
      const { size, mtimeMs } = statSync(file);
      return `${path.relative(dist, file)} ${size} ${mtimeMs}`;
    })
    .join("\n");
}

function upToDate(record, inputs, live) {
  if (!existsSync(live) || !existsSync(record)) return false;
  try {
    const built = JSON.parse(readFileSync(record, "utf8"));
    return built.inputs === inputs && built.dist === listing(live);
  } catch {
    return false;
  }
}

/** Moves `next` to `live`, the old `live` into `staging`; again when a concurrent build swapped its own in between. */
function swapIn(next, live, staging) {
  for (let attempt = 0; ; attempt++) {
    try {
      if (existsSync(live)) renameSync(live, path.join(staging, `old-${attempt}`));
      renameSync(next, live);
      return;
    } catch (error) {
      const raced = ["ENOENT", "ENOTEMPTY", "EEXIST"].includes(error?.code) && existsSync(next);
      if (!raced || attempt >= 10) throw error;
    }
  }
}

/**
 * Replaces tsc's one JavaScript file per source module with one file per `exports` entry plus shared chunks (esbuild,
 * ESM, code splitting, dependencies left as imports; declarations stay tsc's). Node's ESM loader costs about a third
 * of a millisecond per file, so importing the core entry as ~95 files took about 30 ms more than as a few. Chunks
 * are shared, so every entry sees the same module instances (one revision registry, one `instanceof` per class).
 */
async function bundleRuntime(dist) {
  const exportsMap = JSON.parse(readFileSync(path.join(ROOT, "runtime/package.json"), "utf8")).exports;
  const entries = [];
  for (const target of Object.values(exportsMap)) {
    if (typeof target !== "object") continue;
    const file = target.default.replace(/^\.\/dist\//, "");
    if (!file.includes("*")) entries.push(file);
    else {
      const [before, after] = file.split("*");
      for (const dir of readdirSync(path.join(dist, before), { withFileTypes: true }))
        if (dir.isDirectory()) entries.push(`${before}${dir.name}${after}`);
    }
  }
  const staging = path.join(path.dirname(dist), "bundle");
  rmSync(staging, { recursive: true, force: true });
  await build({
    absWorkingDir: dist,
    entryPoints: entries,
    outbase: dist,
    outdir: staging,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "neutral",
    packages: "external",
    chunkNames: "chunks/[name]-[hash]",
    logLevel: "warning",
  });
  for (const file of readdirSync(dist, { recursive: true }))
    if (String(file).endsWith(".js")) rmSync(path.join(dist, String(file)));
  cpSync(staging, dist, { recursive: true });
  rmSync(staging, { recursive: true, force: true });
}

function tsc(config, outDir) {
  execFileSync(process.execPath, [TSC, "-p", path.join(ROOT, config), "--outDir", outDir], {
    cwd: ROOT,
    stdio: "inherit",
  });
}

const FORCE = process.argv.includes("--force");
const requested = process.argv.slice(2).filter((arg) => arg !== "--force");
for (const name of requested.length ? requested : Object.keys(targets)) {
  const run = targets[name];
  if (!run) {
    process.stderr.write(`build-packages: unknown target "${name}" (known: ${Object.keys(targets).join(", ")})\n`);
    process.exit(1);
  }
  await run();
}
