/**
 * Entry point of the reader: MCP `schema.ts` text → validated `IrModel`. The only module (with its helpers in this
 * folder) that touches ts-morph; nothing from ts-morph leaves it.
 */
import { createHash } from "node:crypto";
import { Project, ScriptTarget, ts, type SourceFile } from "ts-morph";
import type { IrModel, IrSchemaImport } from "../ir/model.ts";
import type { ModuleImport } from "./imports.ts";
import { validateModel } from "../ir/validate.ts";
import { GeneratorError } from "../ir/errors.ts";
import { lowerDeclarations, type LoweredDeclarations } from "./declarations.ts";
import { isRelativeSpecifier, pullImported, readImports } from "./imports.ts";
import { lowerMethods } from "./methods.ts";
import { markDiscriminators } from "./discriminators.ts";
import { lowerProtocolFacts } from "./protocol-facts.ts";
import { PROTOCOL_VOCABULARY } from "./quirks.ts";

export interface SchemaInput {
  /** The schema.ts source text. */
  readonly text: string;
  /** Machine-independent display path used in locations, headers and ir.json. */
  readonly displayPath: string;
  /** Revision name, as given by the user (never read from the schema). */
  readonly revision: string;
  /**
   * Reads a module the schema imports (`./spec.types.js`, relative to the importer's display path): its text and
   * display path. Without it, a schema with imports is an error.
   */
  readonly readImport?: (
    specifier: string,
    importer: string,
  ) => { readonly text: string; readonly displayPath: string };
  /**
   * The base revision a package-name import stands for (`import type { Tool } from "@modelcontextprotocol/client"`, as
   * a package publishing an extension's types writes it): its lowered model, whose declarations the import takes.
   * Without it, a schema importing a package is an error naming the specifier.
   */
  readonly packageBase?: IrModel;
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/**
 * The hash headers and ir.json record for a lowering's inputs: a schema that imports nothing, its own sha256; one
 * that imports (an extension and its base), the sha256 of every file read — `<display path>\n<sha256>\n` per file,
 * sorted by path — so a change in an imported base changes it too.
 */
export function inputsSha256(files: ReadonlyMap<string, string>): string {
  if (files.size === 1) return sha256([...files.values()][0]!);
  const lines = [...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return sha256(lines.map(([file, text]) => `${file}\n${sha256(text)}\n`).join(""));
}

export function lowerSchema(input: SchemaInput): IrModel {
  return lowerSchemaWithWarnings(input).model;
}

/** Lowering plus the warnings it printed nothing for (the caller reports them, e.g. on stderr). */
export function lowerSchemaWithWarnings(input: SchemaInput): { model: IrModel; warnings: string[] } {
  const project = new Project({
    useInMemoryFileSystem: true,
    skipFileDependencyResolution: true,
    compilerOptions: { target: ScriptTarget.ES2022 },
  });
  // Every module lowering reads, by display path: the recorded hash covers them all (see `inputsSha256`).
  const read = new Map([[input.displayPath, input.text]]);
  const { readImport } = input;
  const recording: SchemaInput = readImport
    ? {
        ...input,
        readImport: (specifier, importer) => {
          const module = readImport(specifier, importer);
          read.set(module.displayPath, module.text);
          return module;
        },
      }
    : input;
  // A package-name import reads no file: the base revision it stands for counts by its name and source hash.
  const notePackage = (base: IrModel) => read.set(`(package base) ${base.revision}`, base.source.sha256);
  const lowered = lowerModule(project, recording, input.text, input.displayPath, [], notePackage);
  const types = markDiscriminators([...lowered.types, ...lowered.imported]);
  const constants = lowered.constants;
  const warnings: string[] = [];
  const warn = (message: string, at?: { file: string; line: number }) =>
    warnings.push(at ? `${at.file}:${at.line}: ${message}` : `${input.displayPath}: ${message}`);
  // An extension schema (one that imports its base) declares messages outside any direction union: its own.
  const extension = lowered.imported.length > 0;
  const methods = lowerMethods(types, warn, extension ? new Set(lowered.types.map((t) => t.name)) : undefined);
  warnings.push(...lowered.irregular);
  const facts = lowerProtocolFacts({ revision: input.revision, types, methods, constants, extension });
  const model: IrModel = {
    revision: input.revision,
    source: { path: input.displayPath, sha256: inputsSha256(read) },
    types,
    methods: facts.methods,
    constants,
    protocol: facts.protocol,
    ...(extension ? { extension: copiedBase(lowered.modules) } : {}),
  };
  validateModel(model);
  warnings.push(...facts.warnings.map((w) => `${input.displayPath}: ${w}`));
  return { model, warnings };
}

/**
 * An extension as lowered from its schema alone: the imported declarations are copied into the model (a revision the
 * project has may replace them later, `lower/extension.ts`), and it extends the version its imported modules state.
 */
function copiedBase(imports: readonly IrSchemaImport[]): IrModel["extension"] & object {
  const versions = [...new Set(imports.flatMap((i) => (i.version !== undefined ? [i.version] : [])))];
  return { imports, versions };
}

/** One module's declarations plus the declarations it pulls in from the modules it imports (recursively). */
function lowerModule(
  project: Project,
  input: SchemaInput,
  text: string,
  displayPath: string,
  importers: readonly string[],
  notePackage: (base: IrModel) => void,
): LoweredDeclarations & { readonly imported: LoweredDeclarations["types"]; readonly modules: IrSchemaImport[] } {
  const source = project.createSourceFile(`/${importers.length}-${encodeURIComponent(displayPath)}`, text, {
    overwrite: true,
  });
  const syntax = syntaxError(source, displayPath);
  if (syntax) throw syntax;
  const imports = readImports(source, displayPath).map((imported) => {
    if (!isRelativeSpecifier(imported.specifier)) return packageImport(input, imported, notePackage);
    if (!input.readImport) {
      throw new GeneratorError(`cannot follow the import of "${imported.specifier}" here`, imported.location);
    }
    let module: { readonly text: string; readonly displayPath: string };
    try {
      module = input.readImport(imported.specifier, displayPath);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new GeneratorError(`cannot read the import "${imported.specifier}": ${why}`, imported.location);
    }
    if (importers.includes(module.displayPath) || module.displayPath === displayPath) {
      throw new GeneratorError(`circular import of ${module.displayPath}`, imported.location);
    }
    const lowered = lowerModule(
      project,
      input,
      module.text,
      module.displayPath,
      [...importers, displayPath],
      notePackage,
    );
    const version = lowered.constants.find((c) => c.name === PROTOCOL_VOCABULARY.versionConstant)?.value;
    const recorded: IrSchemaImport = {
      module: module.displayPath,
      ...(typeof version === "string" ? { version } : {}),
      names: imported.names.map(({ name, local }) => ({ name, local })),
    };
    return { imported, types: [...lowered.types, ...lowered.imported], recorded };
  });
  const pulled = pullImported(imports);
  const declarations = lowerDeclarations(source, displayPath, pulled);
  return {
    ...declarations,
    // An imported module's irregular declarations are its own: reported where it is lowered as a schema.
    irregular: importers.length === 0 ? declarations.irregular : [],
    imported: pulled,
    modules: imports.map((i) => i.recorded),
  };
}

/** A package-name import, taken from the base revision the caller maps package names onto. */
function packageImport(input: SchemaInput, imported: ModuleImport, notePackage: (base: IrModel) => void) {
  const base = input.packageBase;
  if (!base) {
    throw new GeneratorError(
      `unsupported import of "${imported.specifier}": a package name, which stands for no file here; ` +
        "name the revision it stands for (mcp-gen protocol --base <revision>)",
      imported.location,
    );
  }
  notePackage(base);
  const recorded: IrSchemaImport = {
    module: imported.specifier,
    version: base.protocol.version,
    names: imported.names.map(({ name, local }) => ({ name, local })),
  };
  return { imported, types: base.types, recorded };
}

/**
 * TypeScript's own report of the first syntax error in a module (`schema.ts:5:6: error TS1110: Type expected.`), so a
 * typo is not lowered into a puzzling "unsupported statement" further on.
 */
function syntaxError(source: SourceFile, displayPath: string): GeneratorError | undefined {
  // The parser's own list, kept on the node; building a Program to ask for it costs about a second per schema.
  const parsed = (source.compilerNode as { parseDiagnostics?: readonly ts.DiagnosticWithLocation[] }).parseDiagnostics;
  const found = parsed ?? source.getProject().getProgram().compilerObject.getSyntacticDiagnostics(source.compilerNode);
  const first = found[0];
  if (!first) return undefined;
  const { line, character } = ts.getLineAndCharacterOfPosition(source.compilerNode, first.start ?? 0);
  const more = found.length > 1 ? ` (and ${found.length - 1} more syntax error${found.length > 2 ? "s" : ""})` : "";
  const message = ts.flattenDiagnosticMessageText(first.messageText, " ");
  return new GeneratorError(
    `error TS${first.code}: ${message}${more}`,
    { file: displayPath, line: line + 1 },
    character + 1,
  );
}
