/**
 * `mcp-gen diff` for a manifest's generated output, through the real CLI in temp projects outside the repository:
 * generate, edit the manifest (or regenerate a bindings folder from an edited schema.ts), then diff. The oracle is
 * the edit the test made (and spec facts of the built-in revisions), the text a golden file
 * (`npm run test:update-golden`), the JSON checked against generator/diff/manifest-diff.schema.json. Diff writes
 * nothing, and bad input is one line on stderr with exit code 1.
 */
import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, REPO } from "../cli-run.ts";
import { expectGoldenFile } from "../golden-file.ts";

const GOLDEN = path.join(import.meta.dirname, "../golden/diff/manifest.txt");
const schema = JSON.parse(
  await readFile(path.join(REPO, "generator/diff/manifest-diff.schema.json"), "utf8"),
) as object;
const validate = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);

/** Every file under `dir` with the sha256 of its bytes. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    files[path.relative(dir, file)] = createHash("sha256")
      .update(await readFile(file))
      .digest("hex");
  }
  return files;
}

const V1 = `server:
  name: shop
  version: 1.0.0
  revisions: [2025-11-25]
tools:
  - name: find_item
    description: Finds items.
    inputSchema:
      type: object
      properties: { query: { type: string }, limit: { type: integer } }
      required: [query]
    outputSchema:
      type: object
      properties: { items: { type: array, items: { $ref: "#/$defs/item" } } }
      required: [items]
      $defs: { item: { type: object, properties: { id: { type: string } }, required: [id] } }
  - name: delete_item
    inputSchema: { type: object, properties: { id: { type: string } }, required: [id] }
resources:
  - { uri: "shop://catalog", name: catalog, mimeType: application/json }
resourceTemplates:
  - { uriTemplate: "shop://items/{id}", name: item }
prompts:
  - { name: summarize, arguments: [{ name: topic }] }
`;

/** V1 edited: every kind of change a user makes. */
const V2 = V1.replace("version: 1.0.0", "version: 1.1.0")
  .replace(
    "revisions: [2025-11-25]",
    "revisions: [2025-11-25, 2026-07-28]\ncapabilities:\n  tools: { listChanged: true }",
  )
  .replace("description: Finds items.", "description: Finds items by name.")
  .replace("required: [query]", "required: [query, limit]")
  .replace(
    "properties: { id: { type: string } }, required: [id] } }",
    "properties: { id: { type: string }, price: { type: number } }, required: [id, price] } }",
  )
  .replace(
    "  - name: delete_item\n    inputSchema: { type: object, properties: { id: { type: string } }, required: [id] }",
    "  - name: add_item\n    inputSchema: { type: object, properties: { name: { type: string } }, required: [name] }",
  )
  .replace("mimeType: application/json", "mimeType: text/csv")
  .replace("name: item }", "name: item, variables: { id: { completion: true } } }")
  .replace("[{ name: topic }]", "[{ name: topic, required: true }]");

