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
import { bundle, revisionsOf } from "./bundle.ts";

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
