/**
 * An extension model, once its base is decided (`diff/base-match.ts`): with a base revision, the declarations copied
 * from the imported modules leave the model (the bindings import the base revision's instead) and references to the
 * imported names stay, resolved by `extension.base`; without one, the model keeps its copies. Pure.
 */
import type { IrBaseRevision, IrModel } from "../ir/model.ts";
import { validateModel } from "../ir/validate.ts";

export interface BaseDecision {
  readonly base?: IrBaseRevision;
  readonly versions: readonly string[];
}

export function referenceBase(model: IrModel, decision: BaseDecision): IrModel {
  const extension = model.extension;
  if (!extension) return model;
  const { base, versions } = decision;
  if (!base) return { ...model, extension: { ...extension, versions } };
  const own = model.types.filter((t) => t.location?.file === model.source.path);
  const ownNames = new Set(own.map((t) => t.name));
  const { inputRequiredResult, ...protocol } = model.protocol;
  const referenced: IrModel = {
    ...model,
    types: own,
    // The multi round-trip result is the base revision's, not a declaration of the extension.
    protocol: inputRequiredResult !== undefined && ownNames.has(inputRequiredResult) ? model.protocol : protocol,
    extension: { ...extension, versions, base },
  };
  validateModel(referenced);
  return referenced;
}
