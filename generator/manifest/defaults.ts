/** Defaults shared by the manifest pipeline and the CLI's option definitions (a leaf: the CLI loads it at startup). */

/** The manifest `mcp-gen generate` reads when `--manifest` is not given. */
export const DEFAULT_MANIFEST = "mcp.yaml";

/** Where generated code imports the runtime from unless the manifest's `generate.runtimeImport` says otherwise. */
export const DEFAULT_RUNTIME_IMPORT = "mcp-gen/runtime";
