/**
 * The yargs definitions of every `mcp-gen` command: names, options and help only. Each handler imports its command's
 * implementation when it runs, so `--help` and every command load just what they use (ts-morph, prettier and the
 * runtime are not loaded at startup).
 */
import type { Argv, CommandModule } from "yargs";
import {
  DEFAULT_IMPORT_EXTENSION,
  DEFAULT_MANIFEST,
  DEFAULT_RUNTIME_IMPORT,
  IMPORT_EXTENSIONS,
} from "../manifest/defaults.ts";
import type { CheckLiveArgs } from "./check-live.ts";
import type { DiffArgs } from "./diff.ts";
import type { GenerateArgs } from "./generate.ts";
import type { ImportArgs } from "./import.ts";
import type { ImportConfigOptions } from "./import-config.ts";

/** `mcp-gen import`'s options: one server (`--command`/`--url`), or a host config's servers (`--config`). */
type ImportCommandArgs = Omit<ImportArgs, "out"> & ImportConfigOptions & { readonly out?: string };
import type { InitArgs } from "./init.ts";
import type { ProtocolArgs } from "./protocol.ts";

/** The `--runtime-import` option of the commands that write a manifest (`init`, `import`) or bindings (`protocol`). */
const RUNTIME_IMPORT_OPTION = {
  type: "string",
  default: DEFAULT_RUNTIME_IMPORT,
  describe: "Module specifier generated code imports the runtime from",
} as const;

/** `--import-extension`: `.js` (default), `.ts` or "" (none). */
const IMPORT_EXTENSION_OPTION = {
  type: "string",
  choices: IMPORT_EXTENSIONS,
  describe: 'Extension of relative imports between generated files: ".js", ".ts" or "" (none)',
} as const;

export const protocolCommand: CommandModule<object, ProtocolArgs> = {
  command: "protocol",
  describe: "Generate protocol types, zod schemas and the method table from an MCP schema.ts",
  builder: (yargs: Argv) =>
    yargs
      .option("schema", { type: "string", describe: "Path to the revision's schema.ts (or use --spec)" })
      .option("spec", {
        type: "string",
        describe:
          "Download the specification's schema.ts instead: <revision>[@commit] or draft[@commit] (pinned revisions are verified by sha256)",
      })
      .option("sha256", { type: "string", describe: "With --spec: the sha256 the downloaded schema.ts must have" })
      .option("revision", {
        type: "string",
        describe: "Revision name, recorded as PROTOCOL_REVISION (default with --spec: the spec's folder name)",
      })
      .option("out", { type: "string", demandOption: true, describe: "Output directory" })
      .option("import-extension", { ...IMPORT_EXTENSION_OPTION, default: DEFAULT_IMPORT_EXTENSION })
      .option("runtime-import", RUNTIME_IMPORT_OPTION)
      .option("extension-id", {
        type: "string",
        describe:
          "An extension schema's identifier (e.g. io.modelcontextprotocol/tasks): adds its descriptor, extension.ts",
      })
      .option("base", {
        type: "string",
        array: true,
        describe:
          "An extension schema: the revision it builds on, a built-in revision's name or a mcp-gen protocol folder (repeatable; the built-in revisions are always tried). The bindings import the first whose types the extension's imports match instead of copying them; imports of a package name (@modelcontextprotocol/client) stand for the first --base",
      })
      .check((args) => {
        if ((args.schema === undefined) === (args.spec === undefined))
          throw new globalThis.Error("give exactly one of --schema <schema.ts> and --spec <revision>[@commit]");
        if (args.schema !== undefined && args.revision === undefined)
          throw new globalThis.Error("--revision <name> is required with --schema");
        return true;
      }) as Argv<ProtocolArgs>,
  handler: async (args) => {
    const { runProtocol } = await import("./protocol.ts");
    await runProtocol(args);
  },
};

