#!/usr/bin/env node
/**
 * Builds the workspace packages: `runtime` (@mcp-gen/runtime → runtime/dist/), `cli` (mcp-gen → generator/dist/,
 * plus templates/ copied next to the compiled renderer), or both in that order (the CLI's declarations of the
 * runtime come from runtime/dist/). Plain Node so it needs nothing but typescript from the workspace root.
 * Usage: node scripts/build-packages.mjs [runtime|cli]…
 */
import { execFileSync } from "node:child_process";
import { cpSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");

const targets = {
  runtime: () => {
    rmSync(path.join(ROOT, "runtime/dist"), { recursive: true, force: true });
    tsc("tsconfig.runtime.json");
  },
  cli: () => {
    rmSync(path.join(ROOT, "generator/dist"), { recursive: true, force: true });
    tsc("tsconfig.cli.json");
    cpSync(path.join(ROOT, "templates"), path.join(ROOT, "generator/dist/templates"), { recursive: true });
    // The built-in revisions' IRs, where `mcp-gen diff <revision>` looks for them (generator/diff/load.ts).
    for (const revision of readdirSync(path.join(ROOT, "generated/protocol"), { withFileTypes: true })) {
      if (!revision.isDirectory()) continue;
      const ir = path.join("generated/protocol", revision.name, "ir.json");
      cpSync(path.join(ROOT, ir), path.join(ROOT, "generator/dist", ir));
    }
  },
};

function tsc(config) {
  execFileSync(process.execPath, [TSC, "-p", path.join(ROOT, config)], { cwd: ROOT, stdio: "inherit" });
}

const requested = process.argv.slice(2);
for (const name of requested.length ? requested : Object.keys(targets)) {
  const build = targets[name];
  if (!build) {
    process.stderr.write(`build-packages: unknown target "${name}" (known: ${Object.keys(targets).join(", ")})\n`);
    process.exit(1);
  }
  build();
}
