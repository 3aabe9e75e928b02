/**
 * Issue 21 item 4: `createServer(handlers, { capabilities })` merges the code's capabilities with the manifest's
 * switches (deep; the manifest's explicit `false` and its "no logging" survive unless the code sets them), where it
 * used to replace them. A generated server (sources of this checkout, no build) is asked what it declares.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runGenerate } from "../../generator/pipeline/run-generate.ts";
import { layerCapabilities, mergeCapabilities } from "../../runtime/protocol/capabilities.ts";

const REPO = path.resolve(import.meta.dirname, "../..");
let scratch: string;

interface Generated {
  createServer(
    handlers: unknown,
    options?: { capabilities?: Record<string, unknown> },
  ): {
    capabilities(): Record<string, unknown>;
  };
}
let generated: Generated;
const handlers = { tools: { ping: () => ({ content: [] }) } };

beforeAll(async () => {
  scratch = mkdtempSync(path.join(import.meta.dirname, ".scratch-capability-merge-"));
  const up = path.relative(scratch, REPO).split(path.sep).join("/");
  writeFileSync(
    path.join(scratch, "mcp.yaml"),
    `server: { name: merge, version: 1.0.0 }
capabilities:
  tools: { listChanged: false }
tools:
  - name: ping
generate:
  out: generated
  runtimeImport: ../${up}/runtime/index.ts
  importExtension: .ts
`,
  );
  const lines: string[] = [];
  const code = await runGenerate(
    { manifest: path.join(scratch, "mcp.yaml"), check: false },
    { out: (l) => lines.push(l), err: (l) => lines.push(l) },
  );
  if (code !== 0) throw new Error(lines.join("\n"));
  generated = (await import(path.join(scratch, "generated/index.ts"))) as Generated;
}, 120_000);

afterAll(() => {
  if (scratch && !process.env["KEEP"]) rmSync(scratch, { recursive: true, force: true });
});

describe("a generated server's capabilities", () => {
  it("are the manifest's switches without code capabilities", () => {
    expect(generated.createServer(handlers).capabilities()).toEqual({ tools: { listChanged: false } });
  });

  it("keep the manifest's switches when code adds a capability", () => {
    const server = generated.createServer(handlers, { capabilities: { experimental: { trace: {} } } });
    expect(server.capabilities()).toEqual({ tools: { listChanged: false }, experimental: { trace: {} } });
  });

  it("take what code sets explicitly, over the manifest's", () => {
    const server = generated.createServer(handlers, { capabilities: { tools: { listChanged: true }, logging: {} } });
    expect(server.capabilities()).toEqual({ tools: { listChanged: true }, logging: {} });
  });
});

describe("layerCapabilities", () => {
  it("merges deeply and keeps an `undefined` removal marker until a later part sets the key", () => {
    const manifest = { tools: { listChanged: false }, logging: undefined };
    expect(layerCapabilities(manifest, { tools: {}, experimental: {} })).toEqual({
      tools: { listChanged: false },
      logging: undefined,
      experimental: {},
    });
    expect(Object.hasOwn(layerCapabilities(manifest, undefined), "logging")).toBe(true);
    expect(layerCapabilities(manifest, { logging: {} })).toEqual({ tools: { listChanged: false }, logging: {} });
    // What the server then declares: the marker removes the derived capability.
    expect(mergeCapabilities({ logging: {}, tools: { listChanged: true } }, layerCapabilities(manifest))).toEqual({
      tools: { listChanged: false },
    });
  });
});
