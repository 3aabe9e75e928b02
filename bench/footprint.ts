/**
 * Production install footprint: what `npm install --omit=dev` puts in node_modules for a deployed server.
 *
 * - a generated server: the packed @mcp-gen/runtime tarball (`npm pack -w runtime`, built by its prepack) + zod, the
 *   two packages the README's install line adds as dependencies (generated code imports nothing else);
 * - an SDK v1 server: `@modelcontextprotocol/sdk` + zod;
 * - for reference, the mcp-gen CLI's own install (a devDependency: not deployed), packed the same way.
 *
 * Each goes into a fresh `npm init -y` project in the OS temp folder (outside this repository, so npm does not see
 * its workspaces), from the npm registry (cache first) at the versions this repository's lock file pins. Printed per
 * install: packages (`npm ls --all --omit=dev --parseable`), MB on disk (`du`-like: allocated blocks) and MB of file
 * contents. The three installs run at once (each in its own project; only the wall time of this file changes).
 * Standalone: `npx tsx bench/footprint.ts`.
 */
import { execFile, execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SDK_V1 = "@modelcontextprotocol/sdk@1.32.2";
const NPM_FLAGS = ["--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"];

interface Footprint {
  readonly packages: number;
  readonly diskBytes: number;
  readonly contentBytes: number;
}

function pinned(name: string): string {
  const lock = JSON.parse(readFileSync(path.join(REPO, "package-lock.json"), "utf8")) as {
    packages: Record<string, { version?: string }>;
  };
  const version = lock.packages[`node_modules/${name}`]?.version;
  if (!version) throw new Error(`package-lock.json pins no ${name}`);
  return `${name}@${version}`;
}

function npm(args: readonly string[], cwd: string): string {
  return execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
}

const execFileAsync = promisify(execFile);
/** `npm` without blocking, so the installs overlap; its stderr is passed on once it ends. */
async function npmAsync(args: readonly string[], cwd: string): Promise<string> {
  const { stdout, stderr } = await execFileAsync("npm", args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  process.stderr.write(stderr);
  return stdout;
}

/** Allocated and apparent sizes of every file below `dir` (symlinks counted once, as links). */
function sizes(dir: string): { disk: number; content: number } {
  let disk = 0;
  let content = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const stat = lstatSync(full);
    disk += stat.blocks * 512;
    if (entry.isDirectory()) {
      const inner = sizes(full);
      disk += inner.disk;
      content += inner.content;
    } else content += stat.size;
  }
  return { disk, content };
}

async function install(label: string, specs: readonly string[], root: string): Promise<Footprint> {
  const dir = path.join(root, label.replace(/\W+/g, "-"));
  mkdirSync(dir, { recursive: true });
  await npmAsync(["init", "-y"], dir);
  await npmAsync(["install", "--omit=dev", ...NPM_FLAGS, ...specs], dir);
  const listed = (await npmAsync(["ls", "--all", "--omit=dev", "--parseable"], dir)).trim().split("\n");
  const { disk, content } = sizes(path.join(dir, "node_modules"));
  // The first line of `npm ls --parseable` is the project itself.
  return { packages: listed.length - 1, diskBytes: disk, contentBytes: content };
}

const root = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-footprint-"));
try {
  const packs = path.join(root, "packs");
  mkdirSync(packs, { recursive: true });
  npm(["pack", "-w", "runtime", "-w", "generator", "--pack-destination", packs, "--loglevel=error"], REPO);
  const tarball = (prefix: RegExp): string => {
    const file = readdirSync(packs).find((f) => prefix.test(f));
    if (!file) throw new Error(`npm pack wrote no ${prefix} tarball`);
    return path.join(packs, file);
  };
  const zod = pinned("zod");
  const [generated, sdkV1, cli] = await Promise.all([
    install("generated", [tarball(/^mcp-gen-runtime-/), zod], root),
    install("sdk-v1", [SDK_V1, zod], root),
    // The CLI's tarball depends on @mcp-gen/runtime, which is not on the registry: install both tarballs together.
    install("cli", [tarball(/^mcp-gen-runtime-/), tarball(/^mcp-gen-\d/), zod], root),
  ]);
  const rows: [string, Footprint][] = [
    ["generated server (@mcp-gen/runtime + zod)", generated],
    [`SDK v1 server (${SDK_V1} + zod)`, sdkV1],
    ["mcp-gen CLI (devDependency, not deployed)", cli],
  ];
  const mb = (bytes: number): string => (bytes / 1e6).toFixed(1).padStart(6);
  console.log(`# production install footprint: npm install --omit=dev into an empty project (node ${process.version})`);
  console.log(`${"install".padEnd(56)} packages  MB on disk  MB files`);
  for (const [label, f] of rows) {
    console.log(
      `${label.padEnd(56)} ${String(f.packages).padStart(8)}  ${mb(f.diskBytes).padStart(10)}  ${mb(f.contentBytes).padStart(8)}`,
    );
  }
  const [ours, sdk] = [rows[0]![1], rows[1]![1]];
  console.log(
    `generated server / SDK v1 server: ${(ours.diskBytes / sdk.diskBytes).toFixed(2)}× on disk, ${ours.packages} vs ${sdk.packages} packages`,
  );
} finally {
  rmSync(root, { recursive: true, force: true });
}
