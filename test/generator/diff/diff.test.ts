/**
 * `mcp-gen diff`: a golden file for `mcp-gen diff 2025-11-25 2026-07-28` (the CLI, end to end), its `--json` form
 * checked against generator/diff/diff.schema.json, and exact expectations on two small hand-written schemas.
 * Update the golden with `npm run test:update-golden` and review it.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { runDiff } from "../../../generator/commands/diff.ts";
import { diffModels } from "../../../generator/diff/compare.ts";
import { irPathOf, loadModel } from "../../../generator/diff/load.ts";
import { lowerSchema } from "../../../generator/lower/schema.ts";
import { CLI } from "../cli-run.ts";
import { expectGoldenFile } from "../golden-file.ts";

const run = promisify(execFile);
const repoRoot = path.resolve(import.meta.dirname, "../../..");
const golden = path.join(import.meta.dirname, "../golden/diff/2025-11-25..2026-07-28.txt");
const diffSchema = JSON.parse(readFileSync(path.join(repoRoot, "generator/diff/diff.schema.json"), "utf8")) as object;

function diffOutput(from: string, to: string, json: boolean): string {
  let out = "";
  runDiff({ from, to, json }, (text) => (out += text));
  return out;
}

describe("mcp-gen diff 2025-11-25 2026-07-28", () => {
  it("prints the golden text", async () => {
    const { stdout } = await run(process.execPath, [CLI, "diff", "2025-11-25", "2026-07-28"], {
      cwd: repoRoot,
    });
    await expectGoldenFile(stdout, golden);
  });

  it("--json matches diff.schema.json and says what the text says", () => {
    const json = JSON.parse(diffOutput("2025-11-25", "2026-07-28", true)) as {
      revision: { field: string; from: unknown; to: unknown }[];
      methods: { added: { method: string }[]; removed: { method: string }[] };
      types: { removed: string[] };
    };
    const validate = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(diffSchema);
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    // Facts of the spec, independent of the generator: 2026-07-28 drops the handshake for server/discover.
    expect(json.revision).toContainEqual({ field: "era", from: "handshake", to: "stateless" });
    expect(json.methods.added.map((m) => m.method)).toContain("server/discover");
    expect(json.methods.removed.map((m) => m.method)).toEqual(expect.arrayContaining(["initialize", "ping"]));
    expect(json.types.removed).toContain("URLElicitationRequiredError");
  });

  it("the schema rejects what the JSON form never holds", () => {
    const validate = new Ajv2020({ strict: true, allowUnionTypes: true }).compile(diffSchema);
    const json = JSON.parse(diffOutput("2025-11-25", "2026-07-28", true)) as Record<string, unknown>;
    expect(validate({ ...json, extra: 1 })).toBe(false);
    expect(validate({ ...json, from: { name: "a", version: "b", era: "other", batches: false } })).toBe(false);
  });

  it("a revision against itself has no changes", () => {
    const json = JSON.parse(diffOutput("2025-11-25", "2025-11-25", true)) as Record<string, unknown>;
    expect(json).toMatchObject({
      revision: [],
      methods: { added: [], removed: [], changed: [] },
      types: { added: [], removed: [], changed: [] },
    });
  });
});

describe("diff of two small schemas", () => {
  const base = `
export const LATEST_PROTOCOL_VERSION = "v1";
export interface Request { method: string; params?: { [key: string]: unknown } }
export interface Result { [key: string]: unknown }
export interface ServerCapabilities { things?: { subscribe?: boolean } }
export interface InitializeRequest extends Request { method: "initialize" }
export interface InitializeResult extends Result { version: string }
`;
  const a = lowerSchema({
    revision: "a",
    displayPath: "a/schema.ts",
    text: `${base}
export interface GetThingRequest extends Request { method: "things/get"; params: { id: string } }
export interface GetThingResult extends Result { name: string; size?: number }
export interface OldRequest extends Request { method: "old" }
export interface OldResult extends Result {}
export type ClientRequest = InitializeRequest | GetThingRequest | OldRequest;`,
  });
  const b = lowerSchema({
    revision: "b",
    displayPath: "b/schema.ts",
    text: `${base.replace('"v1"', '"v2"')}
export interface GetThingRequest extends Request { method: "things/get"; params: { id: string; deep?: boolean } }
export interface GetThingResult extends Result { name: string; size: number; ttlMs: number; cacheScope: string }
export type ServerRequest = GetThingRequest;
export interface NewNotification { method: "notifications/new" }
export type ClientRequest = InitializeRequest;
export type ServerNotification = NewNotification;`,
  });

  it("lists exactly the changes", () => {
    expect(diffModels(a, b)).toEqual({
      from: { name: "a", version: "v1", era: "handshake", batches: false },
      to: { name: "b", version: "v2", era: "handshake", batches: false },
      revision: [{ field: "version", from: "v1", to: "v2" }],
      methods: {
        added: [
          {
            method: "notifications/new",
            kind: "notification",
            direction: "serverToClient",
            delivery: "message",
            capability: null,
            params: null,
            result: null,
            facts: [],
          },
        ],
        removed: [
          {
            method: "old",
            kind: "request",
            direction: "clientToServer",
            delivery: "message",
            capability: null,
            params: "{ [key: string]: unknown; }",
            result: "OldResult",
            facts: [],
          },
        ],
        changed: [
          {
            method: "things/get",
            changes: [
              { field: "direction", from: "clientToServer", to: "serverToClient" },
              { field: "capability", from: "server:things", to: null },
              { field: "params.deep", from: null, to: "boolean (optional)" },
              { field: "cacheable", from: false, to: true },
            ],
          },
        ],
      },
      types: {
        added: ["NewNotification", "ServerNotification", "ServerRequest"],
        removed: ["OldRequest", "OldResult"],
        changed: [
          {
            name: "ClientRequest",
            changes: [
              { field: "type", from: "InitializeRequest | GetThingRequest | OldRequest", to: "InitializeRequest" },
            ],
          },
          {
            name: "GetThingRequest",
            changes: [{ field: "property params.deep", from: null, to: "boolean (optional)" }],
          },
          {
            name: "GetThingResult",
            changes: [
              { field: "property cacheScope", from: null, to: "string" },
              { field: "property size", from: "number (optional)", to: "number" },
              { field: "property ttlMs", from: null, to: "number" },
            ],
          },
        ],
      },
    });
  });
});

describe("params written inline in one revision and named in the next", () => {
  const schema = (params: string, extra = "") =>
    lowerSchema({
      revision: "r",
      displayPath: "r/schema.ts",
      text: `export interface Request { method: string; params?: { [key: string]: unknown } }
export interface Result { [key: string]: unknown }
export interface InitializeRequest extends Request { method: "initialize"; params: ${params} }
export interface InitializeResult extends Result {}
export type ClientRequest = InitializeRequest;${extra}`,
    });

  it("are no change when the structure is the same", () => {
    const named = schema("InitializeRequestParams", "\nexport interface InitializeRequestParams { v: string }");
    expect(diffModels(schema("{ v: string }"), named).methods.changed).toEqual([]);
  });

  it("report the naming and what differs inside", () => {
    const named = schema("InitializeRequestParams", "\nexport interface InitializeRequestParams { v: number }");
    expect(diffModels(schema("{ v: string }"), named).methods.changed).toEqual([
      {
        method: "initialize",
        changes: [
          { field: "params", from: "(inline)", to: "InitializeRequestParams" },
          { field: "params.v", from: "string", to: "number" },
        ],
      },
    ]);
  });
});

describe("diff arguments", () => {
  it("name a built-in revision, a generated folder or an ir.json file", () => {
    const file = path.join(repoRoot, "runtime/generated/protocol/2025-06-18/ir.json");
    expect(irPathOf("2025-06-18")).toBe(file);
    expect(irPathOf("runtime/generated/protocol/2025-06-18", repoRoot)).toBe(file);
    expect(irPathOf(file)).toBe(file);
    expect(loadModel("2025-06-18").protocol.era).toBe("handshake");
  });

  it("anything else is an error naming the argument", () => {
    expect(() => irPathOf("1999-01-01")).toThrow(/^1999-01-01: not a built-in revision/);
    expect(() => irPathOf("generator", repoRoot)).toThrow(/^generator: no ir.json in this folder/);
    expect(() => loadModel(path.join(repoRoot, "package.json"))).toThrow(/not an mcp-gen ir.json/);
  });
});
