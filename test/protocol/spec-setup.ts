/**
 * vitest global setup: fills `.spec/` with the pinned, verified specification files before any test runs (see
 * scripts/spec-inputs.ts). A failure is reported here and not thrown: the tests that read the spec then fail
 * each with the set-up instruction (never skip), and the others still run.
 */
import { ensureSpecInputs } from "../../scripts/spec-inputs.ts";

export default async function setup(): Promise<void> {
  try {
    await ensureSpecInputs();
  } catch (error) {
    process.stderr.write(
      `spec set-up failed: ${error instanceof Error ? error.message : String(error)}\n` +
        "tests that read the MCP specification will fail until `npm run spec` succeeds\n",
    );
  }
}
