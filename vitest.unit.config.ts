/**
 * `npm run test:unit`: the fast subset — module tests that start no process and open no socket (lowering, IR,
 * emitters, manifest lowering, diff, JSON-RPC framing, the protocol engine, URI templates, auth helpers, …).
 * test/unit-guard.ts makes every process and socket API throw, so a file listed here that starts a server or a
 * CLI run fails instead of passing slowly; test/unit-guard.check.ts proves the guard holds. The full suite
 * (`npm test`) runs everything, these files included. Time and layout: docs/testing.md.
 */
import { defineConfig } from "vitest/config";
import base from "./vitest.config.ts";

/** Whole folders whose tests are all pure module tests. */
const PURE_FOLDERS = [
  "test/generator/emit/user",
  "test/generator/manifest",
  "test/runtime/jsonrpc",
  "test/runtime/protocol",
];

/**
 * Pure test files in folders that also hold process or socket tests. Pure but left to the full suite for their time:
 * the whole-program TypeScript checks test/generator/emit/exactly (tsc on emitted modules, ~40 s) and
 * test/generator/ir/ir-schema (the IR's JSON Schema regenerated from its TypeScript model, ~10 s).
 */
const PURE_FILES = [
  "test/generator/consumer/config-and-pins",
  "test/generator/diff/diff-digest",
  "test/generator/diff/diff-surface",
  "test/generator/emit/emit-ir-features",
  "test/generator/emit/printer",
  "test/generator/emit/prototype-keys",
  "test/generator/golden",
  "test/generator/golden-script",
  "test/generator/lower/extension-imports",
  "test/generator/lower/extension-input-hash",
  "test/generator/lower/lower-discover",
  "test/generator/lower/lower-facts",
  "test/generator/lower/lower-imports",
  "test/generator/lower/discriminators",
  "test/generator/lower/lower-jsdoc",
  "test/generator/lower/lower-methods",
  "test/generator/lower/lower-protocol-facts",
  "test/generator/lower/lower-refused",
  "test/generator/lower/lower-syntax",
  "test/generator/lower/lower",
  "test/generator/lower/quirks",
  "test/manifest/golden",
  "test/protocol/declaration-count",
  "test/protocol/descriptor",
  "test/protocol/error-name",
  "test/protocol/examples",
  "test/protocol/fidelity",
  "test/protocol/method-type",
  "test/protocol/methods",
  "test/protocol/oracle",
  "test/revisions/core-classes",
  "test/revisions/draft-manifest",
  "test/revisions/values",
  "test/runtime/auth/bearer",
  "test/runtime/auth/jwt",
  "test/runtime/auth/oauth-client/bindings",
  "test/runtime/auth/oauth-client/discovery",
  "test/runtime/auth/oauth-client/fetch",
  "test/runtime/auth/oauth-client/flow",
  "test/runtime/auth/oauth-client/flow-clients",
  "test/runtime/auth/oauth-client/http",
  "test/runtime/auth/oauth-client/stores",
  "test/runtime/auth/principal",
  "test/runtime/client/elicitation-defaults",
  "test/runtime/client/elicitation-modes",
  "test/runtime/client/revisions",
  "test/runtime/client/typed-api",
  "test/runtime/http/header-values",
  "test/runtime/server/context",
  "test/runtime/server/elicitation-url",
  "test/runtime/server/notifications",
  "test/runtime/server/server-wire",
  "test/runtime/transport/stdio-transport-units",
  "test/runtime/units",
];

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: [
      ...PURE_FOLDERS.map((folder) => `${folder}/**/*.test.ts`),
      ...PURE_FILES.map((file) => `${file}.test.ts`),
      "test/unit-guard.check.ts",
    ],
    setupFiles: ["test/unit-guard.ts"],
    // The spec files only: the edge suite's global setup (bundles) serves no unit test.
    globalSetup: ["test/protocol/spec-setup.ts"],
    // One module cache per worker: the lowering's TypeScript and ts-morph load once, not once per file (5 min →
    // 1 min here; the same 1,016 tests passed both ways). The full suite still runs each of these files isolated.
    isolate: false,
  },
});
