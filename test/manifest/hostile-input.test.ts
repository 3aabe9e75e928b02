/**
 * Issue 20, generator items 7–11, through the real CLI (test/generator/cli-run.ts): a manifest, or a server's `tools/list`
 * read by `import`, must never shape what the generated code does, hang or crash the generator, or yield output that
 * does not compile or load. Each case generates, compiles the output with tsc (the repository's strict config) and
 * loads it where the case is about behaviour.
 */
import { execFile, execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serve } from "@mcp-gen/runtime/http";
import type { McpServer } from "@mcp-gen/runtime";
import { CLI, cli, REPO, type CliRun } from "../generator/cli-run.ts";
import { RUNTIME_AS_INSTALLED } from "../package/runtime-declarations.ts";
import { nodeArgs } from "../fixture-run.ts";

const SCRATCH = path.join(REPO, ".tmp", `hostile-input-${process.pid}`);
const TSC = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const LISTING_SERVER = path.join(REPO, "test/manifest/fixtures/listing-server.ts");

afterAll(async () => {
  await rm(SCRATCH, { recursive: true, force: true });
});

/** A folder `name` holding `mcp.json` (the manifest; generated code imports the built `@mcp-gen/runtime`, as a user's). */
async function project(name: string, manifest: Record<string, unknown>, file = "mcp.json"): Promise<string> {
  const dir = path.join(SCRATCH, name);
  await mkdir(dir, { recursive: true });
  const full = { ...manifest, generate: { runtimeImport: "@mcp-gen/runtime" } };
  await writeFile(path.join(dir, file), JSON.stringify(full, null, 2));
  return dir;
}

/**
 * The cases whose output is compiled: each generates in the file's set-up, and one tsc run (the repository's strict
 * config) checks all their generated folders, so TypeScript starts and checks the runtime they import once, not once
 * per case.
 */
const COMPILED = ["proto-scopes", "doubling", "defs-names"] as const;
const runs = new Map<string, Promise<{ dir: string; run: CliRun; ms: number }>>();
let diagnostics: Promise<string> | undefined;

/** Generates case `name` from `manifest` (once; every caller of the same name gets that run). */
function generateCase(name: (typeof COMPILED)[number], manifest: Record<string, unknown>) {
  if (!runs.has(name))
    runs.set(
      name,
      project(name, manifest).then(async (dir) => {
        const started = Date.now();
        const run = await generate(dir);
        return { dir, run, ms: Date.now() - started };
      }),
    );
  return runs.get(name)!;
}

/** tsc's diagnostics for case `name`'s generated folder (empty: it compiles): those in its folder or in no case's. */
async function compile(name: (typeof COMPILED)[number]): Promise<string> {
  diagnostics ??= Promise.all(COMPILED.map((c) => runs.get(c))).then(async () => {
    const tsconfig = path.join(SCRATCH, "tsconfig.json");
    const include = COMPILED.map((c) => `${c}/generated/*.ts`);
    // Against the runtime as installed (its .d.ts), as a user's project compiles the output.
    await writeFile(
      tsconfig,
      JSON.stringify({ extends: "../../tsconfig.json", compilerOptions: RUNTIME_AS_INSTALLED, include }),
    );
    try {
      execFileSync(process.execPath, [TSC, "--noEmit", "--pretty", "false", "-p", tsconfig], {
        encoding: "utf8",
        cwd: SCRATCH,
      });
      return "";
    } catch (error) {
      return String((error as { stdout?: string }).stdout ?? error);
    }
  });
  const others = COMPILED.filter((c) => c !== name).map((c) => `${c}/`);
  // One diagnostic per unindented line (`file(line,col): error TS…`), its continuation lines indented.
  return (await diagnostics)
    .split(/\n(?=\S)/)
    .filter((d) => d.trim() !== "" && !others.some((prefix) => d.startsWith(prefix)))
    .join("\n");
}

const generate = (dir: string, file = "mcp.json"): Promise<CliRun> => cli(dir, "generate", "--manifest", file);