export const generateCommand: CommandModule<object, GenerateArgs> = {
  command: "generate",
  describe: "Generate typed tool types, validators, a server stub and a client from a manifest",
  builder: (yargs: Argv) =>
    yargs
      .option("manifest", {
        alias: "m",
        type: "string",
        default: DEFAULT_MANIFEST,
        describe: "Manifest file (YAML or JSON)",
      })
      .option("out", {
        alias: "o",
        type: "string",
        describe: "Output folder (default: the manifest's generate.out, else ./generated next to it)",
      })
      .option("import-extension", {
        ...IMPORT_EXTENSION_OPTION,
        describe: 'Extension of relative imports between generated files (default: the manifest\'s, else ".js")',
      })
      .option("check", {
        type: "boolean",
        default: false,
        describe: "Write nothing; exit 1 naming stale, missing or extra files",
      })
      .option("watch", {
        alias: "w",
        type: "boolean",
        default: false,
        describe: "Regenerate whenever the manifest changes",
      })
      .check((args) => {
        if (args.check && args.watch) throw new globalThis.Error("--check and --watch cannot be combined");
        return true;
      }) as Argv<GenerateArgs>,
  handler: async (args) => {
    const [{ runGenerate }, { watchManifest }] = await Promise.all([
      import("../pipeline/run-generate.ts"),
      import("./generate.ts"),
    ]);
    if (args.watch) return watchManifest(args);
    process.exitCode = await runGenerate(args);
  },
};

export const initCommand: CommandModule<object, InitArgs> = {
  command: "init",
  describe:
    "Make a project that runs: mcp.yaml, handlers, stdio and HTTP entries, tsconfig, npm scripts, generated code (never overwrites)",
  builder: (yargs: Argv) =>
    yargs
      .option("dir", { type: "string", default: ".", describe: "Project folder to scaffold into" })
      .option("name", { type: "string", describe: "Server name (default: package.json's name, else the folder's)" })
      .option("runtime-import", RUNTIME_IMPORT_OPTION)
      .option("import-extension", {
        ...IMPORT_EXTENSION_OPTION,
        default: DEFAULT_IMPORT_EXTENSION,
      }) as unknown as Argv<InitArgs>,
  handler: async (args) => {
    const [{ runInit }, { stdio }] = await Promise.all([import("./init.ts"), import("../pipeline/run-generate.ts")]);
    process.exitCode = await runInit(args, stdio);
  },
};

export const importCommand: CommandModule<object, ImportCommandArgs> = {
  command: "import",
  describe:
    "Write a manifest from a running MCP server (stdio command or HTTP URL), or a typed client for every server of a host config (--config)",
  builder: (yargs: Argv) =>
    yargs
      .option("command", { alias: "c", type: "string", describe: 'Server command line, e.g. "npx -y some-mcp-server"' })
      .option("url", { alias: "u", type: "string", describe: "Streamable HTTP endpoint of the server" })
      .option("config", {
        type: "string",
        describe:
          "Host config listing servers (.mcp.json, claude_desktop_config.json, .cursor/mcp.json, .vscode/mcp.json): imports each, generates its typed client, pins its contract",
      })
      .option("server", {
        type: "string",
        array: true,
        describe: "With --config: only this server of the config (repeatable)",
      })
      .option("timeout", {
        type: "number",
        default: 30_000,
        describe: "With --config: ms to wait for each server to start and answer",
      })
      .option("out", {
        alias: "o",
        type: "string",
        describe:
          "Manifest to write (.yaml or .json; default mcp.yaml), or with --config the folder (default mcp-servers)",
      })
      .option("header", {
        alias: "H",
        type: "string",
        array: true,
        describe: 'HTTP request header "Name: value" (repeatable; --url only), e.g. an Authorization header',
      })
      .option("revision", { type: "string", describe: "Protocol revision to speak (default: the newest both support)" })
      .option("capabilities", {
        type: "string",
        describe: 'Client capabilities to declare, as JSON, e.g. \'{"sampling":{},"elicitation":{}}\'',
      })
      .option("runtime-import", RUNTIME_IMPORT_OPTION) as unknown as Argv<ImportCommandArgs>,
  handler: async (args) => {
    const { stdio } = await import("../pipeline/run-generate.ts");
    if (args.config !== undefined) {
      const { runImportConfigCommand } = await import("./import-config.ts");
      process.exitCode = await runImportConfigCommand(args, stdio);
      return;
    }
    const { runImport } = await import("./import.ts");
    process.exitCode = await runImport({ ...args, out: args.out ?? "mcp.yaml" }, stdio);
  },
};

