/**
 * Entry point of the reader: MCP `schema.ts` text → validated `IrModel`. The only module (with its helpers in this
 * folder) that touches ts-morph; nothing from ts-morph leaves it.
 */
import { createHash } from "node:crypto";
import { Project, ScriptTarget } from "ts-morph";
import type { IrModel } from "../ir/model.ts";
import { validateModel } from "../ir/validate.ts";
import { lowerDeclarations } from "./declarations.ts";
import { lowerMethods } from "./methods.ts";
import { markDiscriminators } from "./discriminators.ts";
import { lowerProtocolFacts } from "./protocol-facts.ts";

export interface SchemaInput {
  /** The schema.ts source text. */
  readonly text: string;
  /** Machine-independent display path used in locations, headers and ir.json. */
  readonly displayPath: string;
  /** Revision name, as given by the user (never read from the schema). */
  readonly revision: string;
}

export function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
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
  const source = project.createSourceFile("/schema.ts", input.text);
  const lowered = lowerDeclarations(source, input.displayPath);
  const types = markDiscriminators(lowered.types);
  const constants = lowered.constants;
  const warnings: string[] = [];
  const methods = lowerMethods(types, (message, at) =>
    warnings.push(at ? `${at.file}:${at.line}: ${message}` : `${input.displayPath}: ${message}`),
  );
  const facts = lowerProtocolFacts({ revision: input.revision, types, methods, constants });
  const model: IrModel = {
    revision: input.revision,
    source: { path: input.displayPath, sha256: sha256(input.text) },
    types,
    methods: facts.methods,
    constants,
    protocol: facts.protocol,
  };
  validateModel(model);
  warnings.push(...facts.warnings.map((w) => `${input.displayPath}: ${w}`));
  return { model, warnings };
}
