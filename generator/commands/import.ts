/**
 * `mcp-gen import (--command "<cmd> <args…>" | --url <url>) --out <manifest>`: connects to a running server, reads
 * its tools, resources, resource templates and prompts, and writes a manifest (YAML, or JSON for `.json`), so any
 * existing server gets a typed client with `mcp-gen generate`. The manifest is validated before it is written.
 */
import path from "node:path";
import { stringify } from "yaml";
import { builtinRevisions, McpClient, type Transport } from "@mcp-gen/runtime";
import { StdioClientTransport } from "@mcp-gen/runtime/node";
import { StreamableHttpClientTransport } from "@mcp-gen/runtime/http";
import { formatPath, ManifestError, type ManifestPath } from "../manifest/errors.ts";
import { parseManifest } from "../manifest/load-manifest.ts";
import { knownRevisions } from "../pipeline/known-revisions.ts";
import { writeFileAtomically } from "../pipeline/write.ts";
import { hiddenNotes, printable, readServer } from "../consumer/read-server.ts";
import type { CommandIo } from "../pipeline/run-generate.ts";
import { parseImportOptions, type ImportOptions } from "./import-options.ts";

export interface ImportArgs {
  readonly command?: string;
  readonly url?: string;
  readonly out: string;
  readonly runtimeImport: string;
  /** `Name: value` request headers (HTTP only), repeatable. */
  readonly header?: readonly string[];
  /** The one protocol revision to speak (default: the newest both sides support). */
  readonly revision?: string;
  /** Client capabilities to declare, as JSON (a server may list more to a client declaring more). */
  readonly capabilities?: string;
}

/** Splits a command line on spaces, honouring single and double quotes (no other shell syntax). */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (let m = pattern.exec(line); m !== null; m = pattern.exec(line)) {
    words.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : (m[2] ?? m[3] ?? ""));
  }
  return words;
}

/** `tool "get_weather": ` for a problem inside a listed entry (the server's name for it), else "". */
function entryOf(manifest: Record<string, unknown>, path: ManifestPath): string {
  const [list, index] = path;
  const kinds: Record<string, string> = {
    tools: "tool",
    resources: "resource",
    resourceTemplates: "resource template",
    prompts: "prompt",
  };
  const entries = typeof list === "string" && Object.hasOwn(kinds, list) ? manifest[list] : undefined;
  const entry =
    Array.isArray(entries) && typeof index === "number" ? (entries[index] as Record<string, unknown>) : undefined;
  const name = entry?.["name"] ?? entry?.["uri"];
  return typeof name === "string" ? `${kinds[list as string]} ${JSON.stringify(name)}: ` : "";
}

export async function runImport(args: ImportArgs, io: CommandIo): Promise<number> {
  if ((args.command === undefined) === (args.url === undefined)) {
    io.err("mcp-gen: import needs exactly one of --command and --url");
    return 1;
  }
  let options: ImportOptions;
  try {
    options = parseImportOptions(args);
  } catch (error) {
    io.err(`mcp-gen: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  let transport: Transport;
  if (args.command !== undefined) {
    const [command, ...rest] = splitCommandLine(args.command);
    if (!command) {
      io.err("mcp-gen: --command is empty");
      return 1;
    }
    transport = new StdioClientTransport({ command, args: rest, stderr: "ignore" });
  } else {
    transport = new StreamableHttpClientTransport(args.url!, { headers: options.headers });
  }
  const client = new McpClient({
    info: { name: "mcp-gen-import", version: "0.1.0" },
    capabilities: options.capabilities,
    // `--revision` was checked against the built-in revisions when the arguments were read.
    revisions:
      options.revision === undefined
        ? builtinRevisions
        : builtinRevisions.filter((r) => r.name === options.revision || r.version === options.revision),
  });
  let manifest: Record<string, unknown>;
  let notes: string[];
  try {
    await client.connect(transport);
    manifest = await readServer(client, args.runtimeImport);
    notes = hiddenNotes(client, options);
  } catch (error) {
    // The message may carry text from the server: printed escaped and shortened.
    io.err(`mcp-gen: cannot read the server: ${printable(error instanceof Error ? error.message : String(error))}`);
    return 1;
  } finally {
    await client.close().catch(() => undefined);
  }
  const source = args.command !== undefined ? `--command ${args.command}` : `--url ${args.url}`;
  const text = args.out.endsWith(".json")
    ? `${JSON.stringify(manifest, null, 2)}\n`
    : `# Imported by mcp-gen from ${source}\n${stringify(manifest, { lineWidth: 0 })}`;
  try {
    parseManifest(text, {
      file: args.out,
      displayPath: () => path.basename(args.out),
      knownRevisions: knownRevisions(),
    });
  } catch (error) {
    if (!(error instanceof ManifestError)) throw error;
    // Server text (names, keys, patterns) is escaped and shortened part by part, so a long path leaves the reason.
    for (const d of error.diagnostics) {
      const where = d.position ? `${error.file}:${d.position.line}:${d.position.col}` : error.file;
      const at = d.path.length > 0 ? `${printable(formatPath(d.path))}: ` : "";
      io.err(
        `mcp-gen: the server's definitions cannot be generated from: ${printable(entryOf(manifest, d.path))}${where}: ${at}${printable(d.message)}`,
      );
    }
    return 1;
  }
  await writeFileAtomically(path.resolve(args.out), text);
  const count = (key: string) => (Array.isArray(manifest[key]) ? (manifest[key] as unknown[]).length : 0);
  io.out(
    `mcp-gen: wrote ${args.out} (${count("tools")} tools, ${count("resources")} resources, ` +
      `${count("resourceTemplates")} resource templates, ${count("prompts")} prompts)`,
  );
  for (const note of notes) io.out(`mcp-gen: note: ${note}`);
  return 0;
}
