/**
 * Bundles an edge entry with esbuild the way a user deploying it would: one minified ESM file, everything inlined.
 * By default `node:*` stays external so that a Node-only import on the web path shows up as an `import … from
 * "node:…"` in the bundle (which `nodeImportsOf` lists) instead of a resolution error that hides every other problem.
 */
import { build, type Metafile } from "esbuild";
import { gzipSync } from "node:zlib";
import { readFileSync } from "node:fs";

export type Platform = "workerd" | "deno" | "bun";

/**
 * Package `exports` conditions each platform's bundler setup uses (wrangler's for workerd), plus this repository's
 * `@mcp-gen/source`: `@mcp-gen/runtime` (the workspace's runtime/) is bundled from its sources, not a build.
 */
const CONDITIONS: Record<Platform, string[]> = {
  workerd: ["@mcp-gen/source", "workerd", "worker", "browser"],
  deno: ["@mcp-gen/source", "deno", "browser"],
  bun: ["@mcp-gen/source", "bun", "browser"],
};

export type Bundle = {
  readonly file: string;
  readonly bytes: number;
  readonly gzipBytes: number;
  readonly metafile: Metafile;
};

/** A file to bundle, or source text resolved from `resolveDir` (e.g. a benchmark's entry written inline). */
export type Entry = string | { readonly contents: string; readonly resolveDir: string };

export type BundleOptions = {
  readonly minify?: boolean;
  /**
   * Leave `node:*` imports unresolved (default true) so that the bundle builds and `nodeImportsOf` can list what is
   * left after tree shaking; false bundles as a user would for the web, where any `node:` import anywhere in the
   * import graph (even one tree shaking would drop) fails the build.
   */
  readonly nodeExternal?: boolean;
  /** Imports to redirect: a specifier ending with the key resolves to the value (an absolute path). */
  readonly redirect?: Readonly<Record<string, string>>;
};

export async function bundle(
  entry: Entry,
  platform: Platform,
  outfile: string,
  options: BundleOptions = {},
): Promise<Bundle> {
  const redirect = Object.entries(options.redirect ?? {});
  const result = await build({
    ...(typeof entry === "string"
      ? { entryPoints: [entry] }
      : { stdin: { contents: entry.contents, resolveDir: entry.resolveDir, loader: "ts", sourcefile: "entry.ts" } }),
    outfile,
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    mainFields: ["module", "main"],
    conditions: CONDITIONS[platform],
    external: [
      ...(options.nodeExternal === false ? [] : ["node:*"]),
      ...(platform === "workerd" ? ["cloudflare:*"] : []),
    ],
    minify: options.minify ?? true,
    metafile: true,
    logLevel: "silent",
    plugins: [
      {
        name: "redirect",
        setup(builder) {
          builder.onResolve({ filter: /.*/ }, (args) => {
            const target = redirect.find(([suffix]) => args.path.endsWith(suffix));
            return target ? { path: target[1] } : undefined;
          });
        },
      },
    ],
  });
  const text = readFileSync(outfile);
  return {
    file: outfile,
    bytes: text.length,
    gzipBytes: gzipSync(text, { level: 9 }).length,
    metafile: result.metafile,
  };
}

/** esbuild's errors as `file:line: text` lines (what a failed build reports), or the error itself. */
export function buildErrorsOf(error: unknown): string {
  const errors = (error as { errors?: { text: string; location?: { file: string; line: number } | null }[] }).errors;
  if (!errors) return String(error);
  return errors.map((e) => `${e.location ? `${e.location.file}:${e.location.line}: ` : ""}${e.text}`).join("\n");
}

/** The `node:` modules the bundle still imports (after tree shaking), e.g. `node:crypto`. */
export function nodeImportsOf(metafile: Metafile): string[] {
  const imports = Object.values(metafile.outputs).flatMap((output) => output.imports.map((i) => i.path));
  return [...new Set(imports.filter((path) => path.startsWith("node:")))].sort();
}

/**
 * The first capture of `pattern` over every file the bundle holds bytes of, sorted and unique. `inputs` lists every
 * file esbuild read, tree-shaken ones too; an output's inputs are those it holds bytes of.
 */
function bundledInputs(metafile: Metafile, pattern: RegExp): string[] {
  const found = new Set<string>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const match = pattern.exec(input);
      if (match?.[1] && bytesInOutput > 0) found.add(match[1]);
    }
  }
  return [...found].sort();
}

/** The generated protocol revisions whose files the bundle holds bytes of. */
export function revisionsOf(metafile: Metafile): string[] {
  return bundledInputs(metafile, /generated\/protocol\/([^/]+)\//);
}

/** The zod modules the bundle holds bytes of, as paths inside the zod package (`v4/mini/schemas.js`, …). */
export function zodModulesOf(metafile: Metafile): string[] {
  return bundledInputs(metafile, /node_modules\/zod\/(.+)$/);
}