type Json = Record<string, any>; // parsed JSON, read loosely

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "mcp-gen-diff-"));
  await writeFile(path.join(dir, "mcp.yaml"), V1);
  const generated = await cli(dir, "generate");
  expect(generated.stderr).toBe("");
  expect(generated.code).toBe(0);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("mcp-gen diff (a manifest's output against the manifest now)", () => {
  it("says nothing changed right after generating, in text and JSON", async () => {
    const text = await cli(dir, "diff");
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("No change to handlers");
    const json = JSON.parse((await cli(dir, "diff", "--json")).stdout) as Json;
    expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
    expect(json["unchanged"]).toBe(true);
    expect(json["from"]).toMatchObject({ kind: "record", path: path.join("generated", ".mcp-gen.json") });
    expect(json["to"]).toMatchObject({ kind: "manifest", path: "mcp.yaml" });
  });

  describe("after editing the manifest", () => {
    let json: Json;
    beforeAll(async () => {
      await writeFile(path.join(dir, "mcp.yaml"), V2);
      const run = await cli(dir, "diff", "--manifest", "mcp.yaml", "--json");
      expect(run.stderr).toBe("");
      json = JSON.parse(run.stdout) as Json;
    });

    it("prints the golden text, and writes nothing", async () => {
      const before = await snapshot(dir);
      const run = await cli(dir, "diff");
      expect(run.code).toBe(0);
      await expectGoldenFile(run.stdout, GOLDEN);
      expect(await snapshot(dir)).toEqual(before);
    });

    it("--json matches manifest-diff.schema.json", () => {
      expect(validate(json), JSON.stringify(validate.errors)).toBe(true);
      expect(json["unchanged"]).toBe(false);
      expect(validate({ ...json, extra: 1 })).toBe(false);
      expect(validate({ ...json, from: { ...json["from"], kind: "folder" } })).toBe(false);
    });

    it("lists the handlers to add and remove, and which signatures change", () => {
      const names = (entries: { name: string }[]) => entries.map((e) => e.name);
      expect(names(json["tools"].added)).toEqual(["add_item"]);
      expect(names(json["tools"].removed)).toEqual(["delete_item"]);
      const findItem = json["tools"].changed.find((c: Json) => c["name"] === "find_item") as Json;
      expect(findItem["signature"]).toBe(true);
      const limit = findItem["changes"].find((c: Json) => c["field"] === "input property limit") as Json;
      expect(limit["from"]).toContain("(optional)");
      expect(limit["to"]).not.toContain("(optional)");
      expect(findItem["changes"]).toContainEqual({
        field: "description",
        from: "Finds items.",
        to: "Finds items by name.",
      });
      // The $defs item gained a required price: a type of its own, listed under types.
      const price = json["types"].changed
        .flatMap((t: Json) => t["changes"])
        .find((c: Json) => c["field"] === "property price");
      expect(price).toMatchObject({ from: null });
      expect(price["to"]).not.toContain("(optional)");
    });

    it("tells served metadata from signature changes for resources, templates and prompts", () => {
      expect(json["resources"].changed).toEqual([
        {
          name: "shop://catalog",
          signature: false,
          changes: [{ field: "mimeType", from: "application/json", to: "text/csv" }],
        },
      ]);
      expect(json["resourceTemplates"].changed[0]).toMatchObject({ name: "item", signature: true });
      expect(json["resourceTemplates"].changed[0].changes).toContainEqual({
        field: "completions",
        from: null,
        to: "id",
      });
      expect(json["prompts"].changed[0]).toMatchObject({ name: "summarize", signature: true });
    });

    it("lists server and capability changes", () => {
      expect(json["server"]).toEqual([{ field: "version", from: "1.0.0", to: "1.1.0" }]);
      // completions: on once a completion is used (the template's id).
      expect(json["capabilities"]).toEqual([
        { field: "completions", from: false, to: true },
        { field: "tools.listChanged", from: false, to: true },
      ]);
    });

    it("shows what an added revision brings against the newest one served before (spec facts)", () => {
      expect(json["revisions"].added.map((r: Json) => r["name"])).toEqual(["2026-07-28"]);
      expect(json["revisions"].removed).toEqual([]);
      const [update] = json["revisions"].updated as Json[];
      expect(update).toMatchObject({ name: "2026-07-28", comparedWith: "2025-11-25", schemaChanged: true });
      // 2026-07-28 drops the handshake for server/discover.
      expect(update!["revision"]).toContainEqual({ field: "era", from: "handshake", to: "stateless" });
      expect(update!["methods"].added.map((m: Json) => m["method"])).toContain("server/discover");
      expect(update!["methods"].removed.map((m: Json) => m["method"])).toEqual(
        expect.arrayContaining(["initialize", "ping"]),
      );
      // This server declares no resources.subscribe: the methods it gates are marked as never met.
      const subscribe = update!["methods"].removed.find((m: Json) => m["method"] === "resources/subscribe") as Json;
      expect(subscribe).toMatchObject({ capability: "server:resources.subscribe", served: false });
    });

    it("compares two manifests as each would generate now", async () => {
      await writeFile(path.join(dir, "v1.yaml"), V1);
      const run = await cli(dir, "diff", "v1.yaml", "mcp.yaml", "--json");
      expect(run.code).toBe(0);
      const both = JSON.parse(run.stdout) as Json;
      expect(validate(both), JSON.stringify(validate.errors)).toBe(true);
      expect(both["from"]).toMatchObject({ kind: "manifest", path: "v1.yaml" });
      expect(both["tools"]).toEqual(json["tools"]);
      expect(both["revisions"]).toEqual(json["revisions"]);
      // Changes that touch every generated file but no handler, and what the server says about itself.
      const retitled = `${V1.replace("version: 1.0.0", "version: 1.0.0\n  title: Shop")}generate: { runtimeImport: "@acme/mcp-runtime" }\n`;
      await writeFile(path.join(dir, "v1b.yaml"), retitled);
      const other = JSON.parse((await cli(dir, "diff", "v1.yaml", "v1b.yaml", "--json")).stdout) as Json;
      expect(other["server"]).toEqual([{ field: "title", from: null, to: "Shop" }]);
      expect(other["generation"]).toEqual([
        { field: "runtimeImport", from: "@mcp-gen/runtime", to: "@acme/mcp-runtime" },
      ]);
      expect(other["tools"]).toEqual({ added: [], removed: [], changed: [] });
    });
  });
});
