/**
 * The protocol pipeline: read schema.ts → lower to IR (validated) → emit → format. Returns files; writing is separate
 * (`writeGeneratedFiles`), so tests can inspect output without touching the disk.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { IrModel } from "../ir/model.ts";
import { lowerSchema } from "../lower/schema.ts";
import { formatTypeScript, type GeneratedFile } from "../emit/generated-file.ts";
import { emitProtocolFiles } from "../emit/protocol.ts";

/** The repository root (the directory holding `generator/`). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface ProtocolJob {
  readonly schemaPath: string;
  readonly revision: string;
  readonly outDir: string;
}

/** A `/`-separated relative path, as used in headers and import specifiers. */
export function posixRelative(from: string, to: string): string {
  return path.relative(from, to).split(path.sep).join("/");
}

export function displayPath(file: string): string {
  return posixRelative(REPO_ROOT, path.resolve(file));
}

/** The package export of the runtime's method tokens (`ProtocolRequestType`, `MethodTable`, …). */
export const RUNTIME_METHOD_TYPE_EXPORT = "@mcp-gen/runtime/method-type";

/**
 * Where protocol bindings written to `outDir` import the method tokens from. Inside this repository (its
 * generated/protocol/, compiled into the runtime package, and test fixtures) they import the runtime's source
 * relatively; any other folder — a user's, or any folder when run as the installed CLI, which has no runtime sources
 * next to it — imports the installed runtime package through its `exports`.
 */
export function runtimeImportFrom(outDir: string): string {
  const source = path.join(REPO_ROOT, "runtime/protocol/method-type.ts");
  const target = path.resolve(outDir);
  const inRepo = path.relative(REPO_ROOT, target);
  const outside = inRepo.startsWith("..") || path.isAbsolute(inRepo) || inRepo.split(path.sep).includes("node_modules");
  if (!existsSync(source) || outside) {
    return RUNTIME_METHOD_TYPE_EXPORT;
  }
  const specifier = posixRelative(target, source);
  return specifier.startsWith(".") ? specifier : `./${specifier}`;
}

export async function generateProtocol(job: ProtocolJob): Promise<{ model: IrModel; files: GeneratedFile[] }> {
  const text = await readFile(job.schemaPath, "utf8");
  const model = lowerSchema({ text, displayPath: displayPath(job.schemaPath), revision: job.revision });
  const files = emitProtocolFiles(model, { runtimeImport: runtimeImportFrom(job.outDir) });
  return { model, files: await formatFiles(files) };
}

export async function formatFiles(files: readonly GeneratedFile[]): Promise<GeneratedFile[]> {
  return Promise.all(
    files.map(async (f) => (f.path.endsWith(".ts") ? { path: f.path, content: await formatTypeScript(f.content) } : f)),
  );
}

export async function writeGeneratedFiles(outDir: string, files: readonly GeneratedFile[]): Promise<void> {
  for (const file of files) {
    const target = path.join(outDir, file.path);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.content);
  }
}
