/**
 * Issue 21 item 4, end to end as docs/revisions-and-extensions.md's worked example: a draft schema.ts adds a server capability (`notes`), a
 * `Tool` field (`color`) and a client request (`notes/add`). In a project `mcp-gen init` made (the runtime installed
 * from its packed tarball), `mcp-gen protocol` writes the draft's bindings into `src/`, the manifest names them with
 * the new capability and the tool field, `mcp-gen generate` gives the handler interface a typed `methods["notes/add"]`,
 * `tsc` builds the project, and a client speaking only the draft spawns the built server over stdio, sees the
 * capability and the tool field, and calls the new method. Code passing `capabilities` merges with the manifest's.
 * init's tsconfig is used as init wrote it (protocol output imports `./methods.js`).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI } from "../generator/cli-run.ts";
import { DRAFT_VERSION, notesDraftSchema } from "./draft-surface.ts";

const REPO = path.resolve(import.meta.dirname, "../..");
const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const pinned = (name: string): string =>
  (
    JSON.parse(readFileSync(path.join(REPO, "package-lock.json"), "utf8")) as {
      packages: Record<string, { version: string }>;
    }
  ).packages[`node_modules/${name}`]!.version;

const MANIFEST = `server:
  name: draft-notes
  version: 0.1.0
  revisions: [2025-11-25, { bindings: ./src/protocol/notes-draft }]
capabilities:
  tools: { listChanged: false }
  notes: { maxLength: 100 }
tools:
  - name: greet
    color: green
    inputSchema: { type: object, properties: { name: { type: string } }, required: [name] }
generate:
  out: src/generated
`;

const HANDLERS = `import type { ServerHandlers } from "./generated/index.js";

const notes: string[] = [];

export const handlers: ServerHandlers = {
  tools: {
    greet: ({ name }) => ({ content: [{ type: "text", text: \`Hello, \${name}!\` }] }),
  },
  methods: {
    "notes/add": ({ text }) => ({ id: notes.push(text) }),
  },
};
`;

/** The server with code-side capabilities too: they merge with the manifest's. */
const SERVER = `import { StdioServerTransport } from "@mcp-gen/runtime";
import { createServer } from "./generated/index.js";
import { handlers } from "./handlers.js";

const server = createServer(handlers, { capabilities: { experimental: { trace: {} } } });
await server.connect(new StdioServerTransport());
`;

const CLIENT = `import { McpClient } from "@mcp-gen/runtime";
import { StdioClientTransport } from "@mcp-gen/runtime/node";
import { methods, revision } from "./protocol/notes-draft/index.js";

const client = new McpClient({ info: { name: "notes-client", version: "1.0.0" }, revisions: [revision] });
await client.connect(new StdioClientTransport({ command: process.execPath, args: ["dist/server.js"] }));
const added = await client.request(methods["notes/add"], { text: "buy milk" });
const again = await client.request(methods["notes/add"], { text: "call home" });
const id: number = again.id;
const tools = await client.listAllTools();
console.log(JSON.stringify({
  revision: client.revision,
  capabilities: client.serverCapabilities,
  tools,
  ids: [added.id, id],
}));
await client.close();
`;

let scratch: string;
let app: string;
const npmFlags = ["--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"];
const run = (command: string, args: string[], cwd = app) =>
  execFileSync(command, args, { cwd, encoding: "utf8", stdio: "pipe", timeout: 400_000 });

beforeAll(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-draft-e2e-"));
  // Packing builds the runtime (prepack), so the tarball holds this checkout's runtime.
  run("npm", ["pack", "-w", "runtime", "--pack-destination", scratch, "--loglevel=error"], REPO);
  const tarball = readdirSync(scratch).find((f) => f.startsWith("mcp-gen-runtime-") && f.endsWith(".tgz"));
  if (!tarball) throw new Error("npm pack -w runtime wrote no tarball");
  app = path.join(scratch, "app");
  run(process.execPath, [CLI, "init", "--dir", app, "--name", "draft-notes"], scratch);
  run("npm", [
    "i",
    ...npmFlags,
    path.join(scratch, tarball),
    `zod@${pinned("zod")}`,
    `@types/node@${pinned("@types/node")}`,
  ]);
}, 600_000);

afterAll(() => {
  if (scratch && !process.env["KEEP"]) rmSync(scratch, { recursive: true, force: true });
});

describe("a draft's new capability, tool field and request, from schema.ts to a call over stdio", () => {
  it("generates, compiles in an init project, negotiates the draft and serves the new method", () => {
    writeFileSync(path.join(app, "notes.schema.ts"), notesDraftSchema());
    run(process.execPath, [
      CLI,
      "protocol",
      "--schema",
      "notes.schema.ts",
      "--revision",
      "notes-draft",
      "--out",
      "src/protocol/notes-draft",
    ]);
    writeFileSync(path.join(app, "mcp.yaml"), MANIFEST);
    expect(run(process.execPath, [CLI, "generate"])).toMatch(/^mcp-gen: wrote 6 files to src\/generated/);
    writeFileSync(path.join(app, "src/handlers.ts"), HANDLERS);
    writeFileSync(path.join(app, "src/server.ts"), SERVER);
    writeFileSync(path.join(app, "src/client.ts"), CLIENT);
    rmSync(path.join(app, "src/http.ts"));
    try {
      run(process.execPath, [TSC, "-p", "tsconfig.json"]);
    } catch (error) {
      throw new Error(`tsc failed:\n${String((error as { stdout?: string }).stdout ?? error)}`, { cause: error });
    }
    const out = JSON.parse(run(process.execPath, ["dist/client.js"])) as {
      revision: string;
      capabilities: Record<string, unknown>;
      tools: { name: string; color?: string }[];
      ids: number[];
    };
    expect(out.revision).toBe(DRAFT_VERSION);
    // The manifest's switches (listChanged false, no logging), its draft capability, and the code's experimental one.
    expect(out.capabilities).toEqual({
      tools: { listChanged: false },
      notes: { maxLength: 100 },
      experimental: { trace: {} },
    });
    expect(out.tools).toEqual([expect.objectContaining({ name: "greet", color: "green" })]);
    expect(out.ids).toEqual([1, 2]);
  }, 600_000);

  it("a handler of the wrong type fails tsc", () => {
    const wrong = HANDLERS.replace("({ id: notes.push(text) })", '({ id: "one" })');
    expect(wrong).not.toBe(HANDLERS);
    writeFileSync(path.join(app, "src/handlers.ts"), wrong);
    let output = "";
    try {
      run(process.execPath, [TSC, "-p", "tsconfig.json", "--noEmit"]);
    } catch (error) {
      output = String((error as { stdout?: string }).stdout);
    }
    writeFileSync(path.join(app, "src/handlers.ts"), HANDLERS);
    expect(output).toMatch(/src\/handlers\.ts\(\d+,\d+\): error TS2322: .*string.*number|number.*string/s);
  }, 300_000);
});
