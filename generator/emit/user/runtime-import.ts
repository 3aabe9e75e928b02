/** The one import line generated files use for the runtime. */
import type { UserModel } from "../../manifest/user-model.ts";

/**
 * `import { value, type Type } from "<runtimeImport>";` for exactly what a file uses (so projects with
 * `noUnusedLocals` compile it), `import type { … }` when it uses only types, and nothing when it uses neither.
 */
export function runtimeImportLine(model: UserModel, values: readonly string[], types: readonly string[]): string[] {
  const from = JSON.stringify(model.runtimeImport);
  if (values.length === 0) return types.length === 0 ? [] : [`import type { ${types.join(", ")} } from ${from};`];
  return [`import { ${[...values, ...types.map((t) => `type ${t}`)].join(", ")} } from ${from};`];
}

/** The specifier of a sibling generated module (`./types.js` by default; `.ts` or no extension on request). */
export function siblingImport(model: UserModel, name: string): string {
  return JSON.stringify(`./${name}${model.importExtension}`);
}
