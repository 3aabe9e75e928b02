/** The printer of a manifest's output files: the runtime from `runtimeImport`, siblings with `importExtension`. */
import type { UserModel } from "../../manifest/user-model.ts";
import { createPrinter, type Printer } from "../printer.ts";
import { sibling } from "../runtime-symbols.ts";

export function createUserPrinter(model: UserModel): Printer {
  // The runtime's core entry re-exports every symbol a manifest's files use (the zod helpers too), but the
  // extensions' (Tasks, MCP Apps, Skills), each on its own entry.
  return createPrinter({
    runtime: (entry) =>
      entry === "tasks" || entry === "apps" || entry === "skills"
        ? `${model.runtimeImport}/${entry}`
        : model.runtimeImport,
    siblingExtension: model.importExtension,
  });
}

/** The sibling files of a manifest's output, as the namespaces the generated code refers to them by. */
export const T = sibling("T", "types");
export const S = sibling("S", "schemas");
export const D = sibling("D", "definitions");
export const V = sibling("V", "views");
export const K = sibling("K", "skills");

/**
 * The runtime's entry of a built-in revision: `<runtimeImport>/protocol/<name>` (`@mcp-gen/runtime/protocol/2025-11-25`),
 * a subpath export of the runtime package, so bundles keep only the revisions named.
 */
export function builtinRevisionSpecifier(model: UserModel, name: string): string {
  return `${model.runtimeImport}/protocol/${name}`;
}
