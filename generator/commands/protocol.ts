/** `mcp-gen protocol --schema <schema.ts> --revision <name> --out <dir>`: protocol bindings for one revision. */
import type { Argv, CommandModule } from "yargs";
import { generateProtocol, writeGeneratedFiles } from "../pipeline/protocol.ts";

interface ProtocolArgs {
  readonly schema: string;
  readonly revision: string;
  readonly out: string;
}

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
      .option("out", { type: "string", demandOption: true, describe: "Output directory" }) as Argv<ProtocolArgs>,
  handler: async (args) => {
    const { files } = await generateProtocol({ schemaPath: args.schema, revision: args.revision, outDir: args.out });
    await writeGeneratedFiles(args.out, files);
    process.stdout.write(`mcp-gen: wrote ${files.length} files to ${args.out}\n`);
  },
};