/** `node listing-server <tools.json>` (its build, test/fixture-run.ts) as an `import --command` line. */
async function listingCommand(dir: string, tools: unknown[]): Promise<string> {
  const file = path.join(dir, "tools.json");
  await writeFile(file, JSON.stringify(tools));
  return [process.execPath, ...nodeArgs(LISTING_SERVER), file].map((a) => JSON.stringify(a)).join(" ");
}

const toolResult = (name: string) => ({ content: [{ type: "text" as const, text: name }] });

// Generated one after the other (the doubling case's time is its own), before any case compiles.
beforeAll(async () => {
  await generateCase("proto-scopes", {
    server: { name: "proto", version: "1.0.0" },
    tools: [{ name: "__proto__", scopes: ["admin"] }, { name: "constructor", scopes: ["admin"] }, { name: "open" }],
  });
  await generateCase("doubling", {
    server: { name: "doubling", version: "1.0.0" },
    tools: [{ name: "deep", inputSchema: doublingSchema(40) }],
  });
  await generateCase("defs-names", {
    server: { name: "d", version: "1.0.0" },
    tools: [
      {
        name: "t",
        inputSchema: {
          type: "object",
          properties: {
            s: { $ref: "#/$defs/Schema" },
            h: { $ref: "#/$defs/Shape" },
            e: { type: "string", format: "email" },
          },
          $defs: { Schema: { type: "string" }, Shape: { type: "number" }, Schema2: { type: "boolean" } },
        },
        outputSchema: {
          type: "object",
          properties: { i: { $ref: "#/$defs/Input" } },
          $defs: { Input: { type: "integer" } },
        },
      },
    ],
  });
}, 180_000);

describe("item 7: a tool named like an Object.prototype member keeps its scopes", () => {
  it("__proto__ and constructor: generate, tsc, load, and a token without the scope is refused", async () => {
    const { dir, run } = await runs.get("proto-scopes")!;
    expect(run).toMatchObject({ code: 0 });
    expect(await compile("proto-scopes")).toBe("");
    const generated = (await import(pathToFileURL(path.join(dir, "generated/index.ts")).href)) as {
      toolScopes: Record<string, readonly string[]>;
      createServer(handlers: object): McpServer;
    };
    expect(Object.getPrototypeOf(generated.toolScopes)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(generated.toolScopes, "__proto__")?.value).toEqual(["admin"]);
    const tools: Record<string, () => unknown> = {};
    for (const name of ["__proto__", "constructor", "open"])
      Object.defineProperty(tools, name, { value: () => toolResult(name), enumerable: true });
    const granted: Record<string, string[]> = { user: ["mcp"], admin: ["mcp", "admin"] };
    const running = await serve(generated.createServer({ tools }), {
      sessions: false,
      auth: {
        verifyToken: (token) => (granted[token] ? { token, scopes: granted[token], claims: {} } : undefined),
        resourceMetadata: { resource: "http://127.0.0.1/mcp", authorization_servers: ["https://issuer.example"] },
      },
    });
    const call = async (token: string, name: string) => {
      const response = await fetch(running.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: `Bearer ${token}`,
          "mcp-protocol-version": "2025-11-25",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {} } }),
      });
      return { status: response.status, body: await response.text() };
    };
    try {
      for (const name of ["__proto__", "constructor"]) {
        expect((await call("user", name)).status, name).toBe(403);
        const allowed = await call("admin", name);
        expect(allowed.status, name).toBe(200);
        expect(JSON.parse(allowed.body).result.content).toEqual([{ type: "text", text: name }]);
      }
      expect((await call("user", "open")).status).toBe(200);
    } finally {
      await running.close();
    }
  }, 120_000);
});

/** `levels` objects, each with two properties referring to the next (outside $defs): 2^levels copies if inlined. */
function doublingSchema(levels: number): Record<string, unknown> {
  const x: Record<string, unknown> = {};
  for (let i = 0; i < levels; i++)
    x[`d${i}`] = { type: "object", properties: { a: { $ref: `#/x/d${i + 1}` }, b: { $ref: `#/x/d${i + 1}` } } };
  x[`d${levels}`] = { type: "string" };
  return { type: "object", properties: { v: { $ref: "#/x/d0" } }, x };
}

