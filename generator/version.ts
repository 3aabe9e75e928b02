/**
 * The CLI package's own version (`mcp-gen --version`), read from the package.json of the `mcp-gen` package this file
 * belongs to: the nearest one above it named "mcp-gen" (generator/package.json in this repository, the installed
 * package's otherwise). Not yargs' default, which reads the package.json nearest the working directory — the user's.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export function cliVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const file = path.join(dir, "package.json");
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: unknown; version?: unknown };
      if (pkg.name === "mcp-gen" && typeof pkg.version === "string") return pkg.version;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return "unknown";
    dir = parent;
  }
}
