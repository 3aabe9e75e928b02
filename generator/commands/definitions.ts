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
import type { DiffArgs } from "./diff.ts";
import type { GenerateArgs } from "./generate.ts";
import type { ImportArgs } from "./import.ts";
import type { InitArgs } from "./init.ts";
import type { ProtocolArgs } from "./protocol.ts";

/** The `--runtime-import` option of the commands that write a manifest (`init`, `import`). */
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
      .option("schema", { type: "string", demandOption: true, describe: "Path to the revision's schema.ts" })
      .option("revision", {
        type: "string",
        demandOption: true,
        describe: "Revision name, recorded as PROTOCOL_REVISION",
      })
      .option("out", { type: "string", demandOption: true, describe: "Output directory" })
      .option("extension-id", {
        type: "string",
        describe:
          "An extension schema's identifier (e.g. io.modelcontextprotocol/tasks): adds its descriptor, extension.ts",
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
    const { runGenerate, watchManifest } = await import("./generate.ts");
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
      .option("name", { type: "string", default: "my-mcp-server", describe: "Server name" })
      .option("runtime-import", RUNTIME_IMPORT_OPTION)
      .option("import-extension", {
        ...IMPORT_EXTENSION_OPTION,
        default: DEFAULT_IMPORT_EXTENSION,
      }) as unknown as Argv<InitArgs>,
  handler: async (args) => {
    const [{ runInit }, { stdio }] = await Promise.all([import("./init.ts"), import("./generate.ts")]);
    process.exitCode = await runInit(args, stdio);
  },
};

export const importCommand: CommandModule<object, ImportArgs> = {
  command: "import",
  describe: "Write a manifest from a running MCP server (stdio command or HTTP URL)",
  builder: (yargs: Argv) =>
    yargs
      .option("command", { alias: "c", type: "string", describe: 'Server command line, e.g. "npx -y some-mcp-server"' })
      .option("url", { alias: "u", type: "string", describe: "Streamable HTTP endpoint of the server" })
      .option("out", {
        alias: "o",
        type: "string",
        default: "mcp.yaml",
        describe: "Manifest to write (.yaml or .json)",
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
      .option("runtime-import", RUNTIME_IMPORT_OPTION) as unknown as Argv<ImportArgs>,
  handler: async (args) => {
    const [{ runImport }, { stdio }] = await Promise.all([import("./import.ts"), import("./generate.ts")]);
    process.exitCode = await runImport(args, stdio);
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
