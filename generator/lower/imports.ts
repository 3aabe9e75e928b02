/**
 * `import` / `import type` of relative modules in a schema.ts (extension schemas import their base revision, e.g.
 * `import type { Error as JSONRPCErrorObject, Result } from "./spec.types.js"`). The imported module is lowered like
 * any schema; the imported declarations and everything they reference are pulled into the importing model under the
 * names the importer uses (an alias renames the declaration and every reference to it, in pulled declarations too), so the output is
 * self-contained: structural copies of the base types, mutually assignable with the base's own bindings.
 */
import type { SourceFile } from "ts-morph";
import type { IrLocation, IrTypeDecl } from "../ir/model.ts";
import { GeneratorError } from "../ir/errors.ts";
import { referencedNames, renameRefs } from "../ir/walk.ts";

/** One name an import declaration brings in. */
export interface ImportedName {
  /** The name in the imported module. */
  readonly name: string;
  /** The name the importing module uses (the alias of `name as alias`, else `name`). */
  readonly local: string;
  readonly location: IrLocation;
}

export interface ModuleImport {
  /** The module specifier as written (`./spec.types.js`). */
  readonly specifier: string;
  readonly names: readonly ImportedName[];
  readonly location: IrLocation;
}

/** A relative module (`./x.js`, `../y.ts`), as opposed to a package name (`@scope/pkg`, `pkg/sub`). */
export function isRelativeSpecifier(specifier: string): boolean {
  return specifier.startsWith("./") || specifier.startsWith("../");
}

/**
 * The import declarations of a source file: named imports of relative modules (followed to their files) or of
 * packages (which the caller maps onto a base revision).
 */
export function readImports(source: SourceFile, file: string): ModuleImport[] {
  return source.getImportDeclarations().map((declaration) => {
    const location = { file, line: declaration.getStartLineNumber() };
    const specifier = declaration.getModuleSpecifierValue();
    if (declaration.getDefaultImport() || declaration.getNamespaceImport()) {
      throw new GeneratorError(`unsupported import form: import named declarations from "${specifier}"`, location);
    }
    const names = declaration.getNamedImports().map((named) => {
      const alias = named.getAliasNode()?.getText();
      const name = named.getNameNode().getText();
      return { name, local: alias ?? name, location: { file, line: named.getStartLineNumber() } };
    });
    return { specifier, names, location };
  });
}

/**
 * The declarations `imports` need from the lowered imported modules: the imported ones, renamed to their local
 * names, plus every declaration they reference (transitively), in the imported module's source order.
 */
export function pullImported(
  imports: readonly { readonly imported: ModuleImport; readonly types: readonly IrTypeDecl[] }[],
): IrTypeDecl[] {
  const pulled = new Map<string, IrTypeDecl>();
  for (const { imported, types } of imports) {
    const byName = new Map(types.map((t) => [t.name, t]));
    const rename = new Map<string, string>();
    for (const { name, local, location } of imported.names) {
      if (!byName.has(name)) {
        throw new GeneratorError(`${imported.specifier} declares no exported type ${name}`, location);
      }
      const previous = rename.get(name);
      if (previous !== undefined && previous !== local) {
        throw new GeneratorError(`${name} is imported twice, as ${previous} and ${local}`, location);
      }
      rename.set(name, local);
    }
    const needed = new Set<string>();
    const visit = (name: string): void => {
      if (needed.has(name)) return;
      needed.add(name);
      for (const ref of referencedNames(byName.get(name)!.type)) if (byName.has(ref)) visit(ref);
    };
    for (const name of rename.keys()) visit(name);
    const localName = (name: string) => rename.get(name) ?? name;
    for (const decl of types) {
      if (!needed.has(decl.name)) continue;
      const renamed: IrTypeDecl = {
        ...decl,
        name: localName(decl.name),
        type: renameRefs(decl.type, localName),
        extends: decl.extends.map(localName),
      };
      const existing = pulled.get(renamed.name);
      if (existing && existing.location?.file !== renamed.location?.file) {
        throw new GeneratorError(`${renamed.name} is imported from two modules`, imported.location);
      }
      pulled.set(renamed.name, renamed);
    }
  }
  return [...pulled.values()];
}
