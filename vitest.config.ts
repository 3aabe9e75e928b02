import { availableParallelism } from "node:os";
import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

// `@mcp-gen/runtime` resolves as in a user's project (the workspace links it to runtime/); the `@mcp-gen/source`
// export condition picks its TypeScript sources, so tests run the sources (the same module instances as relative
// imports of runtime/ files) without a build.
const conditions = ["@mcp-gen/source", ...defaultServerConditions];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Vitest's default is one worker less than the cores: one worker on a 2-core CI machine, so the suite ran file by
    // file while most files wait on child processes (tsc, the CLI, servers) and sockets. Two or more workers overlap
    // that waiting; the timing-sensitive tests already allow for a loaded machine.
    maxWorkers: Math.max(2, availableParallelism()),
    // test/generator/cli-bundle.ts: one JavaScript build of the CLI for the tests that run it (tsx per run cost ~2 s);
    // test/fixture-bundle.ts: the same for the programs tests start as processes; test/package/runtime-declarations.ts:
    // runtime/dist up to date, whose .d.ts the tests that type-check a user's code compile against.
    globalSetup: [
      "test/protocol/spec-setup.ts",
      "test/edge/global-setup.ts",
      "test/generator/cli-bundle.ts",
      "test/fixture-bundle.ts",
      "test/package/runtime-declarations.ts",
    ],
  },
});
