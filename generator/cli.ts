/** The `mcp-gen` command line (yargs only; commands are defined in generator/commands/definitions.ts, loaded lazily). */
import yargs from "yargs";
import { hideBin } from "yargs/helpers";
import { GeneratorError } from "./ir/errors.ts";
import { cliVersion } from "./version.ts";
import { generateCommand, importCommand, initCommand, protocolCommand } from "./commands/definitions.ts";

try {
  await yargs(hideBin(process.argv))
    .scriptName("mcp-gen")
    .version(cliVersion())
    .command(protocolCommand)
    .command(generateCommand)
    .command(initCommand)
    .command(importCommand)
    .demandCommand(1, "Name a command (see --help).")
    .strict()
    .fail((message, error) => {
      throw error ?? new globalThis.Error(message);
    })
    .parseAsync();
} catch (error) {
  const message = error instanceof GeneratorError || error instanceof globalThis.Error ? error.message : String(error);
  process.stderr.write(`mcp-gen: ${message}\n`);
  process.exitCode = 1;
}
