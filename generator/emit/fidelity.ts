/**
 * The fidelity check file of a revision, generated from the IR: for every declaration, one function whose body
 * type-checks only if the generated type, `z.infer` of its schema and the spec's own type are mutually assignable.
 * tsc checks these files in `npm test`; test/protocol/fidelity.test.ts checks that every declaration is covered.
 */
import type { IrModel } from "../ir/model.ts";
import { tsHeader } from "./generated-file.ts";
import { createPrinter, typeUse } from "./printer.ts";
import { relativeModule, zod } from "./runtime-symbols.ts";

/** Declarations exempt from the check, with the reason. Empty: every declaration of every revision is checked. */
export const FIDELITY_EXEMPTIONS: Readonly<Record<string, string>> = {};

export interface FidelityPaths {
  /** Import specifier of the generated revision directory, from the fidelity file. */
  readonly generated: string;
  /** Import specifier of the spec's schema.ts, from the fidelity file. */
  readonly spec: string;
}

export function emitFidelityFile(model: IrModel, paths: FidelityPaths): string {
  const f = createPrinter({ runtime: () => "", siblingExtension: ".ts" });
  const z = typeUse(zod);
  const Gen = typeUse(relativeModule("Gen", `${paths.generated}/types.ts`));
  const Schemas = typeUse(relativeModule("Schemas", `${paths.generated}/schemas.ts`));
  const Spec = typeUse(relativeModule("Spec", paths.spec));
  const covered = model.types.filter((t) => FIDELITY_EXEMPTIONS[t.name] === undefined);
  f.print("/** Declarations covered by this file, in source order. */");
  f.print(`export const covered = ${JSON.stringify(covered.map((t) => t.name))} as const;`);
  for (const { name } of covered) {
    f.print("");
    f.print(
      `export function ${name}(gen: `,
      Gen,
      `.${name}, spec: `,
      Spec,
      `.${name}, parsed: `,
      z,
      ".infer<typeof ",
      Schemas,
      `.${name}Schema>): unknown[] {`,
    );
    f.print("  const checks: unknown[] = [];");
    f.print("  { const a: ", Spec, `.${name} = gen; const b: `, Gen, `.${name} = spec; checks.push(a, b); }`);
    f.print("  { const a: ", Spec, `.${name} = parsed; const b: typeof parsed = spec; checks.push(a, b); }`);
    f.print("  { const a: ", Gen, `.${name} = parsed; const b: typeof parsed = gen; checks.push(a, b); }`);
    f.print("  return checks;");
    f.print("}");
  }
  return f.render(tsHeader(model.source.path, model.source.sha256));
}