/** `levels` objects nested inline, each the only property of its parent. */
function nestedSchema(levels: number): Record<string, unknown> {
  let inner: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < levels; i++) inner = { type: "object", properties: { a: inner } };
  return { type: "object", properties: { v: inner } };
}

describe("item 8: $ref graphs and nesting depth", () => {
  it("doubling $refs (40 levels: 2^40 copies if inlined) generate quickly, compile and validate", async () => {
    const { dir, run, ms } = await runs.get("doubling")!;
    expect(run.stderr).not.toMatch(/Maximum call stack/);
    expect(run.code).toBe(0);
    expect(ms).toBeLessThan(45_000);
    expect(await compile("doubling")).toBe("");
    const generated = (await import(pathToFileURL(path.join(dir, "generated/index.ts")).href)) as Record<
      string,
      { safeParse(v: unknown): { success: boolean } }
    >;
    const leafOnly = (n: number): unknown => (n === 40 ? "leaf" : { a: leafOnly(n + 1) });
    expect(generated["DeepInputSchema"]!.safeParse({ v: leafOnly(0) }).success).toBe(true);
    expect(generated["DeepInputSchema"]!.safeParse({ v: { a: { a: 5 } } }).success).toBe(false);
  }, 120_000);

  it("200 levels of nesting: generate and import both refuse it with the path and the limit", async () => {
    const dir = await project("nested", {
      server: { name: "nested", version: "1.0.0" },
      tools: [{ name: "deep", inputSchema: nestedSchema(200) }],
    });
    const run = await generate(dir);
    expect(run.code).toBe(1);
    expect(run.stderr).not.toMatch(/Maximum call stack/);
    expect(run.stderr).toMatch(
      /^mcp-gen: mcp\.json:\d+:\d+: tools\[0\]\.inputSchema\.properties\.v(\.properties\.a)+: schemas nest deeper than 64 levels/m,
    );
    const command = await listingCommand(dir, [{ name: "deep", inputSchema: nestedSchema(200) }]);
    const imported = await cli(dir, "import", "--command", command, "--out", "imported.yaml");
    expect(imported.code).toBe(1);
    expect(imported.stderr).toMatch(
      /cannot be generated from: tool "deep": imported\.yaml:\d+:\d+: tools\[0\]\.inputSchema\.properties\.v[.a-z]*…: schemas nest deeper than 64 levels/,
    );
    expect(existsSync(path.join(dir, "imported.yaml"))).toBe(false);
  }, 120_000);

  it("import of a tools/list with doubling $refs finishes and writes a manifest that generates", async () => {
    const dir = path.join(SCRATCH, "doubling-import");
    await mkdir(dir, { recursive: true });
    const command = await listingCommand(dir, [{ name: "deep", inputSchema: doublingSchema(40) }]);
    const started = Date.now();
    const imported = await cli(dir, "import", "--command", command, "--out", "mcp.yaml");
    expect(imported.stderr).toBe("");
    expect(imported.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(45_000);
    expect(await generate(dir, "mcp.yaml")).toMatchObject({ code: 0 });
  }, 120_000);
});

describe("item 9: patterns are compiled as the validators compile them (the u flag)", () => {
  const schema = { type: "object", properties: { id: { type: "string", pattern: "^[\\w-.]+$" } } };

  it("generate refuses a pattern only valid without the u flag, at its location", async () => {
    const dir = await project("pattern", {
      server: { name: "p", version: "1.0.0" },
      tools: [{ name: "t", inputSchema: schema }],
    });
    const run = await generate(dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /^mcp-gen: mcp\.json:\d+:\d+: tools\[0\]\.inputSchema\.properties\.id\.pattern: invalid pattern "\^\[\\\\w-\.\]\+\$".*"u"/m,
    );
    expect(existsSync(path.join(dir, "generated"))).toBe(false);
  }, 60_000);

  it("patternProperties names too; import names the tool", async () => {
    const dir = path.join(SCRATCH, "pattern-import");
    await mkdir(dir, { recursive: true });
    const command = await listingCommand(dir, [
      { name: "fine", inputSchema: { type: "object" } },
      { name: "keys", inputSchema: { type: "object", patternProperties: { "^[\\w-.]+$": { type: "string" } } } },
    ]);
    const run = await cli(dir, "import", "--command", command, "--out", "mcp.yaml");
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /tool "keys": mcp\.yaml:\d+:\d+: tools\[1\]\.inputSchema\.patternProperties\["\^\[\\\\w-\.\]\+\$"\]: invalid pattern/,
    );
  }, 60_000);
});

