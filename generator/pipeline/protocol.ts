/**
 * The protocol pipeline: read schema.ts → lower to IR (`lower/`, validated) → emit (`emit/protocol.ts`) → format.
 * Returns files; writing is the write stage's (`write.ts`), so tests can inspect output without touching the disk.
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { IrModel } from "../ir/model.ts";
import { lowerSchemaWithWarnings } from "../lower/schema.ts";
import type { GeneratedFile } from "../emit/generated-file.ts";
import type { RuntimeEntry } from "../emit/printer.ts";
import { emitProtocolFiles } from "../emit/protocol.ts";
import { formatFiles } from "./format.ts";
import { DEFAULT_RUNTIME_IMPORT } from "../manifest/defaults.ts";
import { posixRelative } from "./paths.ts";

export interface ProtocolJob {
  readonly schemaPath: string;
  readonly revision: string;
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
  /**
   * The specifier generated code imports each runtime entry point from. Default: the `@mcp-gen/runtime` package's
   * (`packageRuntime()`). Bindings that are part of the runtime package itself (this repository's runtime/generated/,
   * written by scripts/generate-protocol.ts) pass relative paths to its leaf modules instead.
   */
  readonly runtime?: (entry: RuntimeEntry) => string;
}

/** A schema's path as headers name it: relative to `root` (default: the working directory), `/`-separated. */
export function displayPath(file: string, root = process.cwd()): string {
  return posixRelative(root, path.resolve(file));
}

/**
 * How generated code imports a runtime entry point when the runtime is the package `runtimeImport` (default
 * `@mcp-gen/runtime`): the core is the package itself, every other entry its subpath export (`<package>/method-type`).
 * A pure function of the option, so the output does not depend on where the generator runs.
 */
export function packageRuntime(runtimeImport: string = DEFAULT_RUNTIME_IMPORT): (entry: RuntimeEntry) => string {
  return (entry) => (entry === "core" ? runtimeImport : `${runtimeImport}/${entry}`);
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
    runtime: job.runtime ?? packageRuntime(),
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
