/**
 * Bundle sizes at the edge: the weather example bundled per platform (examples/{workers,deno,bun}) with esbuild as
 * test/edge deploys it (minified ESM, everything inlined), once as generated (every revision the runtime knows) and
 * once generated from its manifest with `server.revisions: [2025-11-25, 2026-07-28]` (the generated server passes
 * those two descriptors to `McpServer`, so only their bindings are bundled), next to the same server written
 * with the official SDK v2 and served by its `createMcpHandler` (@modelcontextprotocol/server). Prints minified and
 * gzipped sizes.
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

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

/** Where the two-revision worker's bytes come from: minified bytes per package or repository folder. */
function printContributors(metafile: Metafile) {
  const totals = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const parts = input.replace(/^(\.\.\/)+/, "").split("/");
      const at = parts.lastIndexOf("node_modules");
      const group =
        at >= 0
          ? parts.slice(at + 1, parts[at + 1]?.startsWith("@") ? at + 3 : at + 2).join("/")
          : parts.slice(0, parts[0] === "generated" ? 3 : 2).join("/");
      totals.set(group, (totals.get(group) ?? 0) + bytesInOutput);
    }
  }
  const top = [...totals].sort((a, b) => b[1] - a[1]).slice(0, 8);
  console.log("\nlargest parts of the 2-revision worker (minified bytes before gzip):");
  for (const [group, bytes] of top) console.log(`  ${group.padEnd(36)} ${kb(bytes).padStart(7)}`);
}

// Inside the repository (test/edge/.build is ignored by git) so that generated code resolves zod.
mkdirSync(join(ROOT, "test/edge/.build"), { recursive: true });
const work = mkdtempSync(join(ROOT, "test/edge/.build/bench-"));
try {
  mkdirSync(join(work, "out"));
  const twoRevisions = generateTwoRevisionWeather(work);
  const rows: [string, string, number, number][] = [];
  let heaviest: Metafile | undefined;
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
    if (platform === "workerd") heaviest = two.metafile;
  }
  const sdk = await bundle({ contents: SDK_V2_WORKER, resolveDir: ROOT }, "workerd", join(work, "out", "sdk-v2.js"));
  rows.push(["SDK v2 createMcpHandler, same server", "workerd", sdk.bytes, sdk.gzipBytes]);

  console.log("edge bundles (esbuild, minified ESM, node:* external; gzip -9)");
  console.log(`${"server".padEnd(38)} ${"platform".padEnd(9)} ${"minified".padStart(9)} ${"gzip".padStart(7)}`);
  for (const [name, platform, bytes, gzip] of rows) {
    console.log(`${name.padEnd(38)} ${platform.padEnd(9)} ${kb(bytes).padStart(9)} ${kb(gzip).padStart(7)}`);
  }
  if (heaviest) printContributors(heaviest);
} finally {
  rmSync(work, { recursive: true, force: true });
}
