/**
 * `mcp-gen import --config` as a user runs it: a `.mcp.json` listing server-everything over stdio and over
 * Streamable HTTP, server-filesystem, server-memory, a server that dies at start and an invalid entry. One import writes a
 * manifest, a typed client and pins per server and an index; a user program compiled under a plain nodenext
 * tsconfig calls a tool of each server through `connect(name)` with typed results; a wrong argument type fails
 * `tsc`; no planted secret of the config's env or headers appears in any written file or in the CLI's output.
 */
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, REPO, type CliRun } from "../cli-run.ts";
import { onFreePort } from "../../free-port.ts";

const require = createRequire(import.meta.url);
const TSC = require.resolve("typescript/bin/tsc");
const EVERYTHING = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");
const FILESYSTEM = require.resolve("@modelcontextprotocol/server-filesystem/dist/index.js");
const MEMORY = require.resolve("@modelcontextprotocol/server-memory/dist/index.js");
const SCRATCH = path.join(REPO, ".tmp", `consumer-import-${process.pid}`);
const run = promisify(execFile);

/** Planted secrets: literal values and values the placeholders fill in. None may be written or printed. */
const SECRETS = {
  envLiteral: "lit-env-PLANTED-a1b2c3",
  envFromEnvironment: "envtok-PLANTED-d4e5f6",
  headerLiteral: "hdr-PLANTED-g7h8i9",
  headerFromEnvironment: "httptok-PLANTED-j1k2l3",
  brokenEcho: "broken-PLANTED-m4n5o6",
};

/** Every file under `dir`, recursively. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

async function tsc(project: string): Promise<{ code: number; output: string }> {
  try {
    await run(process.execPath, [TSC, "-p", project], { cwd: SCRATCH });
    return { code: 0, output: "" };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

/** A user program calling a tool of each imported server through `connect(name)`. */
const USE = [
  'import { connect } from "./mcp-servers/index.js";',
  'import type { Api as EverythingApi } from "./mcp-servers/everything/api.js";',
  'import type { Api as FilesApi } from "./mcp-servers/filesystem/api.js";',
  'import type { Api as MemoryApi } from "./mcp-servers/memory/api.js";',
  "import { Server } from 'node:net';",
  "// Counts listening sockets this program opens: none of these servers asks for authorization, so connect()",
  "// must not start the OAuth loopback redirect listener.",
  "let listening = 0;",
  "const listen = Server.prototype.listen as (this: Server, ...args: unknown[]) => Server;",
  "Server.prototype.listen = function (this: Server, ...args: unknown[]) {",
  "  listening++;",
  "  return listen.apply(this, args);",
  "} as typeof Server.prototype.listen;",
  "const everything = await connect('everything');",
  "const http = await connect('everything-http', { inputs: { 'everything-http.X-Api-Key': 'k' } });",
  "const files = await connect('filesystem');",
  "const memory = await connect('memory');",
  "// The agent-facing declarations are implemented by the typed clients.",
  "const apis: [EverythingApi, FilesApi, MemoryApi] = [everything, files, memory];",
  "try {",
  "  const echoed = await everything.tools.echo({ message: 'hi' });",
  "  const overHttp = await http.tools.echo({ message: 'over http' });",
  "  const read = await files.tools.readTextFile({ path: `${process.cwd()}/files/a.txt` });",
  "  const content: string = read.structuredContent.content;",
  "  const entity = { name: 'mcp-gen', entityType: 'project', observations: ['typed'] };",
  "  const created = await memory.tools.createEntities({ entities: [entity] });",
  "  const graph = await memory.tools.readGraph({});",
  "  const createdNames: string[] = created.structuredContent.entities.map((e) => e.name);",
  "  const observations: string[][] = graph.structuredContent.entities.map((e) => e.observations);",
  "  const first = echoed.content[0];",
  "  const second = overHttp.content[0];",
  "  console.log(JSON.stringify({",
  "    echo: first?.type === 'text' ? first.text : null,",
  "    http: second?.type === 'text' ? second.text : null,",
  "    content,",
  "    createdNames,",
  "    observations,",
  "    listening,",
  "  }));",
  "} finally {",
  "  await Promise.all([everything.close(), http.close(), files.close(), memory.close()]);",
  "  void apis;",
  "}",
  "",
].join("\n");

/** Wrong argument types, an unknown server name and a wrong nested field: each must fail tsc. */
const WRONG = [
  'import { connect } from "./mcp-servers/index.js";',
  "const files = await connect('filesystem');",
  "await files.tools.readTextFile({ path: 42 });",
  "await connect('not-a-server');",
  "const memory = await connect('memory');",
  "await memory.tools.createEntities({ entities: [{ name: 'x', entityType: 'y', observations: 'z' }] });",
  "",
].join("\n");

