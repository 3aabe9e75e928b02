/**
 * The read stage of a manifest's recorded surface (`.mcp-gen.json` `surface`, compared by `mcp-gen diff`): the IR of
 * every revision the generated server speaks — a built-in's committed ir.json, a bindings folder's own.
 */
import path from "node:path";
import { builtinIrPath, loadModel } from "../diff/load.ts";
import { GeneratorError } from "../ir/errors.ts";
import type { IrModel } from "../ir/model.ts";
import { manifestSurface, type SurfaceRevision } from "../diff/surface.ts";
import type { ManifestSurface } from "../diff/surface-model.ts";
import type { UserModel } from "../manifest/user-model.ts";
import { knownRevisions } from "./known-revisions.ts";

/** The surface of `model`, lowered from the manifest in `manifestDir`. */
export function surfaceOf(model: UserModel, manifestDir: string): ManifestSurface {
  return manifestSurface(model, revisionsOf(model, manifestDir));
}

function revisionsOf(model: UserModel, manifestDir: string): SurfaceRevision[] {
  const listed = model.server.revisions ?? knownRevisions().map((name) => ({ kind: "builtin" as const, name }));
  const revisions: SurfaceRevision[] = [];
  for (const revision of listed) {
    if (revision.kind === "bindings") {
      const file = path.resolve(manifestDir, revision.folder, "ir.json");
      // Bindings an earlier mcp-gen wrote may fail today's IR checks: they still generate, unrecorded.
      const model = loadRecordable(file);
      if (model) revisions.push({ model, bindings: revision.folder });
      continue;
    }
    // A CLI without the built-in IRs beside it (a partial install) records the revisions it can read.
    const file = builtinIrPath(revision.name);
    if (file !== undefined) revisions.push({ model: loadModel(file) });
  }
  return revisions;
}

function loadRecordable(file: string): IrModel | undefined {
  try {
    return loadModel(file);
  } catch (error) {
    if (error instanceof GeneratorError) return undefined;
    throw error;
  }
}
