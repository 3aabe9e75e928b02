/**
 * Shared test helpers: the released revisions and their lowered models, read from the spec root `.spec/` (filled and
 * verified by `npm run spec`, which vitest's global setup runs; never part of the tracked tree). Reading a spec file
 * without it fails with the set-up instruction.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { IrModel } from "../../generator/ir/model.ts";
import { lowerSchema } from "../../generator/lower/schema.ts";
import { displayPath } from "../../generator/pipeline/protocol.ts";
import { requireSpecRoot } from "../../scripts/spec-inputs.ts";

export const RELEASED = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] as const;
export type Released = (typeof RELEASED)[number];

/** A file of the spec root (`specFile("extensions/tasks", "spec.types.ts")`); throws the set-up instruction if absent. */
export const specFile = (revision: string, file = "schema.ts") => path.join(requireSpecRoot(), revision, file);

const models = new Map<string, IrModel>();

export function specModel(revision: string): IrModel {
  let model = models.get(revision);
  if (!model) {
    const file = specFile(revision);
    model = lowerSchema({
      text: readFileSync(file, "utf8"),
      displayPath: displayPath(file, requireSpecRoot()),
      revision,
    });
    models.set(revision, model);
  }
  return model;
}
