/**
 * vitest global setup: the TypeScript programs the tests start as processes (fixture servers and clients, the
 * examples' entries), built once per test run into JavaScript, as test/generator/cli-bundle.ts builds the CLI. Started
 * through tsx's loader, each such process spent about 1.85 s of CPU compiling the runtime's sources and its own before
 * it could answer; from the build, about 0.5 s. The build is what tsx would run: the same sources (the runtime's through
 * the `@mcp-gen/source` condition) transpiled by esbuild, every other package left as an import of the file Node would
 * load. Tests start a program with `nodeArgs` (test/fixture-run.ts), which falls back to tsx for a program not built
 * here or where this setup did not run.
 */
import { existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import type { TestProject } from "vitest/node";
import { dependenciesAsFiles } from "./generator/cli-bundle.ts";

const REPO = path.resolve(import.meta.dirname, "..");
const OUT = path.join(REPO, ".tmp", `test-programs-${process.pid}`);

declare module "vitest" {
  export interface ProvidedContext {
    /** Each built program's source (absolute path) and its build's entry (absent where this setup did not run). */
    builtPrograms?: Record<string, string>;
  }
}

/**
 * The programs started as processes, relative to the repository. A program that reads its own location
 * (`import.meta.url`: test/runtime/fixtures/stdio-parent.ts, examples/tasks/client.ts) is left out: its build would
 * live elsewhere.
 */
export const PROGRAMS = [
  "examples/everything/server.ts",
  "examples/tasks/server.ts",
  "examples/weather/server.ts",
  "test/fuzz/harness/hostile.ts",
  "test/fuzz/harness/launch.ts",
  "test/manifest/fixtures/listing-server.ts",
  "test/runtime/apps/fixtures/forecast-server.ts",
  "test/runtime/client/fixtures/odd-stdio-server.ts",
  "test/runtime/client/fixtures/sdk-v1-http-server.ts",
  "test/runtime/client/fixtures/sdk-v2-http-server.ts",
  "test/runtime/client/fixtures/slow-start-server.ts",
  "test/runtime/client/fixtures/tasks-peer.ts",
  "test/runtime/fixtures/stdio-child.ts",
  "test/runtime/fixtures/stdio-heap-server.ts",
  "test/runtime/fixtures/stdio-server.ts",
  "test/runtime/fixtures/strict-legacy-server.ts",
  "test/runtime/fixtures/v2-server.ts",
  "test/runtime/server/tasks/fixtures/tasks-server.ts",
  "test/runtime/skills/fixtures/skills-server.ts",
  "test/runtime/skills/fixtures/v2-skills-server.ts",
  "test/scale/instance.ts",
];

/** The entry name of `program` in the build: its path with `/` as `__` and without `.ts` (unique, flat). */
const entryName = (program: string) => program.replace(/\.ts$/, "").replaceAll("/", "__");

export async function setup(project: TestProject): Promise<void> {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  // A program moved or removed is started from its source by whoever still names it.
  const programs = PROGRAMS.filter((program) => existsSync(path.join(REPO, program)));
  await build({
    entryPoints: Object.fromEntries(programs.map((program) => [entryName(program), path.join(REPO, program)])),
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
  project.provide(
    "builtPrograms",
    Object.fromEntries(
      programs.map((program) => [path.join(REPO, program), path.join(OUT, `${entryName(program)}.mjs`)]),
    ),
  );
}

export function teardown(): void {
  rmSync(OUT, { recursive: true, force: true });
}
