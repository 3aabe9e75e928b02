/**
 * The compiler options of the projects the docs tests make: a user's strict `nodenext` project (with
 * `exactOptionalPropertyTypes`, as `init` writes it), Node's types from this repository, no emit.
 */
import path from "node:path";
import { REPO } from "../generator/cli-run.ts";

export function userCompilerOptions(options: { readonly importTsExtensions: boolean }): Record<string, unknown> {
  return {
    strict: true,
    exactOptionalPropertyTypes: true,
    module: "nodenext",
    moduleResolution: "nodenext",
    target: "es2022",
    noEmit: true,
    ...(options.importTsExtensions ? { allowImportingTsExtensions: true } : {}),
    skipLibCheck: true,
    types: ["node"],
    typeRoots: [path.join(REPO, "node_modules/@types")],
  };
}
