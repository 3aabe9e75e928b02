/**
 * Nothing of a schema.ts is lost on the way: its exported declarations are counted with the TypeScript compiler API
 * directly (independent of generator/lower), and every one must reach the lowered model, the committed ir.json, the
 * generated types.ts / schemas.ts / constants.ts and the fidelity file — and nothing else may appear there.
 * Lowering that silently dropped a declaration (say URLElicitationRequiredError) fails here.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { RELEASED, specFile, specModel } from "./spec.ts";

interface Exported {
  /** Interfaces (merged declarations counted once) and type aliases, in first-declaration order. */
  readonly types: string[];
  /** Exported `const` variables. */
  readonly values: string[];
}

/** The exported declarations of a TypeScript file, read from its syntax tree. */
function exportedDeclarations(file: string): Exported {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  const types: string[] = [];
  const values: string[] = [];
  const exported = (node: ts.Node) =>
    ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  for (const statement of source.statements) {
    if (!exported(statement)) continue;
    if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) {
      if (!types.includes(statement.name.text)) types.push(statement.name.text);
    } else if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name)) values.push(declaration.name.text);
      }
    }
  }
  return { types, values };
}

const generatedDir = (revision: string) => path.join(import.meta.dirname, "../../runtime/generated/protocol", revision);
const sorted = (names: readonly string[]) => [...names].sort();

describe.each(RELEASED)("declarations of %s", (revision) => {
  const spec = exportedDeclarations(specFile(revision));

  it("are counted from the schema itself (a sanity floor: the spec has dozens of each)", () => {
    expect(spec.types.length).toBeGreaterThan(50);
    expect(spec.values.length).toBeGreaterThan(5);
  });

  it("all reach the lowered model, in source order, and nothing else does", () => {
    const model = specModel(revision);
    expect(model.types.map((t) => t.name)).toEqual(spec.types);
    expect(model.constants.map((c) => c.name)).toEqual(spec.values);
  });

  it("all reach the committed ir.json", () => {
    const ir = JSON.parse(readFileSync(path.join(generatedDir(revision), "ir.json"), "utf8")) as {
      types: { name: string }[];
      constants: { name: string }[];
    };
    expect(ir.types.map((t) => t.name)).toEqual(spec.types);
    expect(ir.constants.map((c) => c.name)).toEqual(spec.values);
  });

  it("all reach the generated types, schemas, constants and fidelity checks", () => {
    const types = exportedDeclarations(path.join(generatedDir(revision), "types.ts"));
    expect(sorted(types.types)).toEqual(sorted(spec.types));
    const schemas = exportedDeclarations(path.join(generatedDir(revision), "schemas.ts"));
    expect(sorted(schemas.values)).toEqual(sorted(spec.types.map((name) => `${name}Schema`)));
    const constants = exportedDeclarations(path.join(generatedDir(revision), "constants.ts"));
    expect(sorted(constants.values)).toEqual(sorted([...spec.values, "PROTOCOL_REVISION"]));
    const fidelity = readFileSync(path.join(import.meta.dirname, "fidelity", `${revision}.ts`), "utf8");
    for (const name of spec.types) expect(fidelity, name).toContain(`export function ${name}(`);
  });
});

it("URLElicitationRequiredError, the declaration issue 12 names, is counted in 2025-11-25", () => {
  expect(exportedDeclarations(specFile("2025-11-25")).types).toContain("URLElicitationRequiredError");
});
