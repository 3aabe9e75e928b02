/**
 * @mcp-gen/runtime as users install it: the runtime and protocol bindings as the runtime package's build writes them
 * to runtime/dist/ (scripts/build-packages.mjs, run first: it builds again only when runtime/ changed, so the test
 * never reads a stale dist/), copied into the project and reached only through runtime/package.json `exports`. A
 * user project outside the repository (its own `type: module` package with @mcp-gen/runtime and the README's install
 * dependencies in node_modules) generated with the default `runtimeImport` ("@mcp-gen/runtime") type-checks against
 * the emitted .d.ts files and runs on the emitted JavaScript: a generated client calls a generated server in memory
 * and over HTTP (`@mcp-gen/runtime/http`, as the README shows). `mcp-gen init` (default runtime import) scaffolds a
 * project in the same way, and its server runs as a real process.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { stringify } from "yaml";
import { generateFromManifest } from "../../generator/pipeline/manifest.ts";
import { builtinRevisions, McpClient } from "../../runtime/index.ts";
import { StdioClientTransport } from "../../runtime/node.ts";
import { writeOutputFolder } from "../../generator/pipeline/output-folder.ts";
import { CLI } from "../generator/cli-run.ts";
import { copyBuiltPackage } from "../package/built-package.ts";

const REPO = path.resolve(import.meta.dirname, "../..");
const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const TSX_CLI = path.join(REPO, "node_modules/tsx/dist/cli.mjs");
/** What the README's install command adds to a user's project next to mcp-gen (zod, its peer: generated code imports it). */
const USER_DEPENDENCIES = ["zod"];
/** Where the runtime package is installed in the project. */
const RUNTIME_PKG = "node_modules/@mcp-gen/runtime";
let project: string;

const manifest = {
  server: { name: "packaged", version: "1.0.0" },
  capabilities: { logging: false },
  tools: [
    {
      name: "add",
      inputSchema: {
        type: "object",
        properties: { a: { type: "number" }, b: { type: "number" } },
        required: ["a", "b"],
        additionalProperties: false,
      },
      outputSchema: { type: "object", properties: { sum: { type: "number" } }, required: ["sum"] },
    },
  ],
};

const app = `import { McpClient, builtinRevisions, createMemoryTransportPair } from "@mcp-gen/runtime";
import { serve, StreamableHttpClientTransport } from "@mcp-gen/runtime/http";
import { revisions } from "@mcp-gen/runtime/protocol";
import * as P from "@mcp-gen/runtime/protocol/2025-11-25";
import { createClient, createServer } from "./generated/index.ts";

const server = createServer({ tools: { add: ({ a, b }) => ({ structuredContent: { sum: a + b } }) } });
const [serverSide, clientSide] = createMemoryTransportPair();
await server.connect(serverSide);
const raw = new McpClient({ info: { name: "app", version: "1.0.0" }, revisions: builtinRevisions });
await raw.connect(clientSide);
const sum: number = (await createClient(raw).tools.add({ a: 2, b: 3 })).structuredContent.sum;
const parsed: P.CallToolResult = revisions["2025-11-25"].CallToolResultSchema.parse({ content: [] });
const token: "tools/call" = P.methods["tools/call"].method;
await raw.close();
await server.close();

// The README's HTTP set-up: serve on loopback, call through the typed client over Streamable HTTP.
const running = await serve(createServer({ tools: { add: ({ a, b }) => ({ structuredContent: { sum: a + b } }) } }), { port: 0 });
const overHttp = new McpClient({ info: { name: "app", version: "1.0.0" }, revisions: builtinRevisions });
await overHttp.connect(new StreamableHttpClientTransport(running.url));
const httpSum: number = (await createClient(overHttp).tools.add({ a: 4, b: 5 })).structuredContent.sum;
await overHttp.close();
await running.close();
console.log(JSON.stringify({ sum, httpSum, revision: raw.revision, content: parsed.content.length, token }));
`;

beforeAll(async () => {
  // Outside the repository, so nothing resolves from the repository's node_modules by walking up: the project sees
  // @mcp-gen/runtime (with its own dependencies, as npm installs them), what the README tells users to install, and
  // @types/node for its tsconfig.
  project = await mkdtemp(path.join(os.tmpdir(), "mcp-gen-package-"));
  const pkg = path.join(project, RUNTIME_PKG);
  await mkdir(pkg, { recursive: true });
  await symlink(path.join(REPO, "node_modules"), path.join(pkg, "node_modules"), "dir");
  await mkdir(path.join(project, "node_modules", "@types"));
  for (const dependency of [...USER_DEPENDENCIES, "@types/node"])
    await symlink(path.join(REPO, "node_modules", dependency), path.join(project, "node_modules", dependency), "dir");
  const { name, type, exports } = JSON.parse(await readFile(path.join(REPO, "runtime/package.json"), "utf8")) as Record<
    string,
    unknown
  >;
  await writeFile(path.join(pkg, "package.json"), JSON.stringify({ name, type, exports }));
  copyBuiltPackage("runtime", path.join(pkg, "dist"));
  await writeFile(path.join(project, "package.json"), JSON.stringify({ name: "user-project", type: "module" }));
  await writeFile(path.join(project, "mcp.yaml"), stringify(manifest));
  const output = await generateFromManifest({ manifestPath: path.join(project, "mcp.yaml") });
  await writeOutputFolder(output.outDir, output.files);
  await writeFile(path.join(project, "app.ts"), app);
}, 180_000);

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

