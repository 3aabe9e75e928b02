/**
 * The protocol pipeline: read schema.ts → lower to IR (`lower/`, validated) → emit (`emit/protocol.ts`) → format.
 * Returns files; writing is the write stage's (`write.ts`), so tests can inspect output without touching the disk.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { IrModel } from "../ir/model.ts";
import { lowerSchemaWithWarnings } from "../lower/schema.ts";
import type { GeneratedFile } from "../emit/generated-file.ts";
import { emitProtocolFiles } from "../emit/protocol.ts";
import { formatFiles } from "./format.ts";
import { posixRelative, REPO_ROOT } from "./paths.ts";

export interface ProtocolJob {
  readonly schemaPath: string;
  readonly revision: string;
  readonly outDir: string;
}

/** A schema's path as headers name it: relative to the repository root, `/`-separated. */
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

export async function generateProtocol(
  job: ProtocolJob,
): Promise<{ model: IrModel; files: GeneratedFile[]; warnings: string[] }> {
  const text = await readFile(job.schemaPath, "utf8");
  const lowered = lowerSchemaWithWarnings({ text, displayPath: displayPath(job.schemaPath), revision: job.revision });
  const { model, warnings } = lowered;
  const files = emitProtocolFiles(model, { runtimeImport: runtimeImportFrom(job.outDir) });
  return { model, files: await formatFiles(files), warnings };
}
