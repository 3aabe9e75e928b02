/**
 * The runtime as the tests that type-check code against `@mcp-gen/runtime` see it: as a user's project does, through
 * the package's `exports` to runtime/dist/*.d.ts, which the suite's global setup (`setup` below) brings up to date.
 * The repository's tsconfig resolves the package to its TypeScript sources instead (the `@mcp-gen/source` condition),
 * and skipLibCheck skips only .d.ts files, so each such tsc run type-checked the whole runtime again; `npm test`'s
 * own `tsc -p tsconfig.json` checks it once.
 */
import { buildPackage } from "./built-package.ts";

/** Compiler options that switch the repository tsconfig's `@mcp-gen/source` condition off. */
export const RUNTIME_AS_INSTALLED = { customConditions: [] as string[] };

/**
 * vitest global setup: runtime/dist/ built from the current sources before any test file runs
 * (scripts/build-packages.mjs builds only when an input changed, so no test reads stale declarations).
 */
export function setup(): void {
  buildPackage("runtime");
}
