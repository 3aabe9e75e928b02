/**
 * Compile check: the golden outputs, both examples (generated stubs plus handwritten handlers) and the type tests
 * (`@ts-expect-error` for wrong inputs, wrong outputs and missing handlers) type-check under the strict tsconfig.
 */
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");

it("generated code, examples and type tests compile (strict, exactOptionalPropertyTypes)", () => {
  let output = "";
  try {
    execFileSync(process.execPath, [TSC, "--noEmit", "-p", path.join(HERE, "tsconfig.json")], { encoding: "utf8" });
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error);
  }
  expect(output).toBe("");
}, 180_000);
