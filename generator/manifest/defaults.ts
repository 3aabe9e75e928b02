/** Defaults shared by the manifest pipeline and the CLI's option definitions (a leaf: the CLI loads it at startup). */

/** The manifest `mcp-gen generate` reads when `--manifest` is not given. */
export const DEFAULT_MANIFEST = "mcp.yaml";

/** Where generated code imports the runtime from unless the manifest's `generate.runtimeImport` says otherwise. */
export const DEFAULT_RUNTIME_IMPORT = "@mcp-gen/runtime";

/**
 * Whether a `runtimeImport` is a path (`./x`, `../x`, `/x`, `C:\\x`) rather than a package name. A package has
 * subpath entries (`<runtimeImport>/protocol/<name>`, `<runtimeImport>/node`); a path names one module and has
 * none, so whatever imports a runtime entry other than the core refuses a path rather than guess the folder layout.
 */
export function isRuntimePath(runtimeImport: string): boolean {
  return /^[./\\]|^[A-Za-z]:/.test(runtimeImport);
}

/**
 * Why `--runtime-import` cannot be used by a command whose output imports the runtime's subpath `entries`
 * (`"node, http and auth"`), or undefined when it is a package name.
 */
export function runtimeImportProblem(runtimeImport: string, importer: string, entries: string): string | undefined {
  if (runtimeImport !== "" && !isRuntimePath(runtimeImport)) return undefined;
  return `--runtime-import ${JSON.stringify(runtimeImport)} is not a package name: ${importer} the runtime package's ${entries} entries (<runtime-import>/<entry>)`;
}

/** The extensions generated relative imports may carry. */
export const IMPORT_EXTENSIONS = [".js", ".ts", ""] as const;
export type ImportExtension = (typeof IMPORT_EXTENSIONS)[number];

/**
 * `.js` works with `module: nodenext`, bundlers and tsx alike; `.ts` suits `allowImportingTsExtensions` setups
 * (Deno, `rewriteRelativeImportExtensions`); none suits `moduleResolution: bundler` projects that omit extensions.
 */
export const DEFAULT_IMPORT_EXTENSION: ImportExtension = ".js";
