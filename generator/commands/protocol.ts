/** `mcp-gen protocol --schema <schema.ts> --revision <name> --out <dir>`: protocol bindings for one revision. */
import { generateProtocol } from "../pipeline/protocol.ts";
import { writeFiles } from "../pipeline/write.ts";

export interface ProtocolArgs {
  readonly schema: string;
  readonly revision: string;
  readonly out: string;
}

export async function runProtocol(args: ProtocolArgs): Promise<void> {
  const { files, warnings } = await generateProtocol({
    schemaPath: args.schema,
    revision: args.revision,
    outDir: args.out,
  });
  for (const warning of warnings) process.stderr.write(`mcp-gen: warning: ${warning}\n`);
  await writeFiles(args.out, files);
  process.stdout.write(`mcp-gen: wrote ${files.length} files to ${args.out}\n`);
}
