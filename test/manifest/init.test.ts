/**
 * `mcp-gen init` through the real CLI: the scaffold (manifest, handlers, stdio and HTTP entries, tsconfig, package.json
 * scripts, generated code) type-checks and runs; an existing package.json gets "type": "module" (also over npm init's
 * "commonjs" when the project has no code yet) and the missing scripts; nothing is ever overwritten. The server is
 * named after package.json (else the folder), and mcp.yaml points the YAML language server at the installed schema.
 * (output-safety.test.ts: what init and generate never touch; package.test.ts: the scaffold against the built package.)
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { builtinRevisions, McpClient, SUPPORTED_REVISIONS } from "../../runtime/index.ts";
import { StdioClientTransport } from "../../runtime/node.ts";
import { CLI } from "../generator/cli-run.ts";
import { RUNTIME_AS_INSTALLED } from "../package/runtime-declarations.ts";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const SCRATCH = path.join(REPO, ".tmp", `manifest-init-${process.pid}`);
const require = createRequire(import.meta.url);

function cli(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: REPO, encoding: "utf8" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Every file under `dir` (recursively, sorted) with its content. */
async function snapshotTree(dir: string): Promise<Record<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
  const tree: Record<string, string> = {};
  for (const file of files.sort()) tree[file] = await readFile(path.join(dir, file), "utf8");
  return tree;
}

afterAll(async () => {
  await rm(SCRATCH, { recursive: true, force: true });
});

