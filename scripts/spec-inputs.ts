/**
 * `npm run spec` (run first by `npm test`, `npm run generate` and vitest's global setup): puts the MCP specification's
 * pinned files into `.spec/` (git-ignored), the one place the tests, the fidelity checks, `npm run generate` and the
 * bench read them from. The project never copies them into its tracked tree. Each file comes from the first of:
 *
 * 1. `MCP_SPEC_DIR`, a folder laid out as the specification's `schema/` (plus `extensions/<name>/`);
 * 2. `../shared/spec` beside the repository (CI's layout);
 * 3. a download from the specification's repositories at the pinned commits (`MCP_SPEC_BASE_URL` replaces
 *    raw.githubusercontent.com, e.g. with a mirror or a loopback copy); a file assembled from a page
 *    (`generator/spec/pages.ts`: the Skills types, which live in its page's TypeScript blocks) is built from the
 *    downloaded page,
 *
 * and is accepted only with the SHA-256 pinned in `generator/spec/pins.ts`. Files already in `.spec/` with
 * the pinned hash are kept; anything else there is removed. `--pin <dir>` rewrites the pins from a folder (after
 * moving to a new spec commit: update the commits in `spec-source.ts` too).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { posixRelative } from "../generator/pipeline/paths.ts";
import { REPO_ROOT } from "./repo-root.ts";
import { SPEC_PINS } from "../generator/spec/pins.ts";
import {
  download,
  EXTENSION_REPOSITORIES,
  pinnedFiles,
  sha256Hex,
  specBaseUrl,
  specFileFrom,
  specFileUrl,
  SPEC_BASE_URL_ENV,
  SPEC_REPOSITORY,
  SpecDownloadError,
  SpecInputError,
  verifyPinned,
} from "../generator/pipeline/spec-source.ts";

/** Where the verified spec files are: the spec root every consumer in this repository reads. */
export const SPEC_ROOT = path.join(REPO_ROOT, ".spec");
/** The folder CI and the team keep beside the repository. */
export const SHARED_SPEC = path.resolve(REPO_ROOT, "../shared/spec");
export const SPEC_DIR_ENV = "MCP_SPEC_DIR";
/** Written last into the spec root, holding `pinsDigest()`: the root is complete for exactly these pins. */
const MARKER = ".verified";

export const SPEC_INSTRUCTION =
  "the MCP specification's files are missing from .spec/ or do not match the pins: run `npm run spec` " +
  `(also run by npm test and npm run generate). It copies them from $${SPEC_DIR_ENV} or ../shared/spec when present, ` +
  "else downloads them from github.com/modelcontextprotocol at the pinned commits (MCP_SPEC_BASE_URL replaces " +
  "https://raw.githubusercontent.com), and checks each file's sha256 against generator/spec/pins.ts";

/** Appended to a failed download: how to give the files without network access (also in docs/contributing.md). */
export function offlineInstruction(sharedDir: string): string {
  return (
    "The specification's files could not be downloaded. Without network access, give them locally: set " +
    `${SPEC_DIR_ENV} to a folder laid out as the specification's schema/ folder (plus extensions/<name>/), or put ` +
    `that folder at ${sharedDir} (../shared/spec beside the clone); or set ${SPEC_BASE_URL_ENV} to a mirror of ` +
    'https://raw.githubusercontent.com. Then run `npm run spec` again (docs/contributing.md, "Spec inputs").'
  );
}

/** Identifies the pinned set: the commits and every file's hash. */
function pinsDigest(): string {
  return sha256Hex(
    JSON.stringify([SPEC_REPOSITORY, EXTENSION_REPOSITORIES, pinnedFiles().map((f) => [f, SPEC_PINS[f]])]),
  );
}

/** The spec root, or an error carrying the set-up instruction unless `npm run spec` completed for these pins. */
export function requireSpecRoot(root = SPEC_ROOT): string {
  if (!isCurrent(root)) throw new SpecInputError(SPEC_INSTRUCTION);
  return root;
}

function isCurrent(root: string): boolean {
  const marker = path.join(root, MARKER);
  return existsSync(marker) && readFileSync(marker, "utf8") === pinsDigest();
}

export type SpecSource =
  { readonly kind: "dir"; readonly dir: string } | { readonly kind: "url"; readonly base: string };

/** `MCP_SPEC_DIR`, else `sharedDir` when it exists, else a download. */
export function specSource(env: NodeJS.ProcessEnv = process.env, sharedDir = SHARED_SPEC): SpecSource {
  const fromEnv = env[SPEC_DIR_ENV];
  if (fromEnv !== undefined && fromEnv !== "") {
    const dir = path.resolve(fromEnv);
    if (!existsSync(dir) || !statSync(dir).isDirectory())
      throw new SpecInputError(`${SPEC_DIR_ENV}=${fromEnv} is not a folder`);
    return { kind: "dir", dir };
  }
  if (existsSync(sharedDir) && statSync(sharedDir).isDirectory()) return { kind: "dir", dir: sharedDir };
  return { kind: "url", base: specBaseUrl(env) };
}

export interface EnsureOptions {
  /** The spec root to fill (default `.spec/`). */
  readonly root?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** The `../shared/spec` to look for (tests point it elsewhere). */
  readonly sharedDir?: string;
  /** Downloads at once. */
  readonly concurrency?: number;
}

export interface EnsureResult {
  readonly source: SpecSource;
  /** Files taken from the source this run (the others were already in place with the pinned hash). */
  readonly fetched: number;
  readonly removed: string[];
}

