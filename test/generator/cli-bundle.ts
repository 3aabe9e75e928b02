/**
 * vitest global setup: the `mcp-gen` CLI as one JavaScript build of the current sources, for the tests that run it
 * (test/generator/cli-run.ts `cli()`). bin/mcp-gen.js runs the TypeScript sources through tsx's loader, whose hooks see
 * every module the CLI loads (TypeScript, ts-morph and prettier included): a `generate` took about 2.6 s of CPU that
 * way against about 1 s as JavaScript, and the suite runs the CLI a few hundred times. esbuild is what tsx transpiles
 * with, so the build is the same code: generator/ and the runtime's sources (the `@mcp-gen/source` condition, as
 * bin/mcp-gen.js resolves them) in one bundle, every other package left as an import of the file Node would load
 * (its absolute path, so the build can live under .tmp/). The tests about bin/mcp-gen.js itself still run it.
 */
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { build, type Plugin } from "esbuild";
import type { TestProject } from "vitest/node";

const REPO = path.resolve(import.meta.dirname, "../..");
const OUT = path.join(REPO, ".tmp", `test-cli-${process.pid}`);

declare module "vitest" {
  export interface ProvidedContext {
    /** The built CLI's entry (absent where this setup did not run: bin/mcp-gen.js then). */
    mcpGenCli?: string;
  }
}

/** Packages other than the runtime stay imports, of the file esbuild resolves for them (Node's ESM conditions). */
export const dependenciesAsFiles: Plugin = {
  name: "dependencies-as-files",
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith("node:") || args.pluginData === "inner") return undefined;
      if (args.path === "@mcp-gen/runtime" || args.path.startsWith("@mcp-gen/runtime/")) return undefined;
      const resolved = await builder.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: "inner",
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      return { path: resolved.path, external: true };
    });
  },
};

export async function setup(project: TestProject): Promise<void> {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  await build({
    entryPoints: { cli: path.join(REPO, "generator/cli.ts") },
    outdir: OUT,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    conditions: ["@mcp-gen/source"],
    plugins: [dependenciesAsFiles],
    logLevel: "error",
  });
  project.provide("mcpGenCli", path.join(OUT, "cli.mjs"));
}

export function teardown(): void {
  rmSync(OUT, { recursive: true, force: true });
}
