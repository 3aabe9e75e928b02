/** The printer of a manifest's output files: the runtime from `runtimeImport`, siblings with `importExtension`. */
import { posix } from "node:path";
import type { UserModel } from "../../manifest/user-model.ts";
import { createPrinter, type Printer } from "../printer.ts";
import { sibling } from "../runtime-symbols.ts";

export function createUserPrinter(model: UserModel): Printer {
  // The runtime's core entry re-exports every symbol a manifest's files use (the zod helpers too).
  return createPrinter({ runtime: () => model.runtimeImport, siblingExtension: model.importExtension });
}

/** The sibling files of a manifest's output, as the namespaces the generated code refers to them by. */
export const T = sibling("T", "types");
export const S = sibling("S", "schemas");
export const D = sibling("D", "definitions");

/**
 * The runtime's entry of a built-in revision: `@mcp-gen/runtime/protocol/<name>` for a package `runtimeImport`. A
 * relative or absolute one points at the runtime's sources (`…/runtime/index.ts`, as in this repository's examples), whose
 * built-in bindings are `generated/protocol/<name>/` inside that `runtime/` folder.
 */
export function builtinRevisionSpecifier(model: UserModel, name: string): string {
  const runtimeImport = model.runtimeImport;
  const isPath = runtimeImport.startsWith(".") || posix.isAbsolute(runtimeImport);
  if (!isPath) return `${runtimeImport}/protocol/${name}`;
  const runtimeDir = posix.dirname(runtimeImport);
  const file = posix.join(runtimeDir, "generated", "protocol", name, "index");
  const relative = posix.isAbsolute(file) || file.startsWith(".") ? file : `./${file}`;
  return `${relative}${posix.extname(runtimeImport)}`;
}
