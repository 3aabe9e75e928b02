/**
 * An extension model, once its base is decided (`diff/base-match.ts`): with a base revision, the declarations copied
 * from the imported modules leave the model (the bindings import the base revision's instead) and references to the
 * imported names stay, resolved by `extension.base`; without one, the model keeps its copies. Pure.
 */
import type { IrBaseRevision, IrExtension, IrModel } from "../ir/model.ts";
import { validateModel } from "../ir/validate.ts";
import { modelTypes, referencedNames } from "../ir/walk.ts";

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
    extension: { ...extension, imports: withInherited(model, ownNames), versions, base },
  };
  validateModel(referenced);
  return referenced;
}

/**
 * The imports, plus the base's declarations the extension's own types reach without naming them (flattening
 * `extends PaginatedRequest` brings `id: RequestId` along): they resolve in the base's bindings too, recorded under
 * the module they came from (else the first import).
 */
function withInherited(model: IrModel, ownNames: ReadonlySet<string>): IrExtension["imports"] {
  const imports = model.extension!.imports;
  const named = new Set(imports.flatMap((i) => i.names.map((n) => n.local)));
  const copied = new Map(model.types.filter((t) => !ownNames.has(t.name)).map((t) => [t.name, t]));
  const reached = new Set<string>();
  for (const { type } of modelTypes({ ...model, types: model.types.filter((t) => ownNames.has(t.name)) }))
    for (const name of referencedNames(type)) if (copied.has(name) && !named.has(name)) reached.add(name);
  if (reached.size === 0) return imports;
  const extra = new Map<number, string[]>();
  for (const name of [...reached].sort()) {
    const file = copied.get(name)!.location?.file;
    const at = Math.max(
      0,
      imports.findIndex((i) => i.module === file),
    );
    extra.set(at, [...(extra.get(at) ?? []), name]);
  }
  return imports.map((i, at) => ({
    ...i,
    names: [...i.names, ...(extra.get(at) ?? []).map((name) => ({ name, local: name }))],
  }));
}
