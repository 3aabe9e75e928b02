/**
 * The read stage of a manifest's recorded surface (`.mcp-gen.json` `surface`, compared by `mcp-gen diff`): the IR of
 * every revision the generated server speaks — a built-in's committed ir.json, a bindings folder's own.
 */
import path from "node:path";
import { builtinIrPath, loadModel } from "../diff/load.ts";
import { GeneratorError } from "../ir/errors.ts";
import type { IrModel } from "../ir/model.ts";
import {
  manifestSurface,
  recordedSurface,
  revisionSurface,
  surfaceFromRecord,
  type SurfaceRevision,
} from "../diff/surface.ts";
import type { ManifestSurface, RecordedSurface } from "../diff/surface-model.ts";
import type { UserModel, UserRevision } from "../manifest/user-model.ts";
import { knownRevisions } from "./known-revisions.ts";

/** The surface of `model`, lowered from the manifest in `manifestDir`. */
export function surfaceOf(model: UserModel, manifestDir: string): ManifestSurface {
  return manifestSurface(model, revisionsOf(model, manifestDir));
}

/** The surface of `model` as its output folder's record keeps it: built-in revisions by name, their IRs unread. */
export function recordedSurfaceOf(model: UserModel, manifestDir: string): RecordedSurface {
  const listed = model.server.revisions?.flatMap((revision): (string | SurfaceRevision)[] =>
    revision.kind === "builtin" ? [revision.name] : withModel(revision, manifestDir),
  );
  return recordedSurface(model, listed);
}

/** A recorded surface, its built-in revisions as this CLI's runtime has them: what `mcp-gen diff` compares. */
export function surfaceOfRecord(recorded: RecordedSurface): ManifestSurface {
  return surfaceFromRecord(recorded, {
    names: knownRevisions().filter((name) => revisionModel({ kind: "builtin", name }, ".") !== undefined),
    revision: (name) => {
      const model = revisionModel({ kind: "builtin", name }, ".");
      return model && revisionSurface({ model });
    },
  });
}

function revisionsOf(model: UserModel, manifestDir: string): SurfaceRevision[] {
  const listed = model.server.revisions ?? knownRevisions().map((name) => ({ kind: "builtin" as const, name }));
  return listed.flatMap((revision) => withModel(revision, manifestDir));
}

/** A revision with its IR (none when it cannot be read). */
function withModel(revision: UserRevision, manifestDir: string): SurfaceRevision[] {
  const model = revisionModel(revision, manifestDir);
  if (!model) return [];
  return [revision.kind === "bindings" ? { model, bindings: revision.folder } : { model }];
}

const builtinModels = new Map<string, IrModel | undefined>();

/**
 * The IR of a revision a manifest names: a bindings folder's `ir.json` (bindings an earlier mcp-gen wrote may fail
 * today's IR checks: they still generate, unrecorded), a built-in one's (a CLI without the built-in IRs beside it, a
 * partial install, answers the ones it can read).
 */
export function revisionModel(revision: UserRevision, manifestDir: string): IrModel | undefined {
  if (revision.kind === "bindings") return loadRecordable(path.resolve(manifestDir, revision.folder, "ir.json"));
  if (!builtinModels.has(revision.name)) {
    const file = builtinIrPath(revision.name);
    builtinModels.set(revision.name, file === undefined ? undefined : loadModel(file));
  }
  return builtinModels.get(revision.name);
}

/** Every method of the built-in revisions this CLI can read: the runtime serves them itself. */
export function builtinMethods(): ReadonlySet<string> {
  const models = knownRevisions().map((name) => revisionModel({ kind: "builtin", name }, "."));
  return new Set(models.flatMap((m) => m?.methods.map((method) => method.method) ?? []));
}

function loadRecordable(file: string): IrModel | undefined {
  try {
    return loadModel(file);
  } catch (error) {
    if (error instanceof GeneratorError) return undefined;
    throw error;
  }
}
