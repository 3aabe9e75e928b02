/**
 * `mcp-gen diff`: what changed, never writing a file.
 *
 * - `mcp-gen diff <revA> <revB>`: between two revisions' IRs (built-in names, protocol folders, ir.json files).
 * - `mcp-gen diff [--manifest mcp.yaml] [--out dir]`: what regenerating would change — the surface recorded in the
 *   output folder's `.mcp-gen.json` at generation time against the manifest and revisions as they are now.
 * - `mcp-gen diff <a.yaml> <b.yaml>`: between two manifests, both as they would generate now.
 *
 * Exit codes: 0 compared (changes or not), 1 bad input (missing, never generated, invalid manifest or IR).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { diffModels } from "../diff/compare.ts";
import { loadModel } from "../diff/load.ts";
import { diffSurfaces } from "../diff/surface-compare.ts";
import { isRecordedSurface } from "../diff/surface-shape.ts";
import type { DiffOrigin, ManifestDiff, ManifestSurface } from "../diff/surface-model.ts";
import { formatManifestDiffText } from "../diff/surface-text.ts";
import { formatDiffText } from "../diff/text.ts";
import { GeneratorError } from "../ir/errors.ts";
import { DEFAULT_MANIFEST } from "../manifest/defaults.ts";
import { ManifestError } from "../manifest/errors.ts";
import { lowerManifestJob } from "../pipeline/manifest.ts";
import { surfaceOf, surfaceOfRecord } from "../pipeline/manifest-surface.ts";
import { parseRecord, RECORD_FILE } from "../pipeline/output-folder.ts";

export interface DiffArgs {
  readonly from?: string;
  readonly to?: string;
  /** The manifest whose generated output is compared (default `mcp.yaml`, when no positionals are given). */
  readonly manifest?: string;
  /** The output folder, when not the manifest's `generate.out`. */
  readonly out?: string;
  readonly json: boolean;
}

type Write = (text: string) => void;

const stdout: Write = (t) => process.stdout.write(t);

/** The command: the diff its arguments name. Returns the exit code; a bad manifest is printed one problem a line. */
export async function runDiffCommand(
  args: DiffArgs,
  write: Write = stdout,
  writeError: Write = stderr,
): Promise<number> {
  try {
    if (args.from !== undefined && args.to !== undefined) {
      if (!isManifestArg(args.from) && !isManifestArg(args.to)) {
        runDiff({ from: args.from, to: args.to, json: args.json }, write);
        return 0;
      }
      if (!isManifestArg(args.from) || !isManifestArg(args.to))
        throw new GeneratorError(`diff compares two manifests or two revisions, not one of each`);
      return printManifestDiff(await manifestsDiff(args.from, args.to), args.json, write);
    }
    return printManifestDiff(await outputDiff(args.manifest ?? DEFAULT_MANIFEST, args.out), args.json, write);
  } catch (error) {
    if (!(error instanceof ManifestError)) throw error;
    for (const line of error.lines()) writeError(`mcp-gen: ${line}\n`);
    return 1;
  }
}

/** Two revisions' IRs (built-in names, generated protocol folders or ir.json files). */
export function runDiff(args: { from: string; to: string; json: boolean }, write: Write = stdout): void {
  const diff = diffModels(loadModel(args.from), loadModel(args.to));
  write(args.json ? `${JSON.stringify(diff, null, 2)}\n` : formatDiffText(diff));
}

function stderr(text: string): void {
  process.stderr.write(text);
}

function printManifestDiff(diff: ManifestDiff, json: boolean, write: Write): number {
  write(json ? `${JSON.stringify(diff, null, 2)}\n` : formatManifestDiffText(diff));
  return 0;
}

/** The output folder's recorded surface against the manifest now. */
async function outputDiff(manifest: string, out: string | undefined) {
  const now = await lowered(manifest, out);
  const recordPath = path.join(now.outDir, RECORD_FILE);
  const shown = shownPath(recordPath);
  if (!existsSync(recordPath)) {
    throw new GeneratorError(
      `${manifest} was never generated into ${shownPath(now.outDir)} (no ${RECORD_FILE}); run mcp-gen generate first, or name the folder with --out`,
    );
  }
  const record = parseRecord(readFileSync(recordPath, "utf8"));
  if (!record) throw new GeneratorError(`${shown} is not an mcp-gen outputs record`);
  if (record.manifest !== now.recordedAs) {
    throw new GeneratorError(
      `${shownPath(now.outDir)} holds the output of another manifest (${record.manifest}); name this one's folder with --out`,
    );
  }
  if (record.surface === undefined) {
    throw new GeneratorError(
      `${shown} was written by an earlier mcp-gen that recorded no surface to compare with; regenerate once (mcp-gen generate), then diff after your next change`,
    );
  }
  if (!isRecordedSurface(record.surface)) {
    throw new GeneratorError(`${shown}: its surface is not one this mcp-gen can read; regenerate, then diff`);
  }
  const from: DiffOrigin = { kind: "record", path: shown, sha256: record.sha256 };
  return diffSurfaces(surfaceOfRecord(record.surface), now.surface, { from, to: now.origin });
}

async function manifestsDiff(a: string, b: string) {
  const [from, to] = [await lowered(a), await lowered(b)];
  return diffSurfaces(from.surface, to.surface, { from: from.origin, to: to.origin });
}

/** A manifest lowered now, and its surface (the revisions' IRs read, nothing emitted or written). */
async function lowered(
  manifest: string,
  out?: string,
): Promise<{ surface: ManifestSurface; origin: DiffOrigin; outDir: string; recordedAs: string }> {
  const { model, outDir, manifestPath } = await lowerManifestJob({
    manifestPath: manifest,
    ...(out !== undefined ? { outDir: out } : {}),
  });
  const origin: DiffOrigin = { kind: "manifest", path: shownPath(manifestPath), sha256: model.source.sha256 };
  // `recordedAs`: the manifest as its output folder's record names it (relative to that folder).
  return { surface: surfaceOf(model, path.dirname(manifestPath)), origin, outDir, recordedAs: model.source.path };
}

/** A YAML file, or a JSON file holding a `server` object (an IR has `revision` and `types` instead). */
function isManifestArg(arg: string): boolean {
  const ext = path.extname(arg).toLowerCase();
  if (ext === ".yaml" || ext === ".yml") return true;
  if (ext !== ".json" || !existsSync(arg)) return false;
  try {
    const value = JSON.parse(readFileSync(arg, "utf8")) as Record<string, unknown>;
    return typeof value === "object" && value !== null && "server" in value && !("types" in value);
  } catch {
    return false;
  }
}

/** Paths as the user sees them: relative to the working directory when below it. */
function shownPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative === "" ? "." : relative.startsWith("..") || path.isAbsolute(relative) ? file : relative;
}