let compilation: Promise<string[]> | undefined;
/**
 * use.ts and wrong.ts compiled once, under a plain nodenext tsconfig (tsc still emits dist/use.js beside wrong.ts's
 * errors): each diagnostic with its continuation lines, told apart by the file it starts in.
 */
function compiled(): Promise<string[]> {
  compilation ??= (async () => {
    await writeFile(path.join(SCRATCH, "use.ts"), USE);
    await writeFile(path.join(SCRATCH, "wrong.ts"), WRONG);
    const options = {
      module: "nodenext",
      target: "es2022",
      strict: true,
      exactOptionalPropertyTypes: true,
      outDir: "dist",
      types: ["node"],
    };
    await writeFile(
      path.join(SCRATCH, "tsconfig.json"),
      JSON.stringify({ compilerOptions: options, include: ["use.ts", "wrong.ts", "mcp-servers"] }),
    );
    const { output } = await tsc("tsconfig.json");
    return output.split(/\n(?=\S)/).filter((d) => d.trim() !== "");
  })();
  return compilation;
}

let http: ChildProcess;
let imported: CliRun;

beforeAll(async () => {
  await mkdir(path.join(SCRATCH, "files"), { recursive: true });
  await writeFile(path.join(SCRATCH, "files", "a.txt"), "hello from a file\n");
  await writeFile(path.join(SCRATCH, "package.json"), JSON.stringify({ type: "module", private: true }));
  // On a free port; on another one when that was taken before the server bound it.
  const port = await onFreePort(async (free) => {
    http = spawn(process.execPath, [EVERYTHING, "streamableHttp"], {
      env: { ...process.env, PORT: String(free) },
      stdio: ["ignore", "ignore", "pipe"],
    });
    await new Promise<void>((resolve, reject) => {
      let said = "";
      http.stderr!.on("data", (chunk: Buffer) => {
        said += chunk.toString();
        if (said.includes("listening")) resolve();
      });
      http.once("exit", (code) => reject(new Error(`server-everything (HTTP) exited with ${code}: ${said}`)));
    });
    return free;
  });
  const config = {
    mcpServers: {
      everything: {
        command: process.execPath,
        args: [EVERYTHING, "stdio"],
        env: { API_KEY: SECRETS.envLiteral, TOKEN: "${env:PLANTED_TOKEN}" },
      },
      "everything-http": {
        type: "http",
        url: `http://127.0.0.1:${port}/mcp`,
        headers: { Authorization: "Bearer ${env:PLANTED_HTTP_TOKEN}", "X-Api-Key": SECRETS.headerLiteral },
      },
      filesystem: { command: process.execPath, args: [FILESYSTEM, "${workspaceFolder}/files"] },
      memory: {
        command: process.execPath,
        args: [MEMORY],
        env: { MEMORY_FILE_PATH: "${workspaceFolder}/memory.jsonl" },
      },
      broken: {
        command: process.execPath,
        args: ["-e", "console.error('cannot start with key ' + process.env.KEY); process.exit(3)"],
        env: { KEY: SECRETS.brokenEcho },
      },
      invalid: { type: "carrier-pigeon" },
    },
  };
  await writeFile(path.join(SCRATCH, ".mcp.json"), JSON.stringify(config, null, 2));
  process.env["PLANTED_TOKEN"] = SECRETS.envFromEnvironment;
  process.env["PLANTED_HTTP_TOKEN"] = SECRETS.headerFromEnvironment;
  imported = await cli(SCRATCH, "import", "--config", ".mcp.json");
}, 180_000);

afterAll(async () => {
  http?.kill();
  delete process.env["PLANTED_TOKEN"];
  delete process.env["PLANTED_HTTP_TOKEN"];
  await rm(SCRATCH, { recursive: true, force: true });
});

