/**
 * How a test starts one of its TypeScript programs (a fixture server, an example's entry) as a process: the Node
 * arguments that run the test run's JavaScript build of it (test/fixture-bundle.ts, the suite's global setup), or,
 * for a program not built there or where that setup did not run, its source through tsx's loader with the runtime's
 * sources (the `@mcp-gen/source` condition). tsx is named by absolute URL, so a process started in another working
 * directory still loads it.
 */
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { inject } from "vitest";

const TSX = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const built = builtPrograms();

/** The builds the setup provided; none outside a vitest run (`npm run fuzz` starts the fuzz harness's servers too). */
function builtPrograms(): Record<string, string> {
  try {
    return inject("builtPrograms") ?? {};
  } catch {
    return {};
  }
}

/** `node` arguments that run `program` (a path to a .ts file); the program's own arguments follow them. */
export function nodeArgs(program: string): string[] {
  const file = path.resolve(program);
  const build = built[file];
  return build !== undefined ? [build] : ["--conditions=@mcp-gen/source", "--import", TSX, file];
}
