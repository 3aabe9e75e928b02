/**
 * `mcp-gen import` from real servers (@modelcontextprotocol/server-everything and server-filesystem over stdio),
 * then `generate`, then a compile check of the output and calls of their tools through the generated typed client.
 */
import { execFileSync } from "node:child_process";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parse } from "yaml";
import { afterAll, describe, expect, it } from "vitest";
import { handlers as weatherHandlers } from "../../examples/weather/handlers.ts";
import { createServer as createWeatherServer } from "../../examples/weather/generated/index.ts";
import { serve } from "../../runtime/http/index.ts";
import { runGenerate, type CommandIo } from "../../generator/pipeline/run-generate.ts";
import { runImport } from "../../generator/commands/import.ts";
import { builtinRevisions, McpClient, type CallToolResult } from "../../runtime/index.ts";
import { textOf } from "../text-of.ts";
import { RUNTIME_AS_INSTALLED } from "../package/runtime-declarations.ts";
import { StdioClientTransport } from "../../runtime/node.ts";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SCRATCH = path.join(REPO, ".tmp", `manifest-import-${process.pid}`);
const require = createRequire(import.meta.url);
const TSC = require.resolve("typescript/bin/tsc");
const FS_ROOT = path.join(SCRATCH, "files");

interface Server {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
}
const SERVERS: Record<string, Server> = {
  everything: {
    name: "everything",
    command: process.execPath,
    args: [require.resolve("@modelcontextprotocol/server-everything/dist/index.js"), "stdio"],
  },
  filesystem: {
    name: "filesystem",
    command: process.execPath,
    args: [require.resolve("@modelcontextprotocol/server-filesystem/dist/index.js"), FS_ROOT],
  },
};

/** The shape of a generated client module, as far as these tests use it. */
interface GeneratedModule {
  createClient(client: McpClient): {
    tools: Record<
      string,
      (input: object) => Promise<CallToolResult | { structuredContent: unknown; result: CallToolResult }>
    >;
  };
}

const quiet: CommandIo = { out: () => undefined, err: () => undefined };

async function importAndGenerate(server: Server): Promise<string> {
  const dir = path.join(SCRATCH, server.name);
  const commandLine = [server.command, ...server.args].map((a) => JSON.stringify(a)).join(" ");
  const errors: string[] = [];
  const io: CommandIo = { out: () => undefined, err: (l) => errors.push(l) };
  expect(
    await runImport(
      { command: commandLine, out: path.join(dir, "mcp.yaml"), runtimeImport: "../../../../runtime/index.ts" },
      io,
    ),
  ).toBe(0);
  expect(await runGenerate({ manifest: path.join(dir, "mcp.yaml"), check: false }, quiet)).toBe(0);
  expect(errors).toEqual([]);
  return path.join(dir, "generated");
}

async function typedClient(server: Server, generated: string) {
  const raw = new McpClient({ revisions: builtinRevisions, info: { name: "import-e2e", version: "1.0.0" } });
  await raw.connect(new StdioClientTransport({ command: server.command, args: server.args, stderr: "ignore" }));
  const module = (await import(pathToFileURL(path.join(generated, "index.ts")).href)) as GeneratedModule;
  return { raw, client: module.createClient(raw) };
}

afterAll(async () => {
  await rm(SCRATCH, { recursive: true, force: true });
});

describe("import → generate → typed calls", () => {
  const generated: Record<string, string> = {};

  it("server-everything: echo, get-sum and the structured get-structured-content", async () => {
    generated["everything"] = await importAndGenerate(SERVERS.everything!);
    const { raw, client } = await typedClient(SERVERS.everything!, generated["everything"]);
    try {
      expect(await client.tools.echo!({ message: "hi" })).toMatchObject({
        content: [{ type: "text", text: "Echo: hi" }],
      });
      const sum = (await client.tools.getSum!({ a: 2, b: 3 })) as CallToolResult;
      expect(String(textOf(sum.content[0]))).toContain("5");
      const weather = (await client.tools.getStructuredContent!({ location: "Chicago" })) as {
        structuredContent: { temperature: unknown };
      };
      expect(typeof weather.structuredContent.temperature).toBe("number");
    } finally {
      await raw.close();
    }
  });

  it("server-filesystem: read_text_file returns its typed structured output", async () => {
    await mkdir(FS_ROOT, { recursive: true });
    await writeFile(path.join(FS_ROOT, "a.txt"), "hello file\n");
    generated["filesystem"] = await importAndGenerate(SERVERS.filesystem!);
    const { raw, client } = await typedClient(SERVERS.filesystem!, generated["filesystem"]);
    try {
      const read = (await client.tools.readTextFile!({ path: path.join(FS_ROOT, "a.txt") })) as {
        structuredContent: { content: string };
      };
      expect(read.structuredContent.content).toBe("hello file\n");
    } finally {
      await raw.close();
    }
  });

  it("the generated code of both imports compiles", async () => {
    expect(Object.keys(generated).sort()).toEqual(["everything", "filesystem"]);
    const tsconfig = path.join(SCRATCH, "tsconfig.json");
    // Against the runtime as installed (its .d.ts), as a user's project compiles the output.
    const config = {
      extends: "../../tsconfig.json",
      compilerOptions: RUNTIME_AS_INSTALLED,
      include: ["*/generated/*.ts"],
    };
    await writeFile(tsconfig, JSON.stringify(config));
    let output = "";
    try {
      execFileSync(process.execPath, [TSC, "--noEmit", "-p", tsconfig], { encoding: "utf8" });
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
    }
    expect(output).toBe("");
  }, 180_000);
});

describe("import --url (Streamable HTTP)", () => {
  it("reads the weather example served over HTTP back into an equivalent manifest", async () => {
    const running = await serve(createWeatherServer(weatherHandlers));
    const out = path.join(SCRATCH, "http", "mcp.yaml");
    try {
      const errors: string[] = [];
      const code = await runImport(
        { url: running.url, out, runtimeImport: "@mcp-gen/runtime" },
        { out: () => undefined, err: (l) => errors.push(l) },
      );
      expect(errors).toEqual([]);
      expect(code).toBe(0);
    } finally {
      await running.close();
    }
    type Listed = { name: string; inputSchema?: unknown; outputSchema?: unknown; uri?: string; uriTemplate?: string };
    const imported = parse(await readFile(out, "utf8")) as Record<string, Listed[]>;
    const original = parse(await readFile(path.join(REPO, "examples/weather/mcp.yaml"), "utf8")) as Record<
      string,
      Listed[]
    >;
    expect(
      imported["tools"]!.map(({ name, inputSchema, outputSchema }) => ({ name, inputSchema, outputSchema })),
    ).toEqual(original["tools"]!.map(({ name, inputSchema, outputSchema }) => ({ name, inputSchema, outputSchema })));
    expect(imported["resources"]!.map((r) => r.uri)).toEqual(["weather://stations"]);
    expect(imported["resourceTemplates"]!.map((t) => t.uriTemplate)).toEqual(["weather://{city}/current"]);
    expect(imported["prompts"]!.map((p) => p.name)).toEqual(["plan_trip"]);
  });
});