export const diffCommand: CommandModule<object, DiffArgs> = {
  command: "diff [from] [to]",
  describe:
    "What changed, writing nothing: what regenerating a manifest's output would change (no arguments, or --manifest), or between two revisions or two manifests",
  builder: (yargs: Argv) =>
    yargs
      .positional("from", {
        type: "string",
        describe: "Revision upgraded from (built-in name, protocol folder or ir.json), or a manifest",
      })
      .positional("to", { type: "string", describe: "Revision (or manifest) upgraded to" })
      .option("manifest", {
        alias: "m",
        type: "string",
        describe: `Manifest whose generated output is compared with what it generates now (default: ${DEFAULT_MANIFEST})`,
      })
      .option("out", {
        alias: "o",
        type: "string",
        describe: "Its output folder (default: the manifest's generate.out, else ./generated next to it)",
      })
      .option("json", {
        type: "boolean",
        default: false,
        describe:
          "Print JSON (schemas: generator/diff/diff.schema.json for revisions, manifest-diff.schema.json for manifests)",
      })
      .example("$0 diff", "what `mcp-gen generate` would change in the output of ./mcp.yaml")
      .example("$0 diff -m api/mcp.yaml --json", "the same for another manifest, as JSON")
      .example("$0 diff 2025-11-25 2026-07-28", "what changed between two built-in revisions")
      .example("$0 diff old/mcp.yaml mcp.yaml", "between two manifests, as each would generate now")
      .check((args) => {
        const positionals = [args["from"], args["to"]].filter((a) => a !== undefined).length;
        if (positionals === 1) throw new globalThis.Error("Name two revisions or two manifests to compare, or none");
        if (positionals === 2 && (args["manifest"] !== undefined || args["out"] !== undefined))
          throw new globalThis.Error(
            "--manifest and --out compare a manifest's own output: give them without positionals",
          );
        return true;
      }) as unknown as Argv<DiffArgs>,
  handler: async (args) => {
    const { runDiffCommand } = await import("./diff.ts");
    process.exitCode = await runDiffCommand(args);
  },
};

export const checkCommand: CommandModule<object, CheckLiveArgs> = {
  command: "check",
  describe:
    "Compare what the servers of an `import --config` serve now with their pinned contracts (--live): breaking, descriptive, additive",
  builder: (yargs: Argv) =>
    yargs
      .option("live", { type: "boolean", default: false, describe: "Connect to the servers (required)" })
      .option("lock", {
        type: "string",
        default: "mcp-servers/mcp.lock.json",
        describe: "The pins written by `mcp-gen import --config`",
      })
      .option("config", { type: "string", describe: "Host config to start the servers from (default: the lock's)" })
      .option("server", { type: "string", array: true, describe: "Only this server (repeatable)" })
      .option("format", {
        type: "string",
        choices: ["text", "json", "sarif"] as const,
        default: "text" as const,
        describe: "Report format: text, JSON, or SARIF 2.1.0 for code scanning",
      })
      .option("output", { type: "string", describe: "Write the report to this file instead of stdout" })
      .option("update", {
        type: "boolean",
        default: false,
        describe: "Accept what the servers serve now: rewrite their manifests, typed clients and pins",
      })
      .option("timeout", { type: "number", default: 30_000, describe: "ms to wait for each server" })
      .example("$0 check --live", "exit 0 when every pinned server serves what was pinned")
      .example("$0 check --live --format sarif --output mcp.sarif", "a SARIF file for code scanning")
      .example("$0 check --live --update", "accept the changes") as unknown as Argv<CheckLiveArgs>,
  handler: async (args) => {
    const [{ runCheckLive }, { stdio }] = await Promise.all([
      import("./check-live.ts"),
      import("../pipeline/run-generate.ts"),
    ]);
    process.exitCode = await runCheckLive(args, stdio);
  },
};
