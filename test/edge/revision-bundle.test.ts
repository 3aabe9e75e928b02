/**
 * A server configured with revision descriptors bundles those revisions' bindings and no other: esbuild's metafile
 * says how many bytes of each source file the bundle holds, and no file of another generated revision may be among
 * them. A server given `builtinRevisions` is bundled too, so the check is known to see them all.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { bundle, nodeImportsOf, revisionsOf } from "./bundle.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const ALL = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];
const CHOSEN = ["2025-11-25", "2026-07-28"];

mkdirSync(join(ROOT, "test/edge/.build"), { recursive: true });
const work = mkdtempSync(join(ROOT, "test/edge/.build/revisions-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A worker serving `revisions` (a source expression), built at module scope like examples/workers. */
function worker(imports: string, serverClass: string, revisions: string): string {
  return `
${imports}
import { ${serverClass} } from "./runtime/index.ts";
import { McpHttpHandler, toFetchHandler } from "./runtime/http/web-entry.ts";
const server = new ${serverClass}({ info: { name: "two", version: "1.0.0" }${revisions} });
export default { fetch: toFetchHandler(new McpHttpHandler(server, { sessions: false })) };
`;
}

/** The generated revisions whose files are in a bundle, from its metafile. */
async function bundledRevisions(name: string, contents: string): Promise<string[]> {
  const { metafile } = await bundle({ contents, resolveDir: ROOT }, "workerd", join(work, `${name}.js`), {
    minify: false,
  });
  return revisionsOf(metafile);
}

describe("revisions in a bundle", () => {
  it("holds only the descriptors a McpServer is given", async () => {
    const imports = CHOSEN.map(
      (r, i) => `import { revision as r${i} } from "./runtime/generated/protocol/${r}/index.ts";`,
    );
    const source = worker(imports.join("\n"), "McpServer", `, revisions: [r0, r1]`);
    expect(await bundledRevisions("two", source)).toEqual(CHOSEN);
  }, 60_000);

  it("holds only the descriptors a McpClient is given", async () => {
    const imports = CHOSEN.map(
      (r, i) => `import { revision as r${i} } from "./runtime/generated/protocol/${r}/index.ts";`,
    );
    const source = `${imports.join("\n")}
import { McpClient } from "./runtime/index.ts";
import { StreamableHttpClientTransport } from "./runtime/http/index.ts";
export const client = new McpClient({ info: { name: "c", version: "1.0.0" }, revisions: [r0, r1] });
export const connect = (url: string) => client.connect(new StreamableHttpClientTransport(new URL(url)));
`;
    expect(await bundledRevisions("client", source)).toEqual(CHOSEN);
    // The HTTP client reaches node:http only through process.getBuiltinModule on Node: the web bundle imports none.
    const { metafile } = await bundle({ contents: source, resolveDir: ROOT }, "workerd", join(work, "client-node.js"));
    expect(nodeImportsOf(metafile)).toEqual([]);
  }, 60_000);

  it("holds every built-in revision for a McpServer given builtinRevisions", async () => {
    const imports = 'import { builtinRevisions } from "./runtime/index.ts";';
    expect(await bundledRevisions("all", worker(imports, "McpServer", ", revisions: builtinRevisions"))).toEqual(ALL);
  }, 60_000);

  it("keeps no revision's module namespace for builtinRevisions, only what its descriptors reach", async () => {
    // A namespace object (`import * as r from "./<rev>/index.ts"` kept alive by code that runs at module scope)
    // holds every export of that revision, and esbuild emits it as code in the revision's index.ts.
    const imports = 'import { builtinRevisions } from "./runtime/index.ts";';
    const source = worker(imports, "McpServer", ", revisions: builtinRevisions");
    const { metafile } = await bundle({ contents: source, resolveDir: ROOT }, "workerd", join(work, "all-ns.js"));
    const namespaces = Object.values(metafile.outputs).flatMap((output) =>
      Object.entries(output.inputs)
        .filter(
          ([input, { bytesInOutput }]) => /generated\/protocol\/[^/]+\/index\.ts$/.test(input) && bytesInOutput > 0,
        )
        .map(([input]) => input),
    );
    expect(namespaces).toEqual([]);
  }, 60_000);

  it("imports only @mcp-gen/runtime with one descriptor: the bundle holds that revision and registers nothing", async () => {
    const source = `
import { McpServer } from "@mcp-gen/runtime";
import { McpHttpHandler, toFetchHandler } from "@mcp-gen/runtime/http/web";
import { revision } from "@mcp-gen/runtime/protocol/2025-11-25";
export const server = new McpServer({ info: { name: "one", version: "1.0.0" }, revisions: [revision] });
export default { fetch: toFetchHandler(new McpHttpHandler(server)) };
`;
    const { metafile, file } = await bundle({ contents: source, resolveDir: ROOT }, "workerd", join(work, "one.js"), {
      minify: false,
    });
    expect(revisionsOf(metafile)).toEqual(["2025-11-25"]);
    // Nothing in it writes to globalThis, and loaded, its server serves exactly the descriptor it was given.
    const text = readFileSync(file, "utf8");
    expect(text).not.toMatch(/globalThis\.[A-Za-z_$][\w$]*\s*=/);
    const first = (await import(pathToFileURL(file).href)) as { server: { versions: readonly string[] } };
    expect(first.server.versions).toEqual(["2025-11-25"]);
  }, 60_000);
});
