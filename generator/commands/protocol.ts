/** `mcp-gen protocol --schema <schema.ts> --revision <name> --out <dir>`: protocol bindings for one revision. */
import { generateProtocol } from "../pipeline/protocol.ts";
import { writeFiles } from "../pipeline/write.ts";

export interface ProtocolArgs {
  readonly schema: string;
  readonly revision: string;
  readonly out: string;
  readonly "extension-id"?: string;
}

/** `{vendor-prefix}/{extension-name}` (extensions/overview.mdx: the rules of `_meta` keys, prefix mandatory). */
const EXTENSION_ID =
  /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\/[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

export async function runProtocol(args: ProtocolArgs): Promise<void> {
  const extensionId = args["extension-id"];
  if (extensionId !== undefined && !EXTENSION_ID.test(extensionId)) {
    throw new Error(
      `--extension-id ${JSON.stringify(extensionId)} is not {vendor-prefix}/{name}, e.g. com.example/notes`,
    );
  }
  const { files, warnings } = await generateProtocol({
    schemaPath: args.schema,
    revision: args.revision,
    outDir: args.out,
    ...(extensionId !== undefined ? { extensionId } : {}),
  });
  for (const warning of warnings) process.stderr.write(`mcp-gen: warning: ${warning}\n`);
  await writeFiles(args.out, files);
  process.stdout.write(`mcp-gen: wrote ${files.length} files to ${args.out}\n`);
}