describe("import --config", () => {
  it("imports the servers that answer, names each that failed with why, and exits 2 (partial)", async () => {
    expect(imported.code, imported.stderr).toBe(2);
    expect(imported.stderr).toMatch(/broken: failed: .*exit code 3/);
    expect(imported.stderr).toMatch(/invalid: failed: the config entry is invalid: unknown type "carrier-pigeon"/);
    expect(imported.stderr).toContain("imported 4 of 6 servers; failed: invalid, broken");
    for (const server of ["everything", "everything-http", "filesystem", "memory"]) {
      const manifest = await readFile(path.join(SCRATCH, "mcp-servers", server, "mcp.yaml"), "utf8");
      expect(manifest).toContain(`# Imported by mcp-gen from server "${server}" of ../../.mcp.json`);
      expect(await readFile(path.join(SCRATCH, "mcp-servers", server, "generated", "client.ts"), "utf8")).toContain(
        "export function createClient",
      );
    }
    const lock = JSON.parse(await readFile(path.join(SCRATCH, "mcp-servers", "mcp.lock.json"), "utf8")) as {
      servers: Record<string, { server: { name: string }; protocolRevision: string; tools: Record<string, string> }>;
    };
    expect(Object.keys(lock.servers).sort()).toEqual(["everything", "everything-http", "filesystem", "memory"]);
    expect(lock.servers["everything"]!.server.name).toBe("mcp-servers/everything");
    expect(lock.servers["everything"]!.protocolRevision).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(lock.servers["filesystem"]!.tools["read_text_file"]).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(lock.servers["memory"]!.server.name).toBe("memory-server");
    expect(lock.servers["memory"]!.tools["create_entities"]).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("writes an agent-facing api.d.ts per server, descriptions as doc comments, and prints its size in tokens", async () => {
    const api = await readFile(path.join(SCRATCH, "mcp-servers", "filesystem", "api.d.ts"), "utf8");
    expect(api).toMatch(/^\/\/ Code generated by mcp-gen from mcp\.yaml\. DO NOT EDIT\./);
    expect(api).toMatch(
      /\/\*\* Read the complete contents of a file from the file system as text\.[^\n]*\*\/\n\s*readTextFile\(/,
    );
    expect(imported.stdout).toMatch(/filesystem: wrote api\.d\.ts \(\d+ characters, about \d+ tokens\)/);
  });

  it("writes no planted secret into any file and prints none, on import and on check --live", async () => {
    // check --live connects with the same config (placeholders filled in again) and writes its SARIF report.
    const checked = await cli(SCRATCH, "check", "--live", "--format", "json");
    const sarif = await cli(SCRATCH, "check", "--live", "--format", "sarif", "--output", "drift.sarif");
    const report = JSON.parse(checked.stdout) as { servers: { server: string; changes: unknown[] }[] };
    expect(report.servers.map((s) => `${s.server}: ${s.changes.length}`).sort()).toEqual([
      "everything-http: 0",
      "everything: 0",
      "filesystem: 0",
      "memory: 0",
    ]);
    expect([checked.code, sarif.code]).toEqual([0, 0]);
    // Every file under the folder except the config itself (which holds the literals by design).
    const written = (await filesUnder(SCRATCH)).filter((f) => f !== path.join(SCRATCH, ".mcp.json"));
    expect(written.length).toBeGreaterThan(20);
    expect(written).toContain(path.join(SCRATCH, "drift.sarif"));
    const outputs = [imported, checked, sarif].flatMap((run) => [run.stdout, run.stderr]);
    const texts = [...outputs, ...(await Promise.all(written.map((f) => readFile(f, "utf8"))))];
    for (const secret of Object.values(SECRETS)) for (const text of texts) expect(text).not.toContain(secret);
    // The broken server's reason is printed, its secret redacted.
    expect(imported.stderr).toContain("cannot start with key ***");
  }, 180_000);

  it("a user program compiled under a plain nodenext tsconfig calls a tool of each server with typed results", async () => {
    // Everything outside wrong.ts (the program and the generated code) compiles clean.
    expect((await compiled()).filter((d) => !d.startsWith("wrong.ts("))).toEqual([]);
    const { stdout } = await run(process.execPath, [path.join(SCRATCH, "dist", "use.js")], {
      cwd: SCRATCH,
      env: { ...process.env, API_KEY: "from-the-environment" },
    });
    expect(JSON.parse(stdout)).toEqual({
      echo: "Echo: hi",
      http: "Echo: over http",
      content: "hello from a file\n",
      createdNames: ["mcp-gen"],
      observations: [["typed"]],
      listening: 0,
    });
    // server-memory wrote its graph where the config's placeholder points, filled in by connect().
    expect(await readFile(path.join(SCRATCH, "memory.jsonl"), "utf8")).toContain('"name":"mcp-gen"');
  }, 300_000);

  it("a wrong argument type fails tsc", async () => {
    const output = (await compiled()).join("\n");
    expect(output).toMatch(/wrong\.ts\(3,\d+\): error TS2322: Type 'number' is not assignable to type 'string'/);
    expect(output).toMatch(/wrong\.ts\(4,\d+\): error TS2345: Argument of type '"not-a-server"'/);
    expect(output).toMatch(/wrong\.ts\(6,\d+\): error TS2322: Type 'string' is not assignable to type 'string\[\]'/);
  }, 300_000);
});
