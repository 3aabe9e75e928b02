/**
 * A *generated* server bundles the revisions its manifest names and no other (issue 14): the edge app's manifest
 * names two, and its worker's bundle holds those two revisions' bindings; the weather manifest names none, and its
 * worker's bundle holds every built-in revision. The expected lists come from the manifests, read here as YAML.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { SUPPORTED_REVISIONS } from "../../runtime/index.ts";
import { bundle, revisionsOf, zodModulesOf } from "./bundle.ts";

const ROOT = resolve(import.meta.dirname, "../..");

mkdirSync(join(ROOT, "test/edge/.build"), { recursive: true });
const work = mkdtempSync(join(ROOT, "test/edge/.build/generated-revisions-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function manifestRevisions(manifest: string): string[] | undefined {
  const parsed = parse(readFileSync(join(ROOT, manifest), "utf8")) as { server: { revisions?: unknown[] } };
  return parsed.server.revisions?.map(String);
}

/** The generated revisions an entry's bundle holds bytes of, from esbuild's metafile. */
async function bundledRevisions(entry: string, name: string): Promise<string[]> {
  const { metafile } = await bundle(join(ROOT, entry), "workerd", join(work, `${name}.js`), { minify: false });
  return revisionsOf(metafile);
}

describe("zod in a generated server's bundle", () => {
  // The validators use zod/mini so that bundles keep only what they use: no classic zod (whose schemas carry every
  // method), no locale but the English one the runtime sets, and not all of zod core (reading `z.core.x` through
  // the namespace once kept all of it: 402 KB of zod instead of 41 KB).
  it("holds zod/mini and the parts of zod core it uses, with the English locale only", async () => {
    const { metafile } = await bundle(join(ROOT, "test/edge/app/worker.ts"), "workerd", join(work, "zod.js"), {
      minify: false,
    });
    const modules = zodModulesOf(metafile);
    expect(modules.some((m) => m.startsWith("v4/mini/"))).toBe(true);
    expect(modules.filter((m) => m.startsWith("v4/classic/"))).toEqual([]);
    expect(modules.filter((m) => m.startsWith("v4/locales/"))).toEqual(["v4/locales/en.js"]);
    // zod core's JSON Schema conversion is never used by a server's validators.
    expect(modules.filter((m) => /json-schema/.test(m))).toEqual([]);
  }, 60_000);
});

describe("revisions in a generated server's bundle", () => {
  it("the manifest's revisions only, when it names some", async () => {
    const named = manifestRevisions("test/edge/app/mcp.yaml");
    expect(named).toHaveLength(2);
    expect(await bundledRevisions("test/edge/app/worker.ts", "edge-app")).toEqual([...named!].sort());
  }, 60_000);

  it("every built-in revision, when it names none", async () => {
    expect(manifestRevisions("examples/weather/mcp.yaml")).toBeUndefined();
    expect(await bundledRevisions("examples/workers/worker.ts", "weather")).toEqual([...SUPPORTED_REVISIONS].sort());
  }, 60_000);
});
