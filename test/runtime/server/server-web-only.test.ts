/**
 * The server path (`McpServer`, sessions, both eras, multi round-trip `requestState`) uses web APIs only (issue 14):
 * bundled by esbuild for a neutral platform with nothing external, a `node:` import fails the build and a free use of
 * a Node-only global shows in the output. Constructing a server draws no random bytes and starts no timer.
 */
import { build } from "esbuild";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { McpServer } from "../../../runtime/server/server.ts";
import { builtinRevisions } from "../../../runtime/protocol/builtin-revisions.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const NODE_ONLY_GLOBALS = ["Buffer", "process", "setImmediate", "require", "global", "__dirname", "__filename"];

describe("the server path", () => {
  it("bundles for a neutral platform without node: modules or Node-only globals", async () => {
    const result = await build({
      entryPoints: [path.join(ROOT, "runtime/server/server.ts")],
      bundle: true,
      platform: "neutral",
      mainFields: ["module", "main"],
      format: "esm",
      write: false,
      metafile: true,
      logLevel: "silent",
      absWorkingDir: ROOT,
      define: Object.fromEntries(NODE_ONLY_GLOBALS.map((name) => [name, `__node_only_${name}`])),
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((file) => file.endsWith("runtime/server/session.ts"))).toBe(true);
    expect(inputs.some((file) => file.endsWith("runtime/server/request-state.ts"))).toBe(true);
    expect(inputs.filter((file) => file.startsWith("node:"))).toEqual([]);
    const text = result.outputFiles[0]!.text;
    expect(NODE_ONLY_GLOBALS.filter((name) => text.includes(`__node_only_${name}`))).toEqual([]);
  });

  it("draws no randomness and starts no timer when a server is constructed", () => {
    const random = vi.spyOn(globalThis.crypto, "getRandomValues");
    const timeout = vi.spyOn(globalThis, "setTimeout");
    const interval = vi.spyOn(globalThis, "setInterval");
    try {
      new McpServer({ revisions: builtinRevisions, info: { name: "quiet", version: "1" } });
      expect([random.mock.calls.length, timeout.mock.calls.length, interval.mock.calls.length]).toEqual([0, 0, 0]);
    } finally {
      random.mockRestore();
      timeout.mockRestore();
      interval.mockRestore();
    }
  });
});
