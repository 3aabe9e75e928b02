/**
 * The protocol pipeline: read schema.ts → lower to IR (`lower/`, validated) → emit (`emit/protocol.ts`) → format.
 * Returns files; writing is the write stage's (`write.ts`), so tests can inspect output without touching the disk.
 */
import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { IrModel } from "../ir/model.ts";
import { lowerSchemaWithWarnings } from "../lower/schema.ts";
import type { GeneratedFile } from "../emit/generated-file.ts";
import type { RuntimeEntry } from "../emit/printer.ts";
import { emitProtocolFiles } from "../emit/protocol.ts";
import { formatFiles } from "./format.ts";
import { posixRelative, REPO_ROOT } from "./paths.ts";

export interface ProtocolJob {
  readonly schemaPath: string;
  readonly revision: string;
  readonly outDir: string;
  /** Extension schemas: the extension identifier (`io.modelcontextprotocol/tasks`), for the `extension` descriptor. */
  readonly extensionId?: string;
  /**
   * The folder that headers, `ir.json` and error messages name the schema (and the files it imports) relative to:
   * the user's working directory for `mcp-gen protocol` (never where the CLI is installed), the spec root for
   * `npm run generate`. Default: the working directory.
   */
  readonly displayRoot?: string;
  /** Extension of relative imports between the generated files (`.js`, `.ts` or ""). Default: `.ts`. */
  readonly importExtension?: string;
}

/** A schema's path as headers name it: relative to `root` (default: the working directory), `/`-separated. */
export function displayPath(file: string, root = process.cwd()): string {
  return posixRelative(root, path.resolve(file));
}

/** The runtime package (`@mcp-gen/runtime`) and its source entry files in this repository, per entry point. */
const RUNTIME_PACKAGE = "@mcp-gen/runtime";
const RUNTIME_SOURCES: Readonly<Record<RuntimeEntry, string>> = {
  core: "runtime/index.ts",
  "method-type": "runtime/protocol/method-type.ts",
  "zod-helpers": "runtime/protocol/zod-helpers.ts",
};

/**
 * Where protocol bindings written to `outDir` import a runtime entry point from (default: the method tokens). Inside
 * this repository (its runtime/generated/protocol/, compiled into the runtime package, and test fixtures) they import the
 * runtime's source relatively; any other folder — a user's, or any folder when run as the installed CLI, which has no
 * runtime sources next to it — imports the installed runtime package through its `exports`.
 */
export function runtimeImportFrom(outDir: string, entry: RuntimeEntry = "method-type"): string {
  const source = path.join(REPO_ROOT, RUNTIME_SOURCES[entry]);
  const target = path.resolve(outDir);
  const inRepo = path.relative(REPO_ROOT, target);
  const outside = inRepo.startsWith("..") || path.isAbsolute(inRepo) || inRepo.split(path.sep).includes("node_modules");
  if (!existsSync(source) || outside) {
    return entry === "core" ? RUNTIME_PACKAGE : `${RUNTIME_PACKAGE}/${entry}`;
  }
  const specifier = posixRelative(target, source);
  return specifier.startsWith(".") ? specifier : `./${specifier}`;
}

export async function generateProtocol(
  job: ProtocolJob,
): Promise<{ model: IrModel; files: GeneratedFile[]; warnings: string[] }> {
  const text = await readFile(job.schemaPath, "utf8");
  const root = path.resolve(job.displayRoot ?? process.cwd());
  const lowered = lowerSchemaWithWarnings({
    text,
    displayPath: displayPath(job.schemaPath, root),
    revision: job.revision,
    readImport: (specifier, importer) => readRelativeImport(specifier, importer, root),
  });
  const { model, warnings } = lowered;
  const files = emitProtocolFiles(model, {
    runtime: (entry) => runtimeImportFrom(job.outDir, entry),
    ...(job.extensionId !== undefined ? { extensionId: job.extensionId } : {}),
    ...(job.importExtension !== undefined ? { importExtension: job.importExtension } : {}),
  });
  return { model, files: await formatFiles(files), warnings };
}

/**
 * A module a schema imports, resolved as TypeScript resolves a relative specifier next to its importer (given by
 * display path, relative to `root`): `./x.js` is `./x.ts`, and a specifier without an extension gets `.ts`.
 */
function readRelativeImport(specifier: string, importer: string, root: string): { text: string; displayPath: string } {
  const base = specifier.endsWith(".js")
    ? `${specifier.slice(0, -3)}.ts`
    : specifier.endsWith(".ts")
      ? specifier
      : `${specifier}.ts`;
  const file = path.resolve(root, path.dirname(importer), base);
  return { text: readFileSync(file, "utf8"), displayPath: displayPath(file, root) };
}
