/**
 * `mcp-gen import (--command "<cmd> <args…>" | --url <url>) --out <manifest>`: connects to a running server, reads
 * its tools, resources, resource templates and prompts, and writes a manifest (YAML, or JSON for `.json`), so any
 * existing server gets a typed client with `mcp-gen generate`. The manifest is validated before it is written.
 */
import path from "node:path";
import { stringify } from "yaml";
import { McpClient, StdioClientTransport, type Transport } from "@mcp-gen/runtime";
import { StreamableHttpClientTransport } from "@mcp-gen/runtime/http";
import { ManifestError } from "../manifest/errors.ts";
import { parseManifest } from "../manifest/load-manifest.ts";
import { writeFilesAtomically } from "../manifest/write-atomic.ts";
import type { CommandIo } from "./generate.ts";

export interface ImportArgs {
  readonly command?: string;
  readonly url?: string;
  readonly out: string;
  readonly runtimeImport: string;
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

/** Copies the listed keys that are present (manifest entries are strict: wire-only fields are left out). */
function pick(source: Readonly<Record<string, unknown>>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => source[k] !== undefined).map((k) => [k, source[k]]));
}

/** Reads everything the server offers into a manifest object. */
export async function readServer(client: McpClient, runtimeImport: string): Promise<Record<string, unknown>> {
  const caps = client.serverCapabilities;
  const info = client.serverInfo ?? { name: "imported-server", version: "0.0.0" };
  const server = {
    ...pick(info, ["name", "version", "title", "description", "websiteUrl", "icons"]),
    ...(client.instructions ? { instructions: client.instructions } : {}),
  };
  const tools = caps["tools"] ? await client.listAllTools() : [];
  const resources = caps["resources"] ? await client.listAllResources() : [];
  const templates = caps["resources"] ? await client.listAllResourceTemplates() : [];
  const prompts = caps["prompts"] ? await client.listAllPrompts() : [];
  const common = ["title", "description", "icons"];
  return {
    server,
    ...(tools.length
      ? { tools: tools.map((t) => pick(t, ["name", ...common, "inputSchema", "outputSchema", "annotations"])) }
      : {}),
    ...(resources.length
      ? { resources: resources.map((r) => pick(r, ["uri", "name", ...common, "mimeType", "size", "annotations"])) }
      : {}),
    ...(templates.length
      ? {
          resourceTemplates: templates.map((t) =>
            pick(t, ["uriTemplate", "name", ...common, "mimeType", "annotations"]),
          ),
        }
      : {}),
    ...(prompts.length
      ? {
          prompts: prompts.map((p) => ({
            ...pick(p, ["name", ...common]),
            ...(p.arguments
              ? { arguments: p.arguments.map((a) => pick(a, ["name", "title", "description", "required"])) }
              : {}),
          })),
        }
      : {}),
    generate: { out: "generated", runtimeImport },
  };
}

export async function runImport(args: ImportArgs, io: CommandIo): Promise<number> {
  if ((args.command === undefined) === (args.url === undefined)) {
    io.err("mcp-gen: import needs exactly one of --command and --url");
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
    transport = new StreamableHttpClientTransport(args.url!);
  }
  const client = new McpClient({ info: { name: "mcp-gen-import", version: "0.1.0" } });
  let manifest: Record<string, unknown>;
  try {
    await client.connect(transport);
    manifest = await readServer(client, args.runtimeImport);
  } catch (error) {
    io.err(`mcp-gen: cannot read the server: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await client.close().catch(() => undefined);
  }
  const source = args.command !== undefined ? `--command ${args.command}` : `--url ${args.url}`;
  const text = args.out.endsWith(".json")
    ? `${JSON.stringify(manifest, null, 2)}\n`
    : `# Imported by mcp-gen from ${source}\n${stringify(manifest, { lineWidth: 0 })}`;
  try {
    parseManifest(text, args.out, path.basename(args.out));
  } catch (error) {
    if (!(error instanceof ManifestError)) throw error;
    for (const line of error.lines()) io.err(`mcp-gen: the server's definitions cannot be generated from: ${line}`);
    return 1;
  }
  await writeFilesAtomically(path.dirname(path.resolve(args.out)), [{ path: path.basename(args.out), content: text }]);
  const count = (key: string) => (Array.isArray(manifest[key]) ? (manifest[key] as unknown[]).length : 0);
  io.out(
    `mcp-gen: wrote ${args.out} (${count("tools")} tools, ${count("resources")} resources, ` +
      `${count("resourceTemplates")} resource templates, ${count("prompts")} prompts)`,
  );
  return 0;
}
