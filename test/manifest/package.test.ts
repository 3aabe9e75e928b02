/**
 * mcp-gen as users install it: the runtime and protocol bindings built with tsconfig.build.json (what `npm run build`
 * writes to dist/), reached only through package.json `exports`. A user project (its own `type: module` package with
 * mcp-gen in node_modules) generated with the default `runtimeImport` ("mcp-gen/runtime") type-checks against the
 * emitted .d.ts files and runs on the emitted JavaScript: a generated client calls a generated server in memory.
 * The build goes to a temporary copy of the package, so the test never reads a stale dist/.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { stringify } from "yaml";
import { generateFromManifest } from "../../generator/manifest/pipeline.ts";
import { writeFilesAtomically } from "../../generator/manifest/write-atomic.ts";

const REPO = path.resolve(import.meta.dirname, "../..");
const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");
let project: string;

const manifest = {
  server: { name: "packaged", version: "1.0.0" },
  // logging on: with it off, the in-memory transport carries \`capabilities.logging: undefined\` (a runtime issue,
  // reported), which the client rightly rejects; JSON transports drop the key.
  capabilities: { logging: true },
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

const app = `import { McpClient, createMemoryTransportPair } from "mcp-gen/runtime";
import { revisions } from "mcp-gen/protocol";
import * as P from "mcp-gen/protocol/2025-11-25";
import { createClient, createServer } from "./generated/index.ts";

const server = createServer({ tools: { add: ({ a, b }) => ({ structuredContent: { sum: a + b } }) } });
const [serverSide, clientSide] = createMemoryTransportPair();
await server.connect(serverSide);
const raw = new McpClient({ info: { name: "app", version: "1.0.0" } });
await raw.connect(clientSide);
const sum: number = (await createClient(raw).tools.add({ a: 2, b: 3 })).structuredContent.sum;
const parsed: P.CallToolResult = revisions["2025-11-25"].CallToolResultSchema.parse({ content: [] });
const token: "tools/call" = P.methods["tools/call"].method;
console.log(JSON.stringify({ sum, revision: raw.revision, content: parsed.content.length, token }));
await raw.close();
await server.close();
`;

beforeAll(async () => {
  project = await mkdtemp(path.join(REPO, ".tmp", "package-"));
  const pkg = path.join(project, "node_modules", "mcp-gen");
  await mkdir(pkg, { recursive: true });
  const { name, type, exports } = JSON.parse(await readFile(path.join(REPO, "package.json"), "utf8")) as Record<
    string,
    unknown
  >;
  await writeFile(path.join(pkg, "package.json"), JSON.stringify({ name, type, exports }));
  execFileSync(process.execPath, [TSC, "-p", path.join(REPO, "tsconfig.build.json"), "--outDir", path.join(pkg, "dist")]);
  await writeFile(path.join(project, "package.json"), JSON.stringify({ name: "user-project", type: "module" }));
  await writeFile(path.join(project, "mcp.yaml"), stringify(manifest));
  const output = await generateFromManifest({ manifestPath: path.join(project, "mcp.yaml") });
  await writeFilesAtomically(output.outDir, output.files);
  await writeFile(path.join(project, "app.ts"), app);
}, 180_000);

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

it("generated code imports the runtime from mcp-gen/runtime by default", async () => {
  const server = await readFile(path.join(project, "generated", "server.ts"), "utf8");
  expect(server).toMatch(/from "mcp-gen\/runtime";/);
});

it("a user project type-checks against the package's .d.ts (strict, skipLibCheck), not the runtime sources", async () => {
  const config = path.join(project, "tsconfig.json");
  const tsconfig = { extends: path.relative(project, path.join(REPO, "tsconfig.json")), include: ["app.ts", "generated/*.ts"] };
  await writeFile(config, JSON.stringify(tsconfig));
  const files = execFileSync(process.execPath, [TSC, "--noEmit", "--listFilesOnly", "-p", config], { encoding: "utf8" });
  const fromRepo = files.split("\n").filter((f) => f.startsWith(`${REPO}/`) && !f.startsWith(`${project}/`));
  // Outside the project, only installed packages: nothing from runtime/ or generated/protocol/ sources.
  expect(fromRepo.filter((f) => !f.startsWith(`${REPO}/node_modules/`))).toEqual([]);
  expect(files).toContain(path.join(project, "node_modules/mcp-gen/dist/runtime/index.d.ts"));
  expect(files).toContain(path.join(project, "node_modules/mcp-gen/dist/generated/protocol/2025-11-25/schemas.d.ts"));
  execFileSync(process.execPath, [TSC, "--noEmit", "-p", config], { encoding: "utf8" });
}, 120_000);

it("the built JavaScript runs: a generated client calls a generated server", () => {
  const out = execFileSync(process.execPath, ["--import", "tsx", path.join(project, "app.ts")], {
    cwd: project,
    encoding: "utf8",
  });
  expect(JSON.parse(out.trim())).toEqual({ sum: 5, revision: "2026-07-28", content: 0, token: "tools/call" });
}, 60_000);
