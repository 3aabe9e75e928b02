/**
 * What a page loads of MCP Apps (`@mcp-gen/runtime/apps`: the host, its CSP, the client extension) uses web APIs only:
 * bundled by esbuild for the browser with nothing external, a `node:` import fails the build and a free use of a
 * Node-only global shows in the output.
 */
import { build } from "esbuild";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const NODE_ONLY_GLOBALS = ["Buffer", "process", "setImmediate", "require", "global", "__dirname", "__filename"];

describe("the MCP Apps entry", () => {
  it("bundles for the browser without node: modules or Node-only globals", { timeout: 60_000 }, async () => {
    const result = await build({
      stdin: {
        contents: 'export { AppHost, appsClient, frameViewPort, viewCsp } from "@mcp-gen/runtime/apps";',
        resolveDir: ROOT,
        loader: "ts",
      },
      bundle: true,
      platform: "browser",
      conditions: ["@mcp-gen/source"],
      format: "esm",
      write: false,
      metafile: true,
      logLevel: "silent",
      absWorkingDir: ROOT,
      define: Object.fromEntries(NODE_ONLY_GLOBALS.map((name) => [name, `__node_only_${name}`])),
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((file) => file.endsWith("runtime/apps/host/host.ts"))).toBe(true);
    expect(inputs.some((file) => file.endsWith("runtime/apps/host/session.ts"))).toBe(true);
    expect(inputs.filter((file) => file.startsWith("node:"))).toEqual([]);
    const text = result.outputFiles[0]!.text;
    expect(NODE_ONLY_GLOBALS.filter((name) => text.includes(`__node_only_${name}`))).toEqual([]);
  });
});