describe("mcp-gen init", () => {
  it("init scaffolds a project that type-checks and runs, and never overwrites", async () => {
    const dir = path.join(SCRATCH, "init");
    // The default runtime import, as a user's project has it: the workspace links @mcp-gen/runtime in the repository.
    const first = cli("init", "--dir", dir, "--name", "hello");
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    for (const file of ["mcp.yaml", "package.json", "tsconfig.json", "src/handlers.ts", "src/server.ts", "src/http.ts"])
      expect(existsSync(path.join(dir, file))).toBe(true);
    for (const file of ["server.ts", "client.ts", ".mcp-gen.json"])
      expect(existsSync(path.join(dir, "src/generated", file))).toBe(true);
    // No package.json there: a new one, an ES module with the scripts.
    expect(JSON.parse(await readFile(path.join(dir, "package.json"), "utf8"))).toMatchObject({
      name: "hello",
      type: "module",
      scripts: {
        generate: "mcp-gen generate",
        build: "tsc",
        start: "node dist/server.js",
        "start:http": "node dist/http.js",
      },
    });
    expect(await readFile(path.join(dir, "src/server.ts"), "utf8")).toContain('from "@mcp-gen/runtime";');
    expect(await readFile(path.join(dir, "src/http.ts"), "utf8")).toContain('from "@mcp-gen/runtime/http";');

    const raw = new McpClient({ revisions: builtinRevisions, info: { name: "init-test", version: "1.0.0" } });
    await raw.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ["--import", "tsx", path.join(dir, "src/server.ts")],
        cwd: REPO,
        stderr: "ignore",
      }),
    );
    try {
      const result = await raw.callTool("greet", { name: "Ada" });
      expect(result.structuredContent).toEqual({ greeting: "Hello, Ada!" });
    } finally {
      await raw.close();
    }

    // The scaffold type-checks under the repository's strict tsconfig, against the runtime as installed (its .d.ts);
    // package.test.ts and the user-flow CI check the scaffold's own tsconfig against the installed package.
    await writeFile(
      path.join(dir, "tsconfig.test.json"),
      JSON.stringify({ extends: "../../../tsconfig.json", compilerOptions: RUNTIME_AS_INSTALLED, include: ["src"] }),
    );
    const tsc = spawnSync(
      process.execPath,
      [require.resolve("typescript/bin/tsc"), "--noEmit", "-p", path.join(dir, "tsconfig.test.json")],
      { encoding: "utf8" },
    );
    expect(tsc.stdout).toBe("");

    const before = await snapshotTree(dir);
    const again = cli("init", "--dir", dir);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      /skipped .*mcp\.yaml, .*src\/handlers\.ts, .*src\/server\.ts, .*src\/http\.ts, .*tsconfig\.json \(already there; not overwritten\)/,
    );
    expect(await snapshotTree(dir)).toEqual(before);

    // server.revisions limits what the generated server speaks; without it, it speaks every revision.
    expect(await negotiatedRevision(dir)).toBe([...SUPPORTED_REVISIONS].sort().at(-1));
    const manifest = path.join(dir, "mcp.yaml");
    await writeFile(
      manifest,
      (await readFile(manifest, "utf8")).replace(/^server:\n/m, "server:\n  revisions: [2025-06-18]\n"),
    );
    expect(cli("generate", "-m", manifest).code).toBe(0);
    expect(await negotiatedRevision(dir)).toBe("2025-06-18");
  }, 300_000);

  it('init adds "type": "module" and the missing scripts to an existing package.json, keeping the user\'s', async () => {
    const dir = path.join(SCRATCH, "init-existing");
    await mkdir(dir, { recursive: true });
    const pkg = { name: "mine", version: "1.0.0", scripts: { test: "echo no tests", build: "my-build" } };
    await writeFile(path.join(dir, "package.json"), `${JSON.stringify(pkg, null, 4)}\n`);
    const result = cli("init", "--dir", dir, "--runtime-import", "../../../../../runtime/index.ts");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('package.json: added "type": "module"');
    expect(result.stdout).toContain("package.json: added scripts generate, check, start, start:http\n");
    expect(result.stdout).toContain("package.json: kept your own scripts build (not replaced)\n");
    const text = await readFile(path.join(dir, "package.json"), "utf8");
    expect(text).toMatch(/^\{\n {4}"name"/); // the file's own indentation
    expect(JSON.parse(text)).toEqual({
      ...pkg,
      type: "module",
      scripts: {
        ...pkg.scripts,
        generate: "mcp-gen generate",
        check: "mcp-gen generate --check && tsc --noEmit",
        start: "node dist/server.js",
        "start:http": "node dist/http.js",
      },
    });

    const broken = path.join(SCRATCH, "init-broken");
    await mkdir(broken, { recursive: true });
    await writeFile(path.join(broken, "package.json"), "{ not json");
    const refused = cli("init", "--dir", broken);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/cannot edit .*package\.json: .*\nmcp-gen: init wrote nothing\n$/);
    expect(await readdir(broken)).toEqual(["package.json"]);
  }, 60_000);

  it("names the server after package.json (else the folder) and points mcp.yaml at the installed schema", async () => {
    const dir = path.join(SCRATCH, "init-named");
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, "package.json"), JSON.stringify({ name: "@acme/weather-mcp", version: "1.0.0" }));
    const result = cli("init", "--dir", dir, "--runtime-import", "../../../../../runtime/index.ts");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const text = await readFile(path.join(dir, "mcp.yaml"), "utf8");
    const manifest = parseYaml(text) as { server: { name: string } };
    expect(manifest.server.name).toBe("@acme/weather-mcp");
    // The server says so on the wire.
    const client = new McpClient({ revisions: builtinRevisions, info: { name: "init-test", version: "1.0.0" } });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ["--import", "tsx", path.join(dir, "src/server.ts")],
        cwd: REPO,
        stderr: "ignore",
      }),
    );
    try {
      expect(client.serverInfo?.name).toBe("@acme/weather-mcp");
    } finally {
      await client.close();
    }

    // The first line names the schema relative to mcp.yaml: the file the installed mcp-gen package exports (in this
    // repository, node_modules/mcp-gen is the workspace link to generator/), and the scaffold's manifest is valid.
    const line = /^# yaml-language-server: \$schema=(\S+)\n/.exec(text);
    expect(line?.[1]).toBe("../../../node_modules/mcp-gen/manifest/mcp-manifest.schema.json");
    const schemaFile = path.resolve(dir, line![1]!);
    expect(await realpath(schemaFile)).toBe(path.join(REPO, "generator/manifest/mcp-manifest.schema.json"));
    const validate = new Ajv2020({ strict: false, allErrors: true }).compile(
      JSON.parse(await readFile(schemaFile, "utf8")) as object,
    );
    expect(validate(manifest), JSON.stringify(validate.errors)).toBe(true);

    // Without a package.json nor --name: the folder's name, for the server and the new package.json.
    const bare = path.join(SCRATCH, "bare-folder");
    // The generated folder is src/generated: five levels below the repository.
    expect(cli("init", "--dir", bare, "--runtime-import", "../../../../../runtime/index.ts").code).toBe(0);
    // The entries sit one level above the generated folder: the relative runtime import loses one "../".
    expect(await readFile(path.join(bare, "src/server.ts"), "utf8")).toContain('from "../../../../runtime/index.ts";');
    expect(await readFile(path.join(bare, "src/http.ts"), "utf8")).toContain(
      'from "../../../../runtime/http/index.ts";',
    );
    expect((parseYaml(await readFile(path.join(bare, "mcp.yaml"), "utf8")) as typeof manifest).server.name).toBe(
      "bare-folder",
    );
    expect(JSON.parse(await readFile(path.join(bare, "package.json"), "utf8"))).toMatchObject({ name: "bare-folder" });
  }, 120_000);

  it('over npm init\'s "type": "commonjs": switched to module when the project has no code yet, else left and said', async () => {
    const fresh = path.join(SCRATCH, "init-npm-init");
    await mkdir(fresh, { recursive: true });
    await writeFile(
      path.join(fresh, "package.json"),
      JSON.stringify({ name: "fresh", version: "1.0.0", type: "commonjs" }),
    );
    const switched = cli("init", "--dir", fresh, "--runtime-import", "../../../../../runtime/index.ts");
    expect(switched.code).toBe(0);
    expect(switched.stdout).toContain(
      'package.json: "type": "commonjs" → "module" (the project has no code yet; the scaffold is ESM)\n',
    );
    expect(JSON.parse(await readFile(path.join(fresh, "package.json"), "utf8"))).toMatchObject({ type: "module" });

    const withCode = path.join(SCRATCH, "init-cjs-code");
    await mkdir(withCode, { recursive: true });
    await writeFile(
      path.join(withCode, "package.json"),
      JSON.stringify({ name: "cjs", version: "1.0.0", type: "commonjs" }),
    );
    await writeFile(path.join(withCode, "index.js"), "module.exports = 1;\n");
    const left = cli("init", "--dir", withCode, "--runtime-import", "../../../../../runtime/index.ts");
    expect(left.code).toBe(0);
    expect(left.stdout).toContain('package.json: left "type": "commonjs" as it is (the project has code)');
    expect(JSON.parse(await readFile(path.join(withCode, "package.json"), "utf8"))).toMatchObject({ type: "commonjs" });
    expect(await readFile(path.join(withCode, "index.js"), "utf8")).toBe("module.exports = 1;\n");
  }, 60_000);
});

/** The revision an McpClient accepting every revision negotiates with the scaffolded server in `dir`. */
async function negotiatedRevision(dir: string): Promise<string | undefined> {
  const client = new McpClient({ revisions: builtinRevisions, info: { name: "revisions-test", version: "1.0.0" } });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", path.join(dir, "src/server.ts")],
      cwd: REPO,
      stderr: "ignore",
    }),
  );
  try {
    return client.revision;
  } finally {
    await client.close();
  }
}
