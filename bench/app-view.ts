/**
 * What an MCP Apps view costs in the browser: the generated typed view module of the apps example
 * (examples/apps/generated/view-forecast.ts with the app-view.ts it imports, every export kept), the example's whole
 * view script (views/forecast.ts: the module and its rendering), the view document as served (views/forecast.html),
 * and, beside them, the official ext-apps `App` class (the view side most views use today) bundled the same way.
 * Each is bundled by esbuild for the browser (minified ESM, everything inlined); minified and gzipped bytes.
 * `npx tsx bench/app-view.ts`; npm run bench runs it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const ROOT = path.resolve(import.meta.dirname, "..");

/** `source` (an ES module importing from the repository) bundled for the browser, minified: its text. */
async function minified(source: string): Promise<string> {
  const result = await build({
    stdin: { contents: source, resolveDir: ROOT, loader: "ts" },
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    write: false,
    legalComments: "none",
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

const rows: [string, string][] = [
  [
    "typed view module (view-forecast.ts + app-view.ts)",
    await minified('export * from "./examples/apps/generated/view-forecast.ts";'),
  ],
  ["example view script (views/forecast.ts, bundled)", await minified('import "./examples/apps/views/forecast.ts";')],
  [
    "example view document (views/forecast.html)",
    readFileSync(path.join(ROOT, "examples/apps/views/forecast.html"), "utf8"),
  ],
  [
    "ext-apps 2.0.4 App class (for comparison)",
    await minified('export { App } from "@modelcontextprotocol/ext-apps";'),
  ],
];

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
console.log("MCP Apps view sizes (esbuild, browser, minified ESM)");
console.log(`${"".padEnd(54)}${"minified".padStart(10)}${"gzip".padStart(10)}`);
for (const [name, text] of rows)
  console.log(`${name.padEnd(54)}${kb(Buffer.byteLength(text)).padStart(10)}${kb(gzipSync(text).length).padStart(10)}`);
