/**
 * Bundle sizes at the edge: the weather example bundled per platform (examples/{workers,deno,bun}) with esbuild as
 * test/edge deploys it (minified ESM, everything inlined), once as generated (every revision the runtime knows) and
 * once generated from its manifest with `server.revisions: [2025-11-25, 2026-07-28]` (the generated server passes
 * those two descriptors to `McpServer`, so only their bindings are bundled), next to the same server written
 * with the official SDK v2 and served by its `createMcpHandler` (@modelcontextprotocol/server). Prints minified and
 * gzipped sizes; what each runtime entry's main export costs alone; and, from esbuild's metafile, what the workerd
 * bundles hold per package and runtime folder (each revision's bindings apart), beside the target.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Metafile } from "esbuild";
import { bundle, type Platform } from "../test/edge/bundle.ts";

const ROOT = resolve(import.meta.dirname, "..");
const ENTRIES: Record<Platform, string> = {
  workerd: "examples/workers/worker.ts",
  deno: "examples/deno/server.ts",
  bun: "examples/bun/server.ts",
};

/** The weather server on SDK v2: the same tools, resource, template and prompt, served by `createMcpHandler`. */
const SDK_V2_WORKER = `
import { createMcpHandler, McpServer, ResourceTemplate } from "@modelcontextprotocol/server";
import * as z from "zod";

const forecast = z.object({ city: z.string(), units: z.enum(["metric", "imperial"]), days: z.array(z.object({
  date: z.iso.date(), high: z.number(), low: z.number(), conditions: z.enum(["sunny", "cloudy", "rain", "snow"]) })) });

const handler = createMcpHandler(() => {
  const server = new McpServer({ name: "weather-example", version: "1.0.0" }, { capabilities: { logging: {} } });
  server.registerTool("get_forecast", {
    description: "Daily forecast for a city, up to 7 days ahead.",
    inputSchema: z.object({ city: z.string().min(1), days: z.number().int().min(1).max(7).default(3),
      units: z.enum(["metric", "imperial"]).default("metric") }),
    outputSchema: forecast,
  }, async ({ city, days, units }) => ({ content: [], structuredContent: { city, units, days: Array.from({ length: days },
    (_, i) => ({ date: "2026-01-0" + (i + 1), high: 20, low: 12, conditions: "sunny" as const })) } }));
  server.registerTool("get_alerts", {
    inputSchema: z.object({ region: z.string().regex(/^[A-Z]{2}$/) }),
    outputSchema: z.object({ alerts: z.array(z.object({ severity: z.enum(["minor", "moderate", "severe"]),
      headline: z.string(), expires: z.iso.datetime().nullable().optional() })) }),
  }, async () => ({ content: [], structuredContent: { alerts: [] } }));
  server.registerTool("convert_temperature", {
    inputSchema: z.object({ value: z.number(), to: z.enum(["celsius", "fahrenheit"]) }),
  }, async ({ value, to }) => ({ content: [{ type: "text", text: String(to === "fahrenheit" ? value * 1.8 + 32 : (value - 32) / 1.8) }] }));
  server.registerResource("stations", "weather://stations", { mimeType: "application/json" },
    async (uri) => ({ contents: [{ uri: uri.href, text: "[]" }] }));
  server.registerResource("current_conditions", new ResourceTemplate("weather://{city}/current", { list: undefined }), {},
    async (uri) => ({ contents: [{ uri: uri.href, text: "{}" }] }));
  server.registerPrompt("plan_trip", { argsSchema: z.object({ city: z.string(), activity: z.string().optional() }) },
    async ({ city }) => ({ messages: [{ role: "user", content: { type: "text", text: "Plan a day in " + city } }] }));
  return server;
});

export default { fetch: (request: Request) => handler.fetch(request) };
`;

const TWO_REVISIONS = ["2025-11-25", "2026-07-28"];

/**
 * The weather manifest with `server.revisions` naming two revisions, generated into `folder` against this
 * repository's runtime sources (as the committed example is); returns its `index.ts`. Its `createServer` passes
 * those two descriptors to `McpServer`, exactly as a user's generated code does.
 */
function generateTwoRevisionWeather(folder: string): string {
  const manifest = readFileSync(join(ROOT, "examples/weather/mcp.yaml"), "utf8")
    .replace(/^server:\n/m, `server:\n  revisions: [${TWO_REVISIONS.join(", ")}]\n`)
    .replace(/runtimeImport: .*/, `runtimeImport: ${JSON.stringify(join(ROOT, "runtime/index.ts"))}`);
  writeFileSync(join(folder, "mcp.yaml"), manifest);
  try {
    execFileSync(process.execPath, [join(ROOT, "bin/mcp-gen.js"), "generate", "-m", join(folder, "mcp.yaml")], {
      stdio: "pipe",
    });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? String(error);
    throw new Error(`generating the two-revision weather server failed: ${stderr}`, { cause: error });
  }
  return join(folder, "generated/index.ts");
}

/** Issue 39's goal for the weather worker, printed beside the figures (never asserted: a benchmark figure). */
const TARGET_BYTES = 150 * 1024;

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

/** The part of the bundle an input belongs to: its package (`zod`, `@cfworker/json-schema`) or repository folder. */
function groupOf(input: string): string {
  const parts = input.replace(/^(\.\.\/)+/, "").split("/");
  const at = parts.lastIndexOf("node_modules");
  if (at >= 0) return parts.slice(at + 1, parts[at + 1]?.startsWith("@") ? at + 3 : at + 2).join("/");
  if (parts[0] === "runtime" && parts[1] === "generated") return parts.slice(0, 4).join("/");
  if (parts[0] === "runtime") return parts.slice(0, parts[1] === "http" && parts.length > 3 ? 3 : 2).join("/");
  if (parts.some((part) => part.startsWith("bench-"))) return "weather (generated + handlers)";
  if (parts[0] === "examples") return parts[1] === "weather" ? "weather (generated + handlers)" : parts.join("/");
  return parts.slice(0, 2).join("/");
}

