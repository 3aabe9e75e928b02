/**
 * `mcp-gen protocol (--schema <schema.ts> | --spec <revision>[@commit]) [--revision <name>] [--runtime-import <package>]
 * --out <dir>`: protocol bindings for one revision, importing the runtime from the package `--runtime-import` names. Headers, `ir.json` and error messages name the schema relative to the working directory
 * (a `--spec` download: relative to the spec's `schema/` folder, `2025-11-25/schema.ts`), so the output is the same
 * wherever the CLI is installed. The output folder follows `generate --out`'s rules: a record of the files written
 * (`.mcp-gen.json`), and a folder holding anything else is refused before anything is written.
 */
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DEFAULT_IMPORT_EXTENSION, DEFAULT_RUNTIME_IMPORT } from "../manifest/defaults.ts";
import { outputRecord, refuseOutputFolderEarly, writeOutputFolder } from "../pipeline/output-folder.ts";
import { displayPath, generateProtocol, packageRuntime } from "../pipeline/protocol.ts";
import { baseBindings } from "../pipeline/known-revisions.ts";
import { fetchSpecSchema } from "../pipeline/spec-source.ts";

export interface ProtocolArgs {
  readonly schema?: string;
  readonly spec?: string;
  readonly sha256?: string;
  readonly revision?: string;
  readonly out: string;
  readonly "extension-id"?: string;
  readonly "import-extension"?: string;
  readonly "runtime-import"?: string;
  readonly base?: readonly string[];
}

/** `{vendor-prefix}/{extension-name}` (extensions/overview.mdx: the rules of `_meta` keys, prefix mandatory). */
const EXTENSION_ID =
  /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\/[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

/** The schema to read: a file of the user's (named relative to the working directory) or a verified download. */
interface SchemaInput {
  readonly schemaPath: string;
  readonly displayRoot: string;
  readonly revision: string;
  readonly cleanup: () => Promise<void>;
}

async function schemaInput(args: ProtocolArgs): Promise<SchemaInput> {
  if ((args.schema === undefined) === (args.spec === undefined))
    throw new Error("give the schema either as --schema <schema.ts> or as --spec <revision>[@commit]");
  if (args.schema !== undefined) {
    if (args.revision === undefined) throw new Error("--revision <name> is required with --schema");
    if (args.sha256 !== undefined) throw new Error("--sha256 checks a --spec download; it does not apply to --schema");
    return { schemaPath: args.schema, displayRoot: process.cwd(), revision: args.revision, cleanup: async () => {} };
  }
  const fetched = await fetchSpecSchema(args.spec!, args.sha256 !== undefined ? { sha256: args.sha256 } : {});
  const shown = `${fetched.name}/schema.ts at ${fetched.commit.slice(0, 12)}`;
  if (fetched.verified === "unverified") {
    process.stderr.write(
      `mcp-gen: warning: ${shown} is not pinned by this mcp-gen: its content is UNVERIFIED ` +
        `(sha256 ${fetched.sha256}; pass --sha256 <hex> to require a known content)\n`,
    );
  } else {
    process.stdout.write(`mcp-gen: ${shown} verified (sha256 ${fetched.sha256}, ${fetched.verified})\n`);
  }
  const root = await mkdtemp(path.join(os.tmpdir(), "mcp-gen-spec-"));
  const schemaPath = path.join(root, fetched.name, "schema.ts");
  await mkdir(path.dirname(schemaPath));
  await writeFile(schemaPath, fetched.data);
  return {
    schemaPath,
    displayRoot: root,
    revision: args.revision ?? fetched.name,
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

export async function runProtocol(args: ProtocolArgs): Promise<void> {
  const extensionId = args["extension-id"];
  if (extensionId !== undefined && !EXTENSION_ID.test(extensionId)) {
    throw new Error(
      `--extension-id ${JSON.stringify(extensionId)} is not {vendor-prefix}/{name}, e.g. com.example/notes`,
    );
  }
  const runtimeImport = args["runtime-import"] ?? DEFAULT_RUNTIME_IMPORT;
  const input = await schemaInput(args);
  try {
    const outDir = path.resolve(args.out);
    // A wrong --out fails before the work of generating (the record names the schema by the model's display path).
    await refuseOutputFolderEarly(outDir, displayPath(input.schemaPath, input.displayRoot));
    const importExtension = args["import-extension"] ?? DEFAULT_IMPORT_EXTENSION;
    const bases = baseBindings(args.base ?? [], outDir, importExtension);
    const { model, files, warnings } = await generateProtocol({
      schemaPath: input.schemaPath,
      displayRoot: input.displayRoot,
      revision: input.revision,
      importExtension,
      runtime: packageRuntime(runtimeImport),
      ...(extensionId !== undefined ? { extensionId } : {}),
      bases,
      // The first --base is also the revision package-name imports stand for.
      ...(args.base !== undefined && args.base.length > 0 ? { packageBase: bases[0]! } : {}),
    });
    for (const warning of warnings) process.stderr.write(`mcp-gen: warning: ${warning}\n`);
    // Owned as a manifest's output is: the record names the schema as the headers do, and lists every file.
    await writeOutputFolder(outDir, [...files, outputRecord(model.source.path, model.source.sha256, files)]);
    process.stdout.write(`mcp-gen: wrote ${files.length} files to ${args.out}\n`);
  } finally {
    await input.cleanup();
  }
}
