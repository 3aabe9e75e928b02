/**
 * One generation (or \`--check\`) of a manifest's output, printing as the CLI does: \`mcp-gen generate\` and
 * \`init\` call it, and so does \`import --config\` for each server's client.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { ManifestError } from "../manifest/errors.ts";
import type { ImportExtension } from "../manifest/defaults.ts";
import { generateFromManifest, type ManifestOutput } from "./manifest.ts";
import { checkOutputFolder, parseRecord, RECORD_FILE, RefusedOutputError, writeOutputFolder } from "./output-folder.ts";

/** What a generation reads: the manifest, and where and how to write (\`GenerateArgs\` of \`mcp-gen generate\`). */
export interface RunGenerateArgs {
  readonly manifest: string;
  readonly out?: string;
  readonly importExtension?: ImportExtension;
  readonly check: boolean;
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
export async function runGenerate(args: RunGenerateArgs, io: CommandIo = stdio): Promise<number> {
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
    for (const line of await changedInputs(args.manifest, output)) io.err(`mcp-gen: ${line}`);
    io.err(`mcp-gen: ${shown} is out of date with ${args.manifest}; run mcp-gen generate`);
    return 1;
  }
  io.out(`mcp-gen: ${shown} is up to date`);
  return 0;
}

/** The embedded files (skill files) whose bytes differ from those the folder's record says it was generated from. */
async function changedInputs(manifest: string, output: ManifestOutput): Promise<string[]> {
  const now = output.files.find((f) => f.path === RECORD_FILE);
  const text = await readFile(path.join(output.outDir, RECORD_FILE), "utf8").catch(() => undefined);
  const before = text === undefined ? undefined : parseRecord(text)?.inputs;
  const after = now ? parseRecord(now.content)?.inputs : undefined;
  if (!before || !after) return [];
  const shown = (file: string) => path.relative(process.cwd(), path.join(path.dirname(manifest), file));
  return [
    ...Object.keys(after)
      .filter((file) => before[file] !== after[file])
      .map((file) =>
        before[file] === undefined
          ? `skill file ${shown(file)} was added after generation`
          : `skill file ${shown(file)} changed after generation`,
      ),
    ...Object.keys(before)
      .filter((file) => after[file] === undefined)
      .map((file) => `skill file ${shown(file)} was removed after generation`),
  ];
}

async function write(output: ManifestOutput, shown: string, io: CommandIo): Promise<number> {
  await writeOutputFolder(output.outDir, output.files);
  const count = output.files.filter((f) => f.path !== RECORD_FILE).length;
  io.out(`mcp-gen: wrote ${count} files to ${shown}`);
  return 0;
}
