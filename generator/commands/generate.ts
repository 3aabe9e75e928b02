/**
 * `mcp-gen generate [--manifest mcp.yaml] [--out <dir>] [--check] [--watch]`: the typed server stub and client
 * for a manifest. Exit codes: 0 done / up to date, 1 bad manifest or stale output (`--check`).
 */
import { watch } from "node:fs";
import path from "node:path";
import { ManifestError } from "../manifest/errors.ts";
import type { ImportExtension } from "../manifest/defaults.ts";
import { generateFromManifest, type ManifestOutput } from "../pipeline/manifest.ts";
import { checkOutputFolder, RECORD_FILE, RefusedOutputError, writeOutputFolder } from "../pipeline/output-folder.ts";

export interface GenerateArgs {
  readonly manifest: string;
  readonly out?: string;
  readonly importExtension?: ImportExtension;
  readonly check: boolean;
  readonly watch: boolean;
}

export interface CommandIo {
  out(line: string): void;
  err(line: string): void;
}

/** The process's stdout/stderr, one line per call. */
export const stdio: CommandIo = {
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
};

/** One generation (or check). Returns the exit code; prints manifest problems one per line. */
export async function runGenerate(args: Omit<GenerateArgs, "watch">, io: CommandIo = stdio): Promise<number> {
  let output;
  try {
    output = await generateFromManifest({
      manifestPath: args.manifest,
      ...(args.out ? { outDir: args.out } : {}),
      ...(args.importExtension !== undefined ? { importExtension: args.importExtension } : {}),
    });
  } catch (error) {
    if (!(error instanceof ManifestError)) throw error;
    for (const line of error.lines()) io.err(`mcp-gen: ${line}`);
    return 1;
  }
  for (const warning of output.warnings) io.err(`mcp-gen: warning: ${warning}`);
  const shown = path.relative(process.cwd(), output.outDir) || ".";
  try {
    return args.check ? await check(args, output, shown, io) : await write(output, shown, io);
  } catch (error) {
    if (!(error instanceof RefusedOutputError)) throw error;
    io.err(`mcp-gen: ${error.message}`);
    return 1;
  }
}

async function check(
  args: { manifest: string },
  output: ManifestOutput,
  shown: string,
  io: CommandIo,
): Promise<number> {
  const problems = await checkOutputFolder(output.outDir, output.files);
  for (const problem of problems) io.err(`mcp-gen: ${problem.replace(": ", `: ${shown}/`)}`);
  if (problems.length > 0) {
    io.err(`mcp-gen: ${shown} is out of date with ${args.manifest}; run mcp-gen generate`);
    return 1;
  }
  io.out(`mcp-gen: ${shown} is up to date`);
  return 0;
}

async function write(output: ManifestOutput, shown: string, io: CommandIo): Promise<number> {
  await writeOutputFolder(output.outDir, output.files);
  const count = output.files.filter((f) => f.path !== RECORD_FILE).length;
  io.out(`mcp-gen: wrote ${count} files to ${shown}`);
  return 0;
}

/** Regenerates whenever the manifest changes, until the process is stopped. */
export function watchManifest(args: GenerateArgs): void {
  let timer: NodeJS.Timeout | undefined;
  const run = () => {
    runGenerate({ ...args, check: false }).catch((error: unknown) => stdio.err(`mcp-gen: ${String(error)}`));
  };
  run();
  // Watch the folder: editors often replace the file, which ends a watch on the file itself.
  watch(path.dirname(path.resolve(args.manifest)), (_event, file) => {
    if (file !== path.basename(args.manifest)) return;
    clearTimeout(timer);
    timer = setTimeout(run, 100);
  });
  stdio.out(`mcp-gen: watching ${args.manifest}`);
}