/** Minified bytes per group (esbuild's metafile: bytes each input contributes to the output). */
function groupsOf(metafile: Metafile): Map<string, number> {
  const totals = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      if (bytesInOutput > 0) totals.set(groupOf(input), (totals.get(groupOf(input)) ?? 0) + bytesInOutput);
    }
  }
  return totals;
}

/** What each bundle holds, by package and runtime folder, one column per bundle (largest first by the first). */
function printHoldings(columns: ReadonlyArray<readonly [string, Metafile]>): void {
  const groups = columns.map(([, metafile]) => groupsOf(metafile));
  const names = [...new Set(groups.flatMap((g) => [...g.keys()]))].sort(
    (a, b) =>
      (groups[0]!.get(b) ?? 0) - (groups[0]!.get(a) ?? 0) || (groups[1]?.get(b) ?? 0) - (groups[1]?.get(a) ?? 0),
  );
  const cell = (bytes: number | undefined) => (bytes ? kb(bytes) : "–").padStart(12);
  console.log("\nwhat each workerd bundle holds (minified bytes before gzip, from esbuild's metafile):");
  console.log(`  ${"part".padEnd(46)}${columns.map(([title]) => title.padStart(12)).join("")}`);
  for (const name of names) console.log(`  ${name.padEnd(46)}${groups.map((g) => cell(g.get(name))).join("")}`);
}

/** Each runtime entry's main export alone in a worker bundle: what importing it costs before any server code. */
const ENTRY_EXPORTS: ReadonlyArray<readonly [string, string]> = [
  ["McpServer (@mcp-gen/runtime)", `import { McpServer } from "@mcp-gen/runtime"; export const s = McpServer;`],
  [
    "McpHttpHandler (@mcp-gen/runtime/http/web)",
    `import { McpHttpHandler } from "@mcp-gen/runtime/http/web"; export const h = McpHttpHandler;`,
  ],
  ["one revision (protocol/2025-11-25)", `export { revision } from "@mcp-gen/runtime/protocol/2025-11-25";`],
  ["builtinRevisions (@mcp-gen/runtime)", `export { builtinRevisions } from "@mcp-gen/runtime";`],
];

// Inside the repository (test/edge/.build is ignored by git) so that generated code resolves zod.
mkdirSync(join(ROOT, "test/edge/.build"), { recursive: true });
const work = mkdtempSync(join(ROOT, "test/edge/.build/bench-"));
try {
  mkdirSync(join(work, "out"));
  const twoRevisions = generateTwoRevisionWeather(work);
  const rows: [string, string, number, number][] = [];
  const workers: { all?: Metafile; two?: Metafile } = {};
  for (const platform of ["workerd", "deno", "bun"] as const) {
    const entry = join(ROOT, ENTRIES[platform]);
    const all = await bundle(entry, platform, join(work, "out", `${platform}-all.js`));
    rows.push([`mcp-gen weather, all revisions`, platform, all.bytes, all.gzipBytes]);
    const two = await bundle(entry, platform, join(work, "out", `${platform}-two.js`), {
      redirect: { "weather/generated/index.ts": twoRevisions },
    });
    if (!Object.keys(two.metafile.inputs).some((input) => input.includes("/bench-"))) {
      throw new Error("the two-revision bundle did not use the two-revision generated code");
    }
    const bundled = new Set<string>();
    for (const output of Object.values(two.metafile.outputs)) {
      for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
        const revision = /generated\/protocol\/([^/]+)\//.exec(input)?.[1];
        if (revision && bytesInOutput > 0) bundled.add(revision);
      }
    }
    if ([...bundled].sort().join() !== TWO_REVISIONS.join()) {
      throw new Error(`the two-revision bundle holds revisions ${[...bundled].sort().join(", ")}`);
    }
    rows.push([`mcp-gen weather, 2 revisions`, platform, two.bytes, two.gzipBytes]);
    if (platform === "workerd") Object.assign(workers, { all: all.metafile, two: two.metafile });
  }
  const sdk = await bundle({ contents: SDK_V2_WORKER, resolveDir: ROOT }, "workerd", join(work, "out", "sdk-v2.js"));
  rows.push(["SDK v2 createMcpHandler, same server", "workerd", sdk.bytes, sdk.gzipBytes]);

  console.log("edge bundles (esbuild, minified ESM, node:* external; gzip -9)");
  console.log(`${"server".padEnd(38)} ${"platform".padEnd(9)} ${"minified".padStart(9)} ${"gzip".padStart(7)}`);
  for (const [name, platform, bytes, gzip] of rows) {
    console.log(`${name.padEnd(38)} ${platform.padEnd(9)} ${kb(bytes).padStart(9)} ${kb(gzip).padStart(7)}`);
  }
  const alone: [string, number][] = [];
  for (const [name, contents] of ENTRY_EXPORTS) {
    const { bytes } = await bundle({ contents, resolveDir: ROOT }, "workerd", join(work, "out", "entry.js"));
    alone.push([name, bytes]);
  }
  console.log("\neach runtime entry's export alone in a workerd bundle (minified, with what it imports):");
  for (const [name, bytes] of alone) console.log(`  ${name.padEnd(44)} ${kb(bytes).padStart(7)}`);
  printHoldings([
    ["all revs", workers.all!],
    ["2 revisions", workers.two!],
    ["SDK v2", sdk.metafile],
  ]);
  console.log(`\ntarget for the weather worker with the revisions it serves: ≤ ${kb(TARGET_BYTES)} minified`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
