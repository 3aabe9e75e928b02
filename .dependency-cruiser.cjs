/**
 * The import rules ARCHITECTURE.md draws, checked in CI (`npm run lint`): the runtime's layers import only layers
 * below them, generated bindings import only the runtime's leaf modules, the generator never reaches the runtime's
 * internals, and nothing imports in a cycle.
 */
const layer = (name, allowed) => ({
  name: `runtime-${name}-layer`,
  comment: `runtime/${name}/ may import only ${allowed.length ? allowed.join(", ") : "nothing else in the runtime"}`,
  severity: "error",
  from: { path: `^runtime/${name}/` },
  to: {
    path: "^runtime/",
    pathNot: [`^runtime/${name}/`, ...allowed.map((a) => `^${a}/`)],
  },
});

/** The generator's stages (read → lower → IR → emit → format → write): a stage never imports a later one. */
const stage = (name, forbidden) => ({
  name: `generator-${name}-stage`,
  comment: `generator/${name}/ must not import ${forbidden.join(", ")}`,
  severity: "error",
  from: { path: `^generator/${name}/` },
  to: { path: `^generator/(${forbidden.join("|")})/` },
});

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "A cycle hides which module is the lower layer, type-only imports included.",
      from: { pathNot: "^(node_modules|test|bench|scripts)/" },
      to: { circular: true },
    },
    layer("jsonrpc", []),
    layer("transport", ["runtime/jsonrpc"]),
    layer("protocol", ["runtime/jsonrpc", "runtime/transport", "runtime/generated/protocol"]),
    layer("server", ["runtime/jsonrpc", "runtime/transport", "runtime/protocol", "runtime/generated/protocol"]),
    layer("client", ["runtime/jsonrpc", "runtime/transport", "runtime/protocol", "runtime/generated/protocol"]),
    // An extension's feature builds on both sides' extension interfaces and its own generated bindings; nothing
    // generic imports it (test/runtime/extension-rooms.test.ts checks the names too).
    layer("tasks", [
      "runtime/jsonrpc",
      "runtime/transport",
      "runtime/protocol",
      "runtime/server",
      "runtime/client",
      "runtime/generated/protocol",
      "runtime/generated/extensions",
    ]),
    layer("skills", [
      "runtime/jsonrpc",
      "runtime/transport",
      "runtime/protocol",
      "runtime/server",
      "runtime/client",
      "runtime/generated/protocol",
      "runtime/generated/extensions",
    ]),
    layer("apps", [
      "runtime/jsonrpc",
      "runtime/transport",
      "runtime/protocol",
      "runtime/server",
      "runtime/client",
      "runtime/generated/protocol",
      "runtime/generated/extensions",
    ]),
    layer("auth", ["runtime/jsonrpc", "runtime/transport", "runtime/protocol"]),
    layer("http", [
      "runtime/jsonrpc",
      "runtime/transport",
      "runtime/protocol",
      "runtime/server",
      "runtime/client",
      "runtime/auth",
      "runtime/generated/protocol",
      // The shared state stores keep the Tasks extension's store beside the sessions (StateStore.tasks).
      "runtime/tasks/server",
    ]),
    stage("ir", ["lower", "manifest", "emit", "diff", "pipeline", "commands", "scripts"]),
    stage("lower", ["manifest", "emit", "diff", "pipeline", "commands", "scripts"]),
    stage("manifest", ["lower", "emit", "diff", "pipeline", "commands", "scripts"]),
    stage("emit", ["lower", "diff", "pipeline", "commands", "scripts"]),
    stage("diff", ["lower", "manifest", "pipeline", "commands", "scripts"]),
    stage("pipeline", ["commands", "consumer", "scripts"]),
    // The servers a host config lists are read, pinned and compared below the CLI; commands/ calls consumer/.
    stage("consumer", ["commands", "scripts"]),
    {
      name: "generator-cli-is-the-top",
      comment: "Only the CLI (commands/, cli.ts) imports the CLI: every stage is called by it, never calls back up.",
      severity: "error",
      from: { path: "^generator/", pathNot: "^generator/(commands/|cli\\.ts$|bin/)" },
      to: { path: "^generator/(commands/|cli\\.ts$)" },
    },
    {
      name: "generated-bindings-import-leaves-only",
      comment: "Generated protocol bindings depend on the runtime's leaf modules only, so the runtime can import them.",
      severity: "error",
      from: { path: "^runtime/generated/protocol/" },
      to: {
        path: "^runtime/",
        pathNot: ["^runtime/generated/protocol/", "^runtime/protocol/(method-type|zod-helpers)\\.ts$"],
      },
    },
    {
      name: "runtime-is-not-a-dev-tool",
      comment: "A deployed server installs the runtime only: it never imports the generator, tests or scripts.",
      severity: "error",
      from: { path: "^runtime/" },
      to: { path: "^(generator|test|bench|scripts|examples)/" },
    },
    {
      name: "generator-imports-runtime-as-package",
      comment:
        "The generator uses the runtime as any project does, through the @mcp-gen/runtime package (its exports), never by a path into runtime/: so its build holds the generator alone.",
      severity: "error",
      from: { path: "^generator/" },
      to: { path: "^runtime/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(dist|node_modules|\\.tmp|\\.stryker-tmp|reports)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "default", "types"] },
  },
};
