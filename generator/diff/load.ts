/**
 * What `mcp-gen diff` compares: a built-in revision name (its committed `ir.json`), a generated protocol folder
 * (holding `ir.json`) or an `ir.json` file. The model is checked with the generator's own IR invariants.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { IrModel } from "../ir/model.ts";
import { GeneratorError } from "../ir/errors.ts";
import { validateModel } from "../ir/validate.ts";

/**
 * The built-in revisions' folders: `generated/protocol/` of the `@mcp-gen/runtime` package, found as Node finds the
 * package (in this repository the workspace links it to runtime/), each holding the revision's `ir.json` (shipped in
 * the package for this). The one place the generator looks for them.
 */
export function builtinProtocolDir(): string {
  const runtimePackage = createRequire(import.meta.url).resolve("@mcp-gen/runtime/package.json");
  return path.join(path.dirname(runtimePackage), "generated/protocol");
}

/** A built-in revision's ir.json by its name, if the runtime has it. */
export function builtinIrPath(name: string): string | undefined {
  const file = path.join(builtinProtocolDir(), name, "ir.json");
  return existsSync(file) ? file : undefined;
}

/** The ir.json an argument names, or a GeneratorError saying what was tried. */
export function irPathOf(arg: string, cwd = process.cwd()): string {
  const asPath = path.resolve(cwd, arg);
  if (existsSync(asPath)) {
    const file = statSync(asPath).isDirectory() ? path.join(asPath, "ir.json") : asPath;
    if (!existsSync(file))
      throw new GeneratorError(`${arg}: no ir.json in this folder (is it generated protocol output?)`);
    return file;
  }
  if (!arg.includes("/") && !arg.includes(path.sep)) {
    const file = builtinIrPath(arg);
    if (file !== undefined) return file;
  }
  throw new GeneratorError(`${arg}: not a built-in revision, a generated protocol folder or an ir.json file`);
}

export function loadModel(arg: string, cwd = process.cwd()): IrModel {
  const file = irPathOf(arg, cwd);
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new GeneratorError(`${file}: not JSON (${(error as Error).message})`);
  }
  if (!isModelShaped(data)) {
    throw new GeneratorError(`${file}: not an mcp-gen ir.json (regenerate it with this version of mcp-gen)`);
  }
  validateModel(data);
  return data;
}

/** The top-level shape of an `IrModel` (the details are checked by `validateModel`). */
function isModelShaped(data: unknown): data is IrModel {
  if (typeof data !== "object" || data === null) return false;
  const model = data as Record<string, unknown>;
  const protocol = model["protocol"] as Record<string, unknown> | undefined;
  return (
    typeof model["revision"] === "string" &&
    Array.isArray(model["types"]) &&
    Array.isArray(model["methods"]) &&
    Array.isArray(model["constants"]) &&
    typeof protocol === "object" &&
    protocol !== null &&
    typeof protocol["version"] === "string" &&
    typeof protocol["batches"] === "boolean"
  );
}
