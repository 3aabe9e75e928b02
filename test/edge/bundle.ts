/**
 * Bundles an edge entry with esbuild the way a user deploying it would: one minified ESM file, everything inlined.
 * `node:*` stays external so that a Node-only import on the web path shows up as an `import … from "node:…"` in the
 * bundle (which `nodeImportsOf` lists) instead of a resolution error that hides every other problem.
 */
import { build, type Metafile } from "esbuild";
import { gzipSync } from "node:zlib";
import { readFileSync } from "node:fs";

export type Platform = "workerd" | "deno" | "bun";

/** Package `exports` conditions each platform's bundler setup uses (wrangler's for workerd). */
const CONDITIONS: Record<Platform, string[]> = {
  workerd: ["workerd", "worker", "browser"],
  deno: ["deno", "browser"],
  bun: ["bun", "browser"],
};

export type Bundle = {
  readonly file: string;
  readonly bytes: number;
  readonly gzipBytes: number;
  readonly metafile: Metafile;
};

export async function bundle(entry: string, platform: Platform, outfile: string, minify = true): Promise<Bundle> {
  const result = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    mainFields: ["module", "main"],
    conditions: CONDITIONS[platform],
    external: ["node:*", ...(platform === "workerd" ? ["cloudflare:*"] : [])],
    minify,
    metafile: true,
    logLevel: "silent",
  });
  const text = readFileSync(outfile);
  return { file: outfile, bytes: text.length, gzipBytes: gzipSync(text, { level: 9 }).length, metafile: result.metafile };
}

/** The `node:` modules the bundle still imports (after tree shaking), e.g. `node:crypto`. */
export function nodeImportsOf(metafile: Metafile): string[] {
  const imports = Object.values(metafile.outputs).flatMap((output) => output.imports.map((i) => i.path));
  return [...new Set(imports.filter((path) => path.startsWith("node:")))].sort();
}
