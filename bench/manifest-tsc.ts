/**
 * tsc check time and peak memory of the same server + client (30, 220 and 1,000 tools) written three ways: mcp-gen's generated stub and typed client,
 * the official SDK v1 (`@modelcontextprotocol/sdk`, zod shapes) and SDK v2 (`@modelcontextprotocol/server` +
 * `client`, zod objects), plus a baseline that only imports the mcp-gen runtime. Each project is its own package
 * (`type: module`) that sees the runtime the way a user does: `import … from "@mcp-gen/runtime"` through
 * `node_modules/@mcp-gen/runtime` (a link to this repository's runtime/ package) and its package.json `exports`, i.e.
 * the built JavaScript and .d.ts in runtime/dist/ (built once here with the package build before measuring). Each
 * project is checked cold with `tsc --noEmit --extendedDiagnostics` (the repository's strict tsconfig, skipLibCheck on,
 * like the SDK projects, without its `@mcp-gen/source` condition, which would check the runtime's sources instead) five
 * times (`--rounds=N`), round-robin across the projects; the median times, the checker's type and instantiation
 * counts (independent of machine load), the compiler's peak RSS (python3's `getrusage(RUSAGE_CHILDREN)` around it) and
 * the SDK / mcp-gen ratios are printed, under TypeScript 5.9 (`typescript`) and 7 (`typescript7`, the native
 * compiler). Standalone: `npx tsx bench/manifest-tsc.ts` (`--tools=30,220` for some sizes, `--rounds=N`; `--smoke`, what `npm run bench -- --smoke` runs: 3 tools, one round; figures not meant to be read).
 *
 * The generated project is checked as a user's would be, `schemas.ts` included: each validator goes through the
 * runtime's `exactly<T>()`, so tsc infers zod's generics and proves them against the declared types; that inference
 * is most of the generated code's cost, as it is the SDK projects'. The "unproved" row is the same manifest with
 * `generate.proveValidators: false`, whose schemas.ts tsc does not check (the declared types are all it reads).
 */
