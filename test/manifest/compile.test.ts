/**
 * Compile check: the golden outputs, both examples (generated stubs plus handwritten handlers) and the type tests
 * (`@ts-expect-error` for wrong inputs, wrong outputs and missing handlers) type-check under the strict tsconfig,
 * with `noUnusedLocals`/`noUnusedParameters` on, as many user projects have them. Unused-symbol diagnostics count
 * only in generated files (the runtime and other hand-written code are held to the repository's tsconfig).
 * Generated schemas.ts files are `// @ts-nocheck` (validators annotated with their declared types); their checked form
 * is compiled by differential.test.ts.
 */
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const UNUSED = /error TS(6133|6138|6192|6196|6198|6199|6205):/;
const GENERATED = /^(test\/manifest\/golden\/|examples\/[^/]+\/generated\/)/;

it("generated code, examples and type tests compile (strict, exactOptionalPropertyTypes, noUnusedLocals)", () => {
  let output = "";
  try {
    execFileSync(process.execPath, [TSC, "--noEmit", "--pretty", "false", "-p", path.join(HERE, "tsconfig.json")], {
      encoding: "utf8",
      cwd: path.resolve(HERE, "../.."),
    });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error);
  }
  // Everything tsc printed, except unused-symbol diagnostics outside generated files.
  const problems = output
    .split("\n")
    .filter((line) => line.trim() !== "")
    .filter((line) => !(UNUSED.test(line) && !GENERATED.test(line)));
  expect(problems).toEqual([]);
}, 180_000);
