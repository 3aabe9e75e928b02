/**
 * The CLI package's own version (`mcp-gen --version`), from the `mcp-gen` package's package.json found by
 * self-reference (generator/package.json in this repository, the installed package's otherwise). Not yargs' default,
 * which reads the package.json nearest the working directory — the user's.
 */
import { createRequire } from "node:module";

export function cliVersion(): string {
  const pkg = createRequire(import.meta.url)("mcp-gen/package.json") as { version?: unknown };
  return typeof pkg.version === "string" ? pkg.version : "unknown";
}
