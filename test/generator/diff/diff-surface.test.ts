/**
 * `diffSurfaces` on hand-written surfaces (no lowering, no files): exact expectations for revisions removed, moved
 * to a bindings folder, updated without a schema change, and the `unchanged` flag; the JSON form keeps to
 * manifest-diff.schema.json.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { diffSurfaces } from "../../../generator/diff/surface-compare.ts";
import type { ManifestSurface, RevisionSurface } from "../../../generator/diff/surface-model.ts";

const schema = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, "../../../generator/diff/manifest-diff.schema.json"), "utf8"),
) as object;
const validate = new Ajv2020({ strict: true, allowUnionTypes: true }).compile(schema);

const origins = {
  from: { kind: "record", path: "generated/.mcp-gen.json", sha256: "a".repeat(64) },
  to: { kind: "manifest", path: "mcp.yaml", sha256: "b".repeat(64) },
} as const;

const v1: RevisionSurface = {
  name: "v1",
  version: "2025-01-01",
  era: "handshake",
  batches: false,
  schema: "1".repeat(64),
  methods: {
    "things/get":
      "request clientToServer message gate=server:things params=GetParams@aaaaaaaaaaaa result=Thing@bbbbbbbbbbbb",
    ping: "request both message",
  },
};
const v0: RevisionSurface = { ...v1, name: "v0", version: "2024-01-01", schema: "0".repeat(64) };

function surface(revisions: RevisionSurface[], capabilities: string[] = ["things"]): ManifestSurface {
  return {
    server: { name: "s", version: "1" },
    generation: { runtimeImport: "@mcp-gen/runtime", importExtension: ".js" },
    capabilities,
    tools: [],
    resources: [],
    resourceTemplates: [],
    prompts: [],
    types: [],
    revisions,
  };
}

describe("diffSurfaces", () => {
  it("the same surface: unchanged", () => {
    const diff = diffSurfaces(surface([v0, v1]), surface([v0, v1]), origins);
    expect(diff.unchanged).toBe(true);
    expect(validate(diff)).toBe(true);
  });

  it("a removed revision is listed, not compared", () => {
    const diff = diffSurfaces(surface([v0, v1]), surface([v1]), origins);
    expect(diff.revisions).toEqual({
      added: [],
      removed: [{ name: "v0", bindings: null, version: "2024-01-01", era: "handshake", batches: false, methods: 2 }],
      updated: [],
    });
    expect(diff.unchanged).toBe(false);
    expect(validate(diff)).toBe(true);
  });

  it("a revision whose facts change under the same schema; the gate off for a server without it", () => {
    const moved: RevisionSurface = {
      ...v1,
      bindings: "./protocol/v1",
      batches: true,
      methods: {
        ...v1.methods,
        "things/get":
          "request clientToServer message gate=server:things.list params=GetParams@aaaaaaaaaaaa result=Thing@cccccccccccc facts=cacheable",
      },
    };
    const diff = diffSurfaces(surface([{ ...v1, bindings: "./protocol/v1" }]), surface([moved], []), origins);
    expect(diff.capabilities).toEqual([{ field: "things", from: true, to: false }]);
    expect(diff.revisions.updated).toEqual([
      {
        name: "v1",
        comparedWith: "v1",
        revision: [{ field: "batches", from: false, to: true }],
        schemaChanged: false,
        methods: {
          added: [],
          removed: [],
          changed: [
            {
              method: "things/get",
              served: false,
              changes: [
                { field: "capability", from: "server:things", to: "server:things.list" },
                { field: "result", from: "Thing", to: "Thing (changed inside)" },
                { field: "facts", from: null, to: "cacheable" },
              ],
            },
          ],
        },
      },
    ]);
    expect(validate(diff)).toBe(true);
  });

  it("a built-in replaced by a bindings folder of the same name is one revision, moved", () => {
    const diff = diffSurfaces(surface([v1]), surface([{ ...v1, bindings: "./protocol/v1" }]), origins);
    // Matched by folder, not name: the folder is a new revision, the built-in one is gone.
    expect(diff.revisions.added.map((r) => r.bindings)).toEqual(["./protocol/v1"]);
    expect(diff.revisions.removed.map((r) => r.name)).toEqual(["v1"]);
    expect(diff.revisions.updated[0]).toMatchObject({
      comparedWith: "v1",
      revision: [{ field: "bindings", from: null, to: "./protocol/v1" }],
      schemaChanged: false,
    });
  });
});
