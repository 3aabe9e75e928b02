/**
 * Which revision the project has is an extension schema's base: the declarations the extension imports (and those
 * they reference) compared, lowered and without documentation, with each candidate revision's IR. Pure: the caller
 * reads the candidates (built-in revisions, bindings the user names) and applies the answer (`lower/extension.ts`).
 */
import type { IrBaseRevision, IrModel, IrTypeDecl } from "../ir/model.ts";
import { renameRefs } from "../ir/walk.ts";
import { diffDeclaration } from "./compare.ts";

/** A revision the project has bindings of, with its lowered model. */
export interface BaseCandidate {
  readonly model: IrModel;
  readonly builtin: boolean;
}

export interface BaseMatch {
  /** The first candidate (in the order given) every imported declaration matches; absent when none does. */
  readonly base?: IrBaseRevision;
  /** The wire versions of every matching candidate; when none matches, the versions the imported modules state. */
  readonly versions: readonly string[];
  /**
   * When no candidate matches and the imported modules state a version: each declaration that differs from a
   * candidate of that version, `file:line: <name> differs from revision <r>: <what>`.
   */
  readonly problems: readonly string[];
}

/** The extension's declarations that came from its imports, under their names in the imported module. */
export function importedDeclarations(model: IrModel): IrTypeDecl[] {
  const extension = model.extension;
  if (!extension) return [];
  const original = new Map(extension.imports.flatMap((i) => i.names.map((n) => [n.local, n.name] as const)));
  const rename = (name: string) => original.get(name) ?? name;
  return model.types
    .filter((t) => t.location?.file !== model.source.path)
    .map((t) => ({ ...t, name: rename(t.name), type: renameRefs(t.type, rename), extends: t.extends.map(rename) }));
}

/** What differs between the imported declarations and `candidate`, one line each (empty: it matches). */
function differences(imported: readonly IrTypeDecl[], candidate: IrModel): string[] {
  const theirs = new Map(candidate.types.map((t) => [t.name, t]));
  const of = `revision ${candidate.revision}`;
  return imported.flatMap((decl) => {
    const at = decl.location ? `${decl.location.file}:${decl.location.line}: ` : "";
    const other = theirs.get(decl.name);
    if (!other) return [`${at}${decl.name} is not declared in ${of}`];
    // Heritage is how the source is written, not what the type is: the flattened types are compared.
    const rows = diffDeclaration(other, decl).filter((c) => c.field !== "extends");
    return rows.map(
      (c) =>
        `${at}${decl.name} differs from ${of}: ${c.field}: ${c.from ?? "(absent)"} there, ${c.to ?? "(absent)"} here`,
    );
  });
}

export function matchBase(model: IrModel, candidates: readonly BaseCandidate[]): BaseMatch {
  const extension = model.extension;
  if (!extension) return { versions: [], problems: [] };
  const stated = extension.versions;
  const considered = candidates.filter((c) => stated.length === 0 || stated.includes(c.model.protocol.version));
  const imported = importedDeclarations(model);
  const verdicts = considered.map((candidate) => ({ candidate, problems: differences(imported, candidate.model) }));
  const matching = verdicts.filter((v) => v.problems.length === 0).map((v) => v.candidate);
  const first = matching[0];
  // A module stating no version (say, a wrapper importing an extension) is no revision: copying it is no surprise.
  if (!first) return { versions: stated, problems: stated.length > 0 ? verdicts.flatMap((v) => v.problems) : [] };
  const { revision, protocol } = first.model;
  return {
    base: { revision, version: protocol.version, builtin: first.builtin },
    versions: [...new Set(matching.map((c) => c.model.protocol.version))],
    problems: [],
  };
}
