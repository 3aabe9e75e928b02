/** The `mcp-gen` command line (yargs only; commands are defined in generator/commands/definitions.ts, loaded lazily). */
import yargs from "yargs";
import { hideBin } from "yargs/helpers";
import { GeneratorError } from "./ir/errors.ts";
import { cliVersion } from "./version.ts";
import {
  checkCommand,
  diffCommand,
  generateCommand,
  importCommand,
  initCommand,
  protocolCommand,
} from "./commands/definitions.ts";

const COMMANDS = [protocolCommand, generateCommand, initCommand, importCommand, diffCommand, checkCommand].map(
  (c) => String(c.command).split(" ")[0]!,
);
const argv = hideBin(process.argv);
const parser = yargs(argv);

/** yargs' "Unknown argument(s): a, b" with the closest command or option of each (`--chek` → `--check`). */
async function withSuggestions(message: string): Promise<string> {
  const match = /^Unknown arguments?: (.+)$/.exec(message);
  if (!match?.[1]) return message;
  const { didYouMean } = await import("./manifest/suggest.ts");
  // After a failed parse, yargs' options are those of the command it recognized (plus --help, --version).
  // (getOptions is public in yargs but missing from its type declarations.)
  const known = (parser as unknown as { getOptions(): { key: Record<string, unknown> } }).getOptions().key;
  const options = Object.keys(known).filter((k) => k.length > 1);
  const hints = match[1].split(", ").map((word) => {
    const isOption = argv.some((a) => a === `--${word}` || a.startsWith(`--${word}=`) || a === `-${word}`);
    const hint = isOption
      ? didYouMean(word, options, (o) => `--${o}`)
      : didYouMean(word, COMMANDS, (c) => `"mcp-gen ${c}"`);
    return `${isOption ? `--${word}` : word}${hint}`;
  });
  return `Unknown argument${hints.length > 1 ? "s" : ""}: ${hints.join(", ")}`;
}

try {
  await parser
    .scriptName("mcp-gen")
    .version(cliVersion())
    .command(protocolCommand)
    .command(generateCommand)
    .command(initCommand)
    .command(importCommand)
    .command(diffCommand)
    .command(checkCommand)
    .demandCommand(1, "Name a command (see --help).")
    .strict()
    .fail((message, error) => {
      throw error ?? new globalThis.Error(message);
    })
    .parseAsync();
} catch (error) {
  const message = error instanceof GeneratorError || error instanceof globalThis.Error ? error.message : String(error);
  process.stderr.write(`mcp-gen: ${await withSuggestions(message)}\n`);
  process.exitCode = 1;
}
