/**
 * The write stage of both pipelines, and its `--check` twin. Writes are all-or-nothing as far as the file system
 * allows: every file goes to a temporary sibling first, and only when all are written are they renamed into place, in
 * the order given (a rename is atomic per file). What may be removed or must be refused is decided by the caller's
 * ownership rule (`output-folder.ts` for a manifest's folder, the generated areas for `npm run generate`).
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { lstat, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { GeneratedFile } from "../emit/generated-file.ts";

/**
 * A fresh temporary name beside `target`. It is unpredictable and created exclusively (`wx`: never an existing file,
 * never through a symlink planted at the name), so nobody can make a write land elsewhere.
 */
function tempSibling(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(8).toString("hex")}.tmp`);
}

/** The file at `target` holds exactly `content` (a regular file; a symlink or folder never does). */
async function holds(target: string, content: string): Promise<boolean> {
  const stat = await lstat(target).catch(() => undefined);
  if (!stat?.isFile() || stat.size !== Buffer.byteLength(content)) return false;
  return (await readFile(target, "utf8")) === content;
}

/**
 * Writes `files` (paths relative to `root`, `/`-separated) and then removes `obsolete` (relative paths the caller
 * owns and no longer produces). Nothing is renamed into place until every file is written. A file that already holds
 * its content is not written at all, so a run that changes nothing leaves every modification time as it was (what
 * watchers, `tsc --incremental` and `make` go by).
 */
export async function writeFiles(
  root: string,
  files: readonly GeneratedFile[],
  obsolete: readonly string[] = [],
): Promise<void> {
  const staged: { temp: string; target: string }[] = [];
  try {
    for (const file of files) {
      const target = path.join(root, file.path);
      if (await holds(target, file.content)) continue;
      const temp = tempSibling(target);
      await mkdir(path.dirname(target), { recursive: true });
      await writeFile(temp, file.content, { flag: "wx" });
      staged.push({ temp, target });
    }
  } catch (error) {
    await Promise.all(staged.map((s) => rm(s.temp, { force: true })));
    throw error;
  }
  for (const s of staged) await rename(s.temp, s.target);
  for (const name of obsolete) await rm(path.join(root, name), { force: true });
}

/** `missing: x` and `stale: x` for `files` in their order, then `extra: x` for each of `obsolete`. */
export async function compareFiles(
  root: string,
  files: readonly GeneratedFile[],
  obsolete: readonly string[] = [],
): Promise<string[]> {
  const problems: string[] = [];
  for (const file of files) {
    const target = path.join(root, file.path);
    if (!existsSync(target)) problems.push(`missing: ${file.path}`);
    else if ((await readFile(target, "utf8")) !== file.content) problems.push(`stale: ${file.path}`);
  }
  for (const name of obsolete) problems.push(`extra: ${name}`);
  return problems;
}

/**
 * Creates each file only if nothing exists at its path (`init`): never overwrites, never removes. Returns the
 * paths written and the paths skipped because they existed.
 */
export async function writeNewFiles(
  dir: string,
  files: readonly GeneratedFile[],
): Promise<{ written: string[]; skipped: string[] }> {
  const written: string[] = [];
  const skipped: string[] = [];
  for (const file of files) {
    const target = path.join(dir, file.path);
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await writeFile(target, file.content, { flag: "wx" });
      written.push(file.path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      skipped.push(file.path);
    }
  }
  return { written, skipped };
}

/** Replaces one file atomically (temporary sibling, then rename); nothing else in its folder is touched. */
export async function writeFileAtomically(file: string, content: string): Promise<void> {
  await writeFiles(path.dirname(file), [{ path: path.basename(file), content }]);
}
