/** The `mcp-gen` command line (yargs only; each command lives in generator/commands/). */
import yargs from "yargs";
import { hideBin } from "yargs/helpers";
import { GeneratorError } from "./ir/errors.ts";
import { protocolCommand } from "./commands/protocol.ts";
import { generateCommand } from "./commands/generate.ts";
import { importCommand } from "./commands/import.ts";
import { initCommand } from "./commands/init.ts";

try {
  await yargs(hideBin(process.argv))
    .scriptName("mcp-gen")
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