describe("item 10: $defs named like generated names", () => {
  it("Schema and Shape entries (beside a JSON-Schema-checked root) generate code that compiles and loads", async () => {
    const { dir, run } = await runs.get("defs-names")!;
    expect(run.code).toBe(0);
    expect(await compile("defs-names")).toBe("");
    const generated = (await import(pathToFileURL(path.join(dir, "generated/index.ts")).href)) as Record<
      string,
      { safeParse(v: unknown): { success: boolean } }
    >;
    expect(generated["TInputSchema"]!.safeParse({ s: "x", h: 1, e: "a@b.c" }).success).toBe(true);
    expect(generated["TInputSchema"]!.safeParse({ s: 1 }).success).toBe(false);
    expect(generated["TInputSchema"]!.safeParse({ e: "not an email" }).success).toBe(false);
  }, 120_000);
});

describe("item 11: import's temporary file and paths in header comments", () => {
  it("a symlink planted at the old temporary name is never written through", async () => {
    const dir = path.join(SCRATCH, "planted");
    await mkdir(dir, { recursive: true });
    const victim = path.join(dir, "victim.txt");
    await writeFile(victim, "untouched\n");
    const command = await listingCommand(dir, [{ name: "t", inputSchema: { type: "object" } }]);
    // The CLI runs in this process, which first plants the link at `.mcp.yaml.<its pid>.tmp`.
    const plant = `import("node:fs").then((fs) => { fs.symlinkSync(${JSON.stringify(victim)}, ".mcp.yaml." + process.pid + ".tmp"); process.argv.splice(1, 0, "mcp-gen"); return import(${JSON.stringify(pathToFileURL(CLI).href)}); })`;
    const run = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ["-e", plant, "--", "import", "--command", command, "--out", "mcp.yaml"],
        { cwd: dir },
        (error, _stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
      );
    });
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(await readFile(victim, "utf8")).toBe("untouched\n");
    expect(await readFile(path.join(dir, "mcp.yaml"), "utf8")).toMatch(/^# Imported by mcp-gen/);
    // Nothing else is left behind but the planted link itself.
    expect((await readdir(dir)).filter((f) => f.endsWith(".tmp") && !f.includes(".mcp.yaml.")).length).toBe(0);
  }, 60_000);

  it("CR, LF, U+2028 and U+2029 in the manifest's path stay inside the header comment", async () => {
    const odd = "we\nird\r\u2028\u2029";
    const dir = await project(odd, { server: { name: "h", version: "1.0.0" }, tools: [{ name: "t" }] });
    const run = await cli(
      dir,
      "generate",
      "--manifest",
      "mcp.json",
      "--out",
      path.join(SCRATCH, "odd-out", "generated"),
    );
    expect(run.code).toBe(0);
    const generated = path.join(SCRATCH, "odd-out", "generated");
    for (const file of (await readdir(generated)).filter((f) => f.endsWith(".ts"))) {
      const [first, second] = (await readFile(path.join(generated, file), "utf8")).split(/\r\n|[\n\r\u2028\u2029]/);
      expect(first).toMatch(
        /^\/\/ Code generated by mcp-gen from \.\.\/\.\.\/we\\u000aird\\u000d\\u2028\\u2029\/mcp\.json\. DO NOT EDIT\.$/,
      );
      expect(second).toBe("// Regenerate with: mcp-gen generate");
    }
  }, 60_000);
});
