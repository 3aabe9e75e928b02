/** `mcp-gen protocol --schema <schema.ts> --revision <name> --out <dir>`: protocol bindings for one revision. */
import { generateProtocol, writeGeneratedFiles } from "../pipeline/protocol.ts";

export interface ProtocolArgs {
  readonly schema: string;
  readonly revision: string;
  readonly out: string;
}

export async function runProtocol(args: ProtocolArgs): Promise<void> {
  const { files } = await generateProtocol({ schemaPath: args.schema, revision: args.revision, outDir: args.out });
  await writeGeneratedFiles(args.out, files);
  process.stdout.write(`mcp-gen: wrote ${files.length} files to ${args.out}\n`);
}
