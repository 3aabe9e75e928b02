/**
 * The fidelity check file of a revision, generated from the IR: for every declaration, one function whose body
 * type-checks only if the generated type, `z.infer` of its schema and the spec's own type are mutually assignable.
 * tsc checks these files in `npm test`; test/protocol/fidelity.test.ts checks that every declaration is covered.
 */
import type { IrModel } from "../ir/model.ts";
import { tsHeader } from "./generated-file.ts";

/** Declarations exempt from the check, with the reason. Empty: every declaration of every revision is checked. */
export const FIDELITY_EXEMPTIONS: Readonly<Record<string, string>> = {};

export interface FidelityPaths {
  /** Import specifier of the generated revision directory, from the fidelity file. */
  readonly generated: string;
  /** Import specifier of the spec's schema.ts, from the fidelity file. */
  readonly spec: string;
}

export function emitFidelityFile(model: IrModel, paths: FidelityPaths): string {
  const checks = model.types
    .filter((t) => FIDELITY_EXEMPTIONS[t.name] === undefined)
    .map(
      (t) =>
        `export function ${t.name}(gen: Gen.${t.name}, spec: Spec.${t.name}, parsed: z.infer<typeof Schemas.${t.name}Schema>): unknown[] {\n` +
        `  const checks: unknown[] = [];\n` +
        `  { const a: Spec.${t.name} = gen; const b: Gen.${t.name} = spec; checks.push(a, b); }\n` +
        `  { const a: Spec.${t.name} = parsed; const b: typeof parsed = spec; checks.push(a, b); }\n` +
        `  { const a: Gen.${t.name} = parsed; const b: typeof parsed = gen; checks.push(a, b); }\n` +
        `  return checks;\n}\n`,
    );
  return (
    tsHeader(model.source.path, model.source.sha256) +
    `import type { z } from "zod";\n` +
    `import type * as Gen from ${JSON.stringify(`${paths.generated}/types.ts`)};\n` +
    `import type * as Schemas from ${JSON.stringify(`${paths.generated}/schemas.ts`)};\n` +
    `import type * as Spec from ${JSON.stringify(paths.spec)};\n\n` +
    `/** Declarations covered by this file, in source order. */\n` +
    `export const covered = ${JSON.stringify(model.types.filter((t) => FIDELITY_EXEMPTIONS[t.name] === undefined).map((t) => t.name))} as const;\n\n` +
    checks.join("\n")
  );
}
