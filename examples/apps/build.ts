/**
 * Builds the apps example's browser code with esbuild: the forecast view (views/forecast.ts and the generated typed
 * view module it imports) into one HTML document, views/forecast.html, which `mcp-gen generate` embeds in
 * generated/views.ts; and the host page's script (host/host.ts, on ext-apps' AppBridge), which serve.ts serves.
 * `npx tsx examples/apps/build.ts` writes the view when it changed and generates again; `--check` fails when
 * views/forecast.html is not what it builds.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const HERE = import.meta.dirname;
export const VIEW_HTML = path.join(HERE, "views/forecast.html");

/** One browser script, minified, as text (no file written). */
export async function bundleForBrowser(entry: string, format: "esm" | "iife" = "esm"): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format,
    platform: "browser",
    target: "es2022",
    minify: true,
    write: false,
    legalComments: "none",
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

/** The view's document: views/forecast.template.html with the bundled view inlined as a module script. */
export async function buildViewHtml(): Promise<string> {
  const script = await bundleForBrowser(path.join(HERE, "views/forecast.ts"));
  // Inline, a script's text ends at the first "</script": the bundle must not hold one.
  if (/<\/script/i.test(script)) throw new Error("the view bundle contains </script and cannot be inlined");
  const template = readFileSync(path.join(HERE, "views/forecast.template.html"), "utf8");
  const [before, after] = template.split("/*BUNDLE*/");
  if (after === undefined) throw new Error("views/forecast.template.html has no /*BUNDLE*/ placeholder");
  return `${before}${script.trimEnd()}${after}`;
}

/** The host page's script (host/host.ts with AppBridge and the SDK client, for the browser). */
export const bundleHost = (): Promise<string> => bundleForBrowser(path.join(HERE, "host/host.ts"));

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const html = await buildViewHtml();
  const current = readFileSync(VIEW_HTML, "utf8") === html;
  const shown = path.relative(process.cwd(), VIEW_HTML);
  if (process.argv.includes("--check")) {
    if (!current) {
      process.stderr.write(`${shown} is stale: run npx tsx examples/apps/build.ts\n`);
      process.exit(1);
    }
  } else if (current) process.stdout.write(`${shown} is current\n`);
  else {
    // Written only when it changed (tests may read it meanwhile); views.ts embeds it, so generate again.
    writeFileSync(VIEW_HTML, html);
    process.stdout.write(`wrote ${shown} (${Buffer.byteLength(html)} bytes)\n`);
    const cli = path.join(HERE, "../../bin/mcp-gen.js");
    execFileSync(process.execPath, [cli, "generate", "-m", path.join(HERE, "mcp.yaml")], { stdio: "inherit" });
  }
}