it("generated code imports the runtime from @mcp-gen/runtime by default", async () => {
  const server = await readFile(path.join(project, "generated", "server.ts"), "utf8");
  expect(server).toMatch(/from "@mcp-gen\/runtime";/);
});

it("a user project type-checks against the package's .d.ts (strict, skipLibCheck), not the runtime sources", async () => {
  const config = path.join(project, "tsconfig.json");
  const tsconfig = {
    extends: path.relative(project, path.join(REPO, "tsconfig.json")),
    include: ["app.ts", "generated/*.ts"],
  };
  await writeFile(config, JSON.stringify(tsconfig));
  // One compilation lists the files it read and type-checks them (a failure throws).
  const files = execFileSync(process.execPath, [TSC, "--noEmit", "--listFiles", "-p", config], { encoding: "utf8" });
  const fromRepo = files.split("\n").filter((f) => f.startsWith(`${REPO}/`) && !f.startsWith(`${project}/`));
  // Outside the project, only installed packages: nothing from runtime/ or runtime/generated/protocol/ sources.
  expect(fromRepo.filter((f) => !f.startsWith(`${REPO}/node_modules/`))).toEqual([]);
  expect(files).toContain(path.join(project, RUNTIME_PKG, "dist/index.d.ts"));
  expect(files).toContain(path.join(project, RUNTIME_PKG, "dist/http/index.d.ts"));
  expect(files).toContain(path.join(project, RUNTIME_PKG, "dist/generated/protocol/2025-11-25/schemas.d.ts"));
}, 120_000);

it("the built JavaScript runs: a generated client calls a generated server, in memory and over HTTP", () => {
  const out = execFileSync(process.execPath, [TSX_CLI, path.join(project, "app.ts")], {
    cwd: project,
    encoding: "utf8",
  });
  expect(JSON.parse(out.trim())).toEqual({
    sum: 5,
    httpSum: 9,
    revision: "2026-07-28",
    content: 0,
    token: "tools/call",
  });
}, 60_000);

it("mcp-gen init with the default runtime import: the scaffold builds with its own tsconfig and its built server answers", async () => {
  const dir = path.join(project, "init-app");
  const init = spawnSync(process.execPath, [CLI, "init", "--dir", dir, "--name", "hello"], {
    cwd: project,
    encoding: "utf8",
  });
  expect(init.stderr).toBe("");
  expect(init.status).toBe(0);
  expect(await readFile(path.join(dir, "src/server.ts"), "utf8")).toContain('from "@mcp-gen/runtime";');
  expect(await readFile(path.join(dir, "src/http.ts"), "utf8")).toContain('from "@mcp-gen/runtime/http";');
  expect(await readFile(path.join(dir, "src/generated/server.ts"), "utf8")).toMatch(/from "@mcp-gen\/runtime";/);

  // init's own tsconfig.json (nodenext, strict, exactOptionalPropertyTypes, src → dist), nothing added.
  const config = path.join(dir, "tsconfig.json");
  // One build lists the files it read and compiles them (a failure throws).
  const files = execFileSync(process.execPath, [TSC, "--listFiles", "-p", config], { encoding: "utf8" });
  expect(files).toContain(path.join(project, RUNTIME_PKG, "dist/index.d.ts"));
  expect(files).toContain(path.join(project, RUNTIME_PKG, "dist/http/index.d.ts"));
  expect(files.split("\n").filter((f) => f.startsWith(path.join(REPO, "runtime/")))).toEqual([]);

  // The built JavaScript, run by plain node (no tsx): what `npm start` runs.
  const client = new McpClient({ revisions: builtinRevisions, info: { name: "init-test", version: "1.0.0" } });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: ["dist/server.js"], cwd: dir, stderr: "inherit" }),
  );
  try {
    const tools = await client.listAllTools();
    expect(tools.map((t) => t.name)).toEqual(["greet"]);
    expect(tools[0]?.outputSchema).toMatchObject({ required: ["greeting"] });
    const result = await client.callTool("greet", { name: "Ada" });
    expect(result.structuredContent).toEqual({ greeting: "Hello, Ada!" });
  } finally {
    await client.close();
  }

  // The HTTP entry (`npm run start:http`): its probes answer, and SIGTERM is the graceful shutdown (readiness 503,
  // then the listener closes and the process exits 0).
  const http = spawn(process.execPath, ["dist/http.js"], {
    cwd: dir,
    env: { ...process.env, PORT: "0", UNREADY_MS: "300" },
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = "";
    http.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      if (out.includes("\n")) resolve(out.split("\n")[0]!.trim());
    });
    http.once("exit", (code) => reject(new Error(`dist/http.js exited (${code})`)));
  });
  const exited = new Promise<number | null>((resolve) => http.once("exit", resolve));
  expect((await fetch(new URL("/health", url))).status).toBe(200);
  expect(await (await fetch(new URL("/ready", url))).json()).toEqual({ status: "ready" });
  http.kill("SIGTERM");
  // Until the signal is handled readiness may still say 200; the first other answer must be the draining one.
  let draining: Response;
  for (;;) {
    draining = await fetch(new URL("/ready", url));
    if (draining.status !== 200) break;
    await draining.arrayBuffer();
  }
  expect([draining.status, await draining.json()]).toEqual([503, { status: "draining" }]);
  expect(await exited).toBe(0);
}, 120_000);
