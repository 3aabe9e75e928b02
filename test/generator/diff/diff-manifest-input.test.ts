/**
 * `mcp-gen diff` for a manifest, through the real CLI in temp projects outside the repository: a revision the user
 * generated (`{ bindings: <folder> }`) regenerated from an edited schema.ts shows what its server meets now; bad
 * input (missing or invalid manifest, never generated, a record without or with a broken surface, odd arguments)
 * is one line on stderr and exit code 1, never a stack trace.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, type CliRun } from "../cli-run.ts";

/** Exit 1, nothing on stdout, one `mcp-gen: …` line on stderr containing every `parts`. */
function expectRefused(run: CliRun, ...parts: string[]): void {
  expect(run.code).toBe(1);
  expect(run.stdout).toBe("");
  const lines = run.stderr.trimEnd().split("\n");
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^mcp-gen: /);
  for (const part of parts) expect(lines[0]).toContain(part);
}

/** A small revision of the user's own: handshake era (it has initialize), tools/list gated by the tools capability. */
const DRAFT_1 = `export const LATEST_PROTOCOL_VERSION = "draft-1";
export interface Request { method: string; params?: { [key: string]: unknown } }
export interface Result { [key: string]: unknown }
export interface ServerCapabilities { tools?: { listChanged?: boolean }; things?: { subscribe?: boolean } }
export interface InitializeRequest extends Request { method: "initialize" }
export interface InitializeResult extends Result { protocolVersion: string }
export interface ListToolsRequest extends Request { method: "tools/list" }
export interface ListToolsResult extends Result { tools: { name: string }[] }
export type ClientRequest = InitializeRequest | ListToolsRequest;
`;

/** The next draft: a new wire version, a new method behind a capability this server lacks, a richer result. */
const DRAFT_2 = DRAFT_1.replace('"draft-1"', '"draft-2"')
  .replace("tools: { name: string }[]", "tools: { name: string; title?: string }[]")
  .replace(
    "export type ClientRequest = InitializeRequest | ListToolsRequest;",
    `export interface GetThingRequest extends Request { method: "things/get"; params: { id: string } }
export interface GetThingResult extends Result { id: string }
export type ClientRequest = InitializeRequest | ListToolsRequest | GetThingRequest;`,
  );

const MANIFEST = `server:
  name: drafts
  version: 1.0.0
  revisions: [{ bindings: ./protocol/draft }]
tools:
  - { name: echo, inputSchema: { type: object, properties: { text: { type: string } } } }
`;

const dirs: string[] = [];
async function project(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "mcp-gen-diff-input-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
  return dir;
}

afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe("a user's revision regenerated from an edited schema.ts", () => {
  let json: Record<string, unknown>;
  beforeAll(async () => {
    const dir = await project({ "spec/schema.ts": DRAFT_1, "mcp.yaml": MANIFEST });
    const protocol = ["protocol", "--schema", "spec/schema.ts", "--revision", "draft", "--out", "protocol/draft"];
    expect((await cli(dir, ...protocol)).code).toBe(0);
    expect((await cli(dir, "generate")).code).toBe(0);
    await writeFile(path.join(dir, "spec/schema.ts"), DRAFT_2);
    expect((await cli(dir, ...protocol)).code).toBe(0);
    const run = await cli(dir, "diff", "--json");
    expect(run.stderr).toBe("");
    json = JSON.parse(run.stdout) as Record<string, unknown>;
  });

  it("shows the version change, the new method (never met: no things capability) and the changed result", () => {
    expect(json["unchanged"]).toBe(false);
    expect(json["tools"]).toEqual({ added: [], removed: [], changed: [] });
    const revisions = json["revisions"] as { added: unknown[]; removed: unknown[]; updated: Record<string, unknown>[] };
    expect(revisions.added).toEqual([]);
    expect(revisions.removed).toEqual([]);
    expect(revisions.updated).toHaveLength(1);
    const [update] = revisions.updated;
    expect(update).toMatchObject({ name: "draft", comparedWith: "draft", schemaChanged: true });
    expect(update!["revision"]).toEqual([{ field: "version", from: "draft-1", to: "draft-2" }]);
    expect(update!["methods"]).toMatchObject({
      added: [{ method: "things/get", kind: "request", capability: "server:things", served: false }],
      removed: [],
      changed: [{ method: "tools/list", served: true, changes: [{ field: "result", from: "ListToolsResult" }] }],
    });
  });
});

describe("bad input", () => {
  it("a missing manifest", async () => {
    const dir = await project({});
    expectRefused(await cli(dir, "diff", "--manifest", "nope.yaml"), "nope.yaml", "manifest not found");
    expectRefused(await cli(dir, "diff"), "mcp.yaml", "manifest not found");
  });

  it("a manifest never generated", async () => {
    const dir = await project({ "mcp.yaml": MANIFEST.replace(/ {2}revisions: .*\n/, "") });
    expectRefused(await cli(dir, "diff"), "never generated", "mcp-gen generate");
    expectRefused(await cli(dir, "diff", "--out", "elsewhere"), "never generated", "elsewhere");
  });

  it("an invalid manifest: its position", async () => {
    const dir = await project({ "mcp.yaml": "server:\n  name: x\n  version: [1\n" });
    const run = await cli(dir, "diff");
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^mcp-gen: mcp\.yaml:\d+:\d+: /);
    expect(run.stderr).not.toContain("    at ");
  });

  it("a record without a surface (an earlier mcp-gen) or with a broken one", async () => {
    const dir = await project({ "mcp.yaml": MANIFEST.replace(/ {2}revisions: .*\n/, "") });
    expect((await cli(dir, "generate")).code).toBe(0);
    const recordPath = path.join(dir, "generated/.mcp-gen.json");
    const record = JSON.parse(await readFile(recordPath, "utf8")) as Record<string, unknown>;
    const { surface, ...older } = record;
    expect(surface).toBeTypeOf("object");
    await writeFile(recordPath, JSON.stringify(older));
    expectRefused(await cli(dir, "diff"), "recorded no surface", "regenerate");
    await writeFile(recordPath, JSON.stringify({ ...older, surface: { tools: "many" } }));
    expectRefused(await cli(dir, "diff"), "not one this mcp-gen can read");
    await writeFile(recordPath, JSON.stringify({ ...record, manifest: "../other.yaml" }));
    expectRefused(await cli(dir, "diff"), "holds the output of another manifest (../other.yaml)");
    await writeFile(recordPath, "{ not json");
    expectRefused(await cli(dir, "diff"), "not an mcp-gen outputs record");
  });

  it("arguments that do not name one comparison", async () => {
    const dir = await project({ "mcp.yaml": MANIFEST });
    expectRefused(await cli(dir, "diff", "2025-11-25"), "two revisions or two manifests");
    expectRefused(await cli(dir, "diff", "mcp.yaml", "2025-11-25"), "two manifests or two revisions");
    expectRefused(await cli(dir, "diff", "2025-11-25", "2026-07-28", "--manifest", "mcp.yaml"), "without positionals");
  });
});
