/**
 * `mcp-gen init [--dir .] [--name my-server]`: scaffolds `mcp.yaml`, a runnable `server.ts` implementing it, and the
 * generated stub. Never overwrites: an existing file is an error (exit 1) and nothing is written.
 */
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { stringify } from "yaml";
import { writeFilesAtomically } from "../manifest/write-atomic.ts";
import { runGenerate, type CommandIo } from "./generate.ts";

export interface InitArgs {
  readonly dir: string;
  readonly name: string;
  readonly runtimeImport: string;
}

function manifestText(args: InitArgs): string {
  const manifest = {
    server: { name: args.name, version: "0.1.0", instructions: "Greets people." },
    tools: [
      {
        name: "greet",
        description: "Says hello.",
        inputSchema: {
          type: "object",
          properties: { name: { type: "string", minLength: 1, description: "Who to greet" } },
          required: ["name"],
          additionalProperties: false,
        },
        outputSchema: {
          type: "object",
          properties: { greeting: { type: "string" } },
          required: ["greeting"],
        },
      },
    ],
    generate: { out: "generated", runtimeImport: args.runtimeImport },
  };
  return `# mcp-gen manifest: run \`mcp-gen generate\` after every change.\n${stringify(manifest)}`;
}

function serverText(runtimeImport: string): string {
  // The entry point sits next to the manifest, one level above the generated folder.
  const fromEntry = runtimeImport.startsWith("../") ? runtimeImport.slice(3) : runtimeImport;
  return `/** Server entry point: \`npx tsx server.ts\` (stdio). Implement the handlers the generated stub asks for. */
import { StdioServerTransport } from ${JSON.stringify(fromEntry)};
import { createServer, type ServerHandlers } from "./generated/index.ts";

const handlers: ServerHandlers = {
  tools: {
    greet: ({ name }) => ({ structuredContent: { greeting: \`Hello, \${name}!\` } }),
  },
};

await createServer(handlers).connect(new StdioServerTransport());
`;
}

export async function runInit(args: InitArgs, io: CommandIo): Promise<number> {
  const files = [
    { path: "mcp.yaml", content: manifestText(args) },
    { path: "server.ts", content: serverText(args.runtimeImport) },
  ];
  const existing = files.filter((f) => existsSync(path.join(args.dir, f.path)));
  if (existing.length > 0) {
    io.err(
      `mcp-gen: ${existing.map((f) => path.join(args.dir, f.path)).join(", ")} already exists; init writes nothing`,
    );
    return 1;
  }
  await mkdir(args.dir, { recursive: true });
  await writeFilesAtomically(args.dir, files);
  io.out(`mcp-gen: wrote ${files.map((f) => path.join(args.dir, f.path)).join(", ")}`);
  return runGenerate({ manifest: path.join(args.dir, "mcp.yaml"), check: false }, io);
}