import { execFileSync } from "node:child_process";
import { mkdir, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { stringify } from "yaml";
import { generateFromManifest } from "../generator/pipeline/manifest.ts";
import { writeOutputFolder } from "../generator/pipeline/output-folder.ts";

const REPO = path.resolve(import.meta.dirname, "..");
const ROOT = path.join(REPO, ".tmp", "bench-manifest-tsc");
const require = createRequire(import.meta.url);
const COMPILERS = {
  "TS 5.9": require.resolve("typescript/bin/tsc"),
  // typescript7's `exports` do not list bin/tsc: found beside its package.json.
  "TS 7": path.join(path.dirname(require.resolve("typescript7/package.json")), "bin/tsc"),
} as const;
const SMOKE = process.argv.includes("--smoke");
const TOOL_COUNTS = (
  process.argv.find((a) => a.startsWith("--tools="))?.slice("--tools=".length) ?? (SMOKE ? "3" : "30,220,1000")
)
  .split(",")
  .map(Number);
const namesOf = (count: number) => Array.from({ length: count }, (_, i) => `tool_${i}`);

/** One tool's schemas: a few kinds of property, an enum, a nested object and an array, and a structured output. */
function toolSchemas(i: number) {
  return {
    input: {
      type: "object",
      properties: {
        query: { type: "string", description: `query ${i}` },
        limit: { type: "integer", minimum: 1, maximum: 50 },
        mode: { type: "string", enum: ["fast", "exact", `mode${i}`] },
        filter: {
          type: "object",
          properties: { tag: { type: "string" }, since: { type: "string" } },
          required: ["tag"],
        },
        ids: { type: "array", items: { type: "number" } },
      },
      required: ["query"],
      additionalProperties: false,
    },
    output: {
      type: "object",
      properties: {
        items: {
          type: "array",
          items: {
            type: "object",
            properties: { id: { type: "number" }, title: { type: "string" } },
            required: ["id", "title"],
          },
        },
        total: { type: "integer" },
      },
      required: ["items", "total"],
    },
  };
}

/** The package's runtime entry, as users import it (the manifest's default `generate.runtimeImport`). */
const RUNTIME = JSON.stringify("@mcp-gen/runtime");

/** Builds runtime/dist/ exactly as the runtime package's `npm run build` does. */
async function buildPackage(): Promise<void> {
  execFileSync(process.execPath, [path.join(REPO, "scripts/build-packages.mjs"), "runtime"], { stdio: "inherit" });
}

/** A project folder that is its own ES module package, with this repository's runtime installed as `@mcp-gen/runtime`. */
async function packageDir(dir: string): Promise<void> {
  await mkdir(path.join(dir, "node_modules", "@mcp-gen"), { recursive: true });
  await symlink(path.join(REPO, "runtime"), path.join(dir, "node_modules", "@mcp-gen", "runtime"), "dir");
  await writeFile(path.join(dir, "package.json"), JSON.stringify({ name: path.basename(dir), type: "module" }));
}

async function mcpGenProject(dir: string, names: readonly string[], proveValidators: boolean): Promise<void> {
  const manifest = {
    server: { name: "bench", version: "1.0.0" },
    tools: names.map((name, i) => ({
      name,
      description: `Tool ${i}`,
      inputSchema: toolSchemas(i).input,
      outputSchema: toolSchemas(i).output,
    })),
    generate: { out: "generated", proveValidators },
  };
  await writeFile(path.join(dir, "mcp.yaml"), stringify(manifest));
  const output = await generateFromManifest({ manifestPath: path.join(dir, "mcp.yaml") });
  await writeOutputFolder(output.outDir, output.files);
  const handlers = names.map(
    (n) =>
      `  ${n}: (input) => ({ structuredContent: { items: [{ id: input.limit ?? 1, title: input.query }], total: 1 } }),`,
  );
  const calls = names.map(
    (n) =>
      `  total += (await client.tools.${n.replace("_", "")}({ query: "q", mode: "fast", filter: { tag: "t" } })).structuredContent.total;`,
  );
  await writeFile(
    path.join(dir, "app.ts"),
    `import { McpClient } from ${RUNTIME};
import { createClient, createServer, type ServerHandlers } from "./generated/index.ts";
const handlers: ServerHandlers = { tools: {
${handlers.join("\n")}
} };
export const server = createServer(handlers);
export async function calls(raw: McpClient): Promise<number> {
  const client = createClient(raw);
  let total = 0;
${calls.join("\n")}
  return total;
}
`,
  );
}

/** Baseline: a file that only imports the runtime (with the protocol bindings it loads), no manifest code. */
async function runtimeOnlyProject(dir: string): Promise<void> {
  await writeFile(
    path.join(dir, "app.ts"),
    `import { builtinRevisions, McpServer } from ${RUNTIME};\nexport const server = new McpServer({ info: { name: "bench", version: "1.0.0" }, revisions: builtinRevisions });\n`,
  );
}

/** The zod source of one tool's input and output for the SDK projects. */
function zodShapes(i: number): { input: string; output: string } {
  return {
    input:
      `{ query: z.string().describe("query ${i}"), limit: z.int().min(1).max(50).optional(), ` +
      `mode: z.enum(["fast", "exact", "mode${i}"]).optional(), ` +
      `filter: z.object({ tag: z.string(), since: z.string().optional() }).optional(), ids: z.array(z.number()).optional() }`,
    output: `{ items: z.array(z.object({ id: z.number(), title: z.string() })), total: z.int() }`,
  };
}

async function sdkProject(dir: string, version: "v1" | "v2", names: readonly string[]): Promise<void> {
  const wrap = version === "v2" ? (shape: string) => `z.strictObject(${shape})` : (shape: string) => shape;
  const imports =
    version === "v1"
      ? `import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nimport { Client } from "@modelcontextprotocol/sdk/client/index.js";`
      : `import { McpServer } from "@modelcontextprotocol/server";\nimport { Client } from "@modelcontextprotocol/client";`;
  const tools = names.map((n, i) => {
    const { input, output } = zodShapes(i);
    return (
      `server.registerTool(${JSON.stringify(n)}, { description: "Tool ${i}", inputSchema: ${wrap(input)}, ` +
      `outputSchema: ${wrap(output)} }, async (input) => ({ content: [], ` +
      `structuredContent: { items: [{ id: input.limit ?? 1, title: input.query }], total: 1 } }));`
    );
  });
  const calls = names.map(
    (n) =>
      `  total += ((await client.callTool({ name: ${JSON.stringify(n)}, arguments: { query: "q", mode: "fast", ` +
      `filter: { tag: "t" } } })).structuredContent as { total: number }).total;`,
  );
  await writeFile(
    path.join(dir, "app.ts"),
    `${imports}
import { z } from "zod";
export const server = new McpServer({ name: "bench", version: "1.0.0" });
${tools.join("\n")}
export async function calls(client: Client): Promise<number> {
  let total = 0;
${calls.join("\n")}
  return total;
}
`,
  );
}

interface Measure {
  readonly check: number;
  readonly total: number;
  /** The compiler process's peak resident memory, MB (NaN without python3). */
  readonly peakMb: number;
  /** Checker work, independent of machine load. */
  readonly types: number;
  readonly instantiations: number;
}

/**
 * Python's `getrusage(RUSAGE_CHILDREN)` after the compiler exits gives its peak RSS (ru_maxrss, KB on Linux): Node has
 * no such call for a child, and TypeScript 7 runs a native binary under its node launcher.
 */
const PEAK_RSS = `import resource, subprocess, sys
p = subprocess.run(sys.argv[1:], capture_output=True, text=True)
sys.stdout.write(p.stdout)
sys.stderr.write(p.stderr)
print("PeakRssKb:", resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(p.returncode)`;

function measure(tsc: string, dir: string): Measure {
  const args = [tsc, "--noEmit", "--extendedDiagnostics", "-p", path.join(dir, "tsconfig.json")];
  let out: string;
  try {
    out = execFileSync("python3", ["-c", PEAK_RSS, process.execPath, ...args], { encoding: "utf8" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    out = execFileSync(process.execPath, args, { encoding: "utf8" });
  }
  const value = (label: string) => Number(new RegExp(`${label}:\\s+([\\d.]+)`).exec(out)?.[1] ?? NaN);
  return {
    check: value("Check time"),
    total: value("Total time"),
    peakMb: value("PeakRssKb") / 1024,
    types: value("Types"),
    instantiations: value("Instantiations"),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** "unproved": the same manifest with `generate.proveValidators: false` (schemas.ts marked `// @ts-nocheck`). */
const projects = {
  "mcp-gen": "mcpgen",
  unproved: "mcpgen-unproved",
  runtime: "runtime",
  "SDK v1": "sdk1",
  "SDK v2": "sdk2",
} as const;
const ROUNDS = Number(
  process.argv.find((a) => a.startsWith("--rounds="))?.slice("--rounds=".length) ?? (SMOKE ? 1 : 5),
);

async function writeProjects(root: string, names: readonly string[]): Promise<void> {
  for (const [label, name] of Object.entries(projects)) {
    const dir = path.join(root, name);
    await packageDir(dir);
    if (label === "mcp-gen" || label === "unproved") await mcpGenProject(dir, names, label === "mcp-gen");
    else if (label === "runtime") await runtimeOnlyProject(dir);
    else await sdkProject(dir, label === "SDK v1" ? "v1" : "v2", names);
    const include = label === "mcp-gen" || label === "unproved" ? ["app.ts", "generated/*.ts"] : ["app.ts"];
    // The repository's tsconfig resolves @mcp-gen/runtime to its TypeScript sources (the `@mcp-gen/source` condition);
    // a user's project resolves it to dist/*.d.ts, so the condition is switched off here.
    const tsconfig = {
      extends: path.relative(dir, path.join(REPO, "tsconfig.json")),
      compilerOptions: { customConditions: [] },
      include,
    };
    await writeFile(path.join(dir, "tsconfig.json"), JSON.stringify(tsconfig));
  }
}

const fixed = (n: number, digits: number, width: number) => (Number.isNaN(n) ? "-" : n.toFixed(digits)).padStart(width);

function report(count: number, compiler: string, results: Record<string, Measure>): void {
  const base = results["mcp-gen"]!;
  const runtime = results["runtime"]!;
  const unproved = results["unproved"]!;
  console.log(
    `manifest-tsc: ${count}-tool server + client, ${compiler}, --noEmit --extendedDiagnostics (median of ${ROUNDS})`,
  );
  for (const [label, r] of Object.entries(results)) {
    const ratio = label.startsWith("SDK")
      ? `  check ${(r.check / base.check).toFixed(2)}x, memory ${(r.peakMb / base.peakMb).toFixed(2)}x (SDK / mcp-gen)` +
        `, ${(r.check / unproved.check).toFixed(2)}x, ${(r.peakMb / unproved.peakMb).toFixed(2)}x (SDK / unproved)`
      : "";
    console.log(
      `  ${label.padEnd(9)} check ${fixed(r.check, 2, 6)}s  total ${fixed(r.total, 2, 6)}s  peak ${fixed(r.peakMb, 0, 5)} MB  ` +
        `types ${fixed(r.types, 0, 7)}  instantiations ${fixed(r.instantiations, 0, 8)}${ratio}`,
    );
  }
  // What the manifest's generated code costs on top of importing the runtime at all.
  if (!Number.isNaN(base.types))
    console.log(
      `  generated code alone (mcp-gen minus runtime): types ${base.types - runtime.types}, ` +
        `instantiations ${base.instantiations - runtime.instantiations}; unproved: types ` +
        `${unproved.types - runtime.types}, instantiations ${unproved.instantiations - runtime.instantiations}`,
    );
}

await rm(ROOT, { recursive: true, force: true });
await buildPackage();
for (const count of TOOL_COUNTS) {
  const root = path.join(ROOT, String(count));
  await writeProjects(root, namesOf(count));
  for (const [compiler, tsc] of Object.entries(COMPILERS)) {
    // Round-robin (every project once per round), so load from other processes hits all projects alike.
    const runsOf: Record<string, Measure[]> = {};
    for (let round = 0; round < ROUNDS; round++)
      for (const [label, name] of Object.entries(projects))
        (runsOf[label] ??= []).push(measure(tsc, path.join(root, name)));
    const results: Record<string, Measure> = {};
    for (const label of Object.keys(projects)) {
      const runs = runsOf[label]!;
      results[label] = {
        check: median(runs.map((r) => r.check)),
        total: median(runs.map((r) => r.total)),
        peakMb: median(runs.map((r) => r.peakMb)),
        types: runs[0]!.types,
        instantiations: runs[0]!.instantiations,
      };
    }
    report(count, compiler, results);
  }
  await rm(root, { recursive: true, force: true });
}
await rm(ROOT, { recursive: true, force: true });
