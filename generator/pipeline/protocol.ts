/**
 * The protocol pipeline: read schema.ts → lower to IR (`lower/`, validated) → emit (`emit/protocol.ts`) → format.
 * Returns files; writing is the write stage's (`write.ts`), so tests can inspect output without touching the disk.
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { IrModel } from "../ir/model.ts";
import { lowerSchemaWithWarnings } from "../lower/schema.ts";
import { referenceBase } from "../lower/extension.ts";
import { matchBase, type BaseCandidate } from "../diff/base-match.ts";
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
  /**
   * Revisions the project has, for an extension schema's base (`diff/base-match.ts`): the first whose IR every
   * declaration the extension imports matches is imported from (at `specifier`, its bindings' index module as seen
   * from the output folder) instead of copied. Default: none (the imported declarations are copied).
   */
  readonly bases?: readonly BaseBindings[];
  /**
   * The revision package-name imports stand for (`from "@modelcontextprotocol/client"`: a package of the base
   * protocol's types, as an extension published on npm writes it): one of `bases`. Without it such an import is an
   * error that says to choose one (`--base <revision>`).
   */
  readonly packageBase?: BaseBindings;
}

/** A revision's bindings an extension may refer to: its model, and how the extension's files import them. */
export interface BaseBindings extends BaseCandidate {
  readonly specifier: string;
}

/** A schema's path as headers name it: relative to `root` (default: the working directory), `/`-separated. */
export function displayPath(file: string, root = process.cwd()): string {
  return posixRelative(root, path.resolve(file));
}

/**
 * How generated code imports a runtime symbol when the runtime is the package `runtimeImport` (default
 * `@mcp-gen/runtime`): every symbol of the printer's table (`RuntimeEntry`: the method tokens and zod helpers too) from
 * the package itself, the core entry, which is their one public home; `import --config`'s index also imports the
 * `/node`, `/http` and `/auth` subpaths. A pure function of the option, so the output does not depend on where the
 * generator runs.
 */
export function packageRuntime(
  runtimeImport: string = DEFAULT_RUNTIME_IMPORT,
): (entry: RuntimeEntry | "node" | "http" | "auth") => string {
  return (entry) =>
    entry === "node" || entry === "http" || entry === "auth" || entry === "tasks" || entry === "apps"
      ? `${runtimeImport}/${entry}`
      : runtimeImport;
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
    ...(job.packageBase ? { packageBase: job.packageBase.model } : {}),
  });
  // The base package imports stand for is tried first: the bindings import it rather than copy it.
  const bases = job.packageBase
    ? [job.packageBase, ...(job.bases ?? []).filter((b) => b !== job.packageBase)]
    : (job.bases ?? []);
  const match = matchBase(lowered.model, bases);
  const model = referenceBase(lowered.model, match);
  const warnings = [...lowered.warnings, ...match.problems];
  if (model.extension && !match.base && model.extension.versions.length > 0) warnings.push(copiedWarning(model, bases));
  const files = emitProtocolFiles(model, {
    runtime: job.runtime ?? packageRuntime(),
    base: (base) => bases.find((b) => b.builtin === base.builtin && b.model.revision === base.revision)!.specifier,
    ...(job.extensionId !== undefined ? { extensionId: job.extensionId } : {}),
    ...(job.importExtension !== undefined ? { importExtension: job.importExtension } : {}),
  });
  return { model, files: await formatFiles(files), warnings };
}

/** Why an extension's bindings declare their base's types themselves. */
function copiedWarning(model: IrModel, bases: readonly BaseBindings[]): string {
  const modules = model.extension!.imports.map((i) => i.module).join(", ");
  const known = bases.map((b) => `${b.model.revision} (${b.model.protocol.version})`).join(", ") || "none given";
  return `${model.source.path}: the declarations imported from ${modules} match no known revision (${known}), so the bindings declare copies of them`;
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
