/**
 * The examples as deployed to the edge: bundled with esbuild per platform, each bundle copied alone into an empty
 * folder and run under workerd (module-scope handler, compatibility date only), Deno and Bun (`--no-install`); the
 * official SDK v1 and v2 clients list and call every tool (including inputs only the JSON Schema check rejects),
 * read resources and answer sampling and elicitation. A bundle that imports a `node:` module or a platform that
 * refuses the bundle fails with the platform's own output.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildErrorsOf, bundle, nodeImportsOf, type Bundle, type Platform } from "./bundle.ts";
import { CLIENTS } from "./clients.ts";
import { start, type Running } from "./platforms.ts";
import { APPS } from "./scenarios.ts";

const ROOT = resolve(import.meta.dirname, "../..");
// Bundles go to a temporary folder: nothing built is left in the repository.
const OUT = mkdtempSync(join(tmpdir(), "mcp-edge-bundles-"));
afterAll(() => rmSync(OUT, { recursive: true, force: true }));
const PLATFORMS: readonly Platform[] = ["workerd", "deno", "bun"];

it("the signup example's generated code is up to date", () => {
  // Throws (exit 1, naming each stale file) when test/edge/app/mcp.yaml changed without regenerating.
  execFileSync(process.execPath, ["bin/mcp-gen.js", "generate", "-m", "test/edge/app/mcp.yaml", "--check"], {
    cwd: ROOT,
    stdio: "pipe",
  });
});

describe.each(
  APPS.flatMap((app) => PLATFORMS.map((platform) => [`${app.name} on ${platform}`, app, platform] as const)),
)("%s", (_, app, platform) => {
  let built: Bundle;
  let running: Running | undefined;
  let startError: unknown;

  beforeAll(async () => {
    built = await bundle(join(ROOT, app.entries[platform]), platform, join(OUT, `${app.name}-${platform}.js`));
    try {
      running = await start(platform, built.file);
    } catch (error) {
      startError = error;
    }
  });
  afterAll(async () => {
    await running?.stop();
  });

  it("bundles without node: imports", () => {
    expect(nodeImportsOf(built.metafile), "the web path imports Node-only modules").toEqual([]);
  });

  it("bundles with nothing marked external but the platform's own modules", async () => {
    const strict = join(OUT, `${app.name}-${platform}-strict.js`);
    const failure = await bundle(join(ROOT, app.entries[platform]), platform, strict, { nodeExternal: false }).then(
      () => "",
      buildErrorsOf,
    );
    // A `node:` import anywhere in the import graph fails a web bundle, even where tree shaking would drop it.
    expect(failure, "esbuild could not bundle the entry for the web").toBe("");
  });

  it.each(CLIENTS)("%s: every tool, resources, prompts, sampling and elicitation", async (_, connect) => {
    if (!running) throw new Error(`${platform} did not serve the bundle: ${String(startError)}`);
    const client = await connect(running.urls[0]!);
    try {
      // The worker serves statelessly (sessions: false): the 2025 era cannot ask the client there.
      await app.run(client, platform === "workerd" && client.name === "SDK v1" ? "refused" : "answered");
    } catch (error) {
      throw new Error(`${client.name} on ${platform}: ${String(error)}\n${running.output()}`, { cause: error });
    } finally {
      await client.close();
    }
  });
});