/** Fills `root` with every pinned file, verified; throws `SpecInputError` naming the first file refused. */
export async function ensureSpecInputs(options: EnsureOptions = {}): Promise<EnsureResult> {
  const root = options.root ?? SPEC_ROOT;
  const sharedDir = options.sharedDir ?? SHARED_SPEC;
  const source = specSource(options.env, sharedDir);
  const missing: string[] = [];
  for (const file of pinnedFiles()) {
    const target = path.join(root, file);
    if (!existsSync(target) || sha256Hex(await readFile(target)) !== SPEC_PINS[file]) missing.push(file);
  }
  // Already complete: the marker stays, so that tests reading the root meanwhile never see it missing.
  if (missing.length === 0 && (await unpinnedFiles(root)).length === 0 && isCurrent(root))
    return { source, fetched: 0, removed: [] };
  await rm(path.join(root, MARKER), { force: true });
  const queue = [...missing];
  const worker = async () => {
    // A refusal empties the queue: the other workers finish the file in hand and stop.
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      try {
        await fetchInto(root, source, file);
      } catch (error) {
        queue.length = 0;
        if (error instanceof SpecDownloadError)
          throw new SpecInputError(`${error.message}\n${offlineInstruction(sharedDir)}`);
        throw error;
      }
    }
  };
  const outcomes = await Promise.allSettled(Array.from({ length: options.concurrency ?? 8 }, worker));
  const failure = outcomes.find((o) => o.status === "rejected");
  if (failure) throw failure.reason;
  const removed = await removeUnpinned(root);
  await writeFile(path.join(root, MARKER), pinsDigest());
  return { source, fetched: missing.length, removed };
}

let written = 0;

/** Reads one pinned file from the source, verifies it and moves it into place (never a partial or unverified file). */
async function fetchInto(root: string, source: SpecSource, file: string): Promise<void> {
  const data = await readFromSource(source, file);
  verifyPinned(file, data, source.kind === "dir" ? path.join(source.dir, file) : specFileUrl(file, source.base));
  const target = path.join(root, file);
  const temp = `${target}.${process.pid}.${++written}.tmp`;
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(temp, data);
  await rename(temp, target);
}

async function readFromSource(source: SpecSource, file: string): Promise<Buffer> {
  if (source.kind === "url") return specFileFrom(file, await download(specFileUrl(file, source.base)));
  const from = path.join(source.dir, file);
  if (!existsSync(from)) throw new SpecInputError(`${from} is missing (the spec folder must hold every pinned file)`);
  return readFile(from);
}

/** Files under `root` that are not pinned (an earlier pin set's, or a stray temporary file), sorted. */
async function unpinnedFiles(root: string): Promise<string[]> {
  if (!existsSync(root)) return [];
  const pinned = new Set(pinnedFiles());
  const found: string[] = [];
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const rel = posixRelative(root, path.join(entry.parentPath, entry.name));
    if (!pinned.has(rel) && rel !== MARKER) found.push(rel);
  }
  return found.sort();
}

async function removeUnpinned(root: string): Promise<string[]> {
  const removed = await unpinnedFiles(root);
  for (const rel of removed) await rm(path.join(root, rel), { force: true });
  return removed;
}

/** The spec-root paths a folder holds that the project reads: every `.ts` and `.json` file. */
async function pinnable(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && /\.(ts|json)$/.test(entry.name))
      files.push(posixRelative(dir, path.join(entry.parentPath, entry.name)));
  }
  return files.sort();
}

/** `--pin <dir>`: the text of generator/spec/pins.ts for the files of `dir`. */
export async function pinsModule(dir: string): Promise<string> {
  const lines: string[] = [];
  for (const file of await pinnable(dir))
    lines.push(`  ${JSON.stringify(file)}: "${sha256Hex(await readFile(path.join(dir, file)))}",`);
  // Loaded here: prettier is needed to write pins, not to check them.
  const { formatTypeScript } = await import("../generator/pipeline/format.ts");
  return formatTypeScript(
    [
      "/**",
      " * The SHA-256 of every specification file the project reads, by its path under the spec root (see",
      " * `pipeline/spec-source.ts` for the commits they were taken at). Data, not code: it sits outside lower/, ir/,",
      " * pipeline/ and emit/, where no revision name may appear. Written by `tsx scripts/spec-inputs.ts",
      " * --pin <spec folder>`; `npm run spec` and `mcp-gen protocol --spec` accept no other content.",
      " */",
      "export const SPEC_PINS: Readonly<Record<string, string>> = {",
      ...lines,
      "};",
      "",
    ].join("\n"),
  );
}

async function main(): Promise<void> {
  const pin = process.argv.indexOf("--pin");
  if (pin >= 0) {
    const dir = path.resolve(process.argv[pin + 1] ?? SHARED_SPEC);
    await writeFile(path.join(REPO_ROOT, "generator/spec/pins.ts"), await pinsModule(dir));
    process.stdout.write(`spec: pinned ${(await pinnable(dir)).length} files of ${dir}\n`);
    return;
  }
  try {
    const { source, fetched } = await ensureSpecInputs();
    const from = source.kind === "dir" ? posixRelative(process.cwd(), source.dir) : source.base;
    process.stdout.write(
      `spec: ${pinnedFiles().length} pinned files verified in .spec/ (${fetched > 0 ? `${fetched} taken from ${from}` : "all already in place"})\n`,
    );
  } catch (error) {
    process.stderr.write(`spec: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
