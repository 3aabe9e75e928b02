/** Shared test helpers: the released revisions and their lowered models, read from ../shared/spec (never copied). */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { IrModel } from "../../generator/ir/model.ts";
import { lowerSchema } from "../../generator/lower/schema.ts";
import { displayPath } from "../../generator/pipeline/protocol.ts";
import { SPEC_ROOT } from "../../generator/scripts/generate-protocol.ts";

export const RELEASED = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] as const;
export type Released = (typeof RELEASED)[number];

export const specFile = (revision: string, file = "schema.ts") => path.join(SPEC_ROOT, revision, file);

const models = new Map<string, IrModel>();

export function specModel(revision: string): IrModel {
  let model = models.get(revision);
  if (!model) {
    const file = specFile(revision);
    model = lowerSchema({ text: readFileSync(file, "utf8"), displayPath: displayPath(file), revision });
    models.set(revision, model);
  }
  return model;
}
