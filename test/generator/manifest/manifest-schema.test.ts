/**
 * The manifest's published JSON Schema (for editors) is up to date with the zod definition, accepts every manifest
 * in the repository and rejects a wrong one; the user templates stay thin (loops and lookups only).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import Handlebars from "handlebars";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { MANIFEST_SCHEMA_PATH, manifestSchemaText } from "../../../scripts/write-manifest-schema.ts";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const MANIFESTS = [
  "examples/weather/mcp.yaml",
  "examples/everything/mcp.yaml",
  ...readdirSync(path.join(REPO, "test/manifest/golden")).map((c) => `test/manifest/golden/${c}/mcp.yaml`),
];

describe("published manifest JSON Schema", () => {
  const published = readFileSync(MANIFEST_SCHEMA_PATH, "utf8");
  const validate = new Ajv2020({ strict: false, allErrors: true }).compile(JSON.parse(published) as object);

  it("is up to date (npm run generate:manifest-schema)", () => {
    expect(published).toBe(manifestSchemaText());
  });

  it.each(MANIFESTS)("accepts %s", (file) => {
    expect(validate(parse(readFileSync(path.join(REPO, file), "utf8")))).toBe(true);
  });

  it("rejects unknown fields and invalid tool names", () => {
    expect(validate({ server: { name: "s", version: "1" }, tools: [{ name: "ok", inputschema: {} }] })).toBe(false);
    expect(validate({ server: { name: "s", version: "1" }, tools: [{ name: "not ok" }] })).toBe(false);
    expect(
      validate({ server: { name: "s", version: "1" }, tools: [{ name: "ok", inputSchema: { type: "object" } }] }),
    ).toBe(true);
  });
});

describe("templates", () => {
  const dir = path.join(REPO, "generator/templates");
  const templates = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".hbs"));

  it("there are templates to check", () => {
    expect(templates.length).toBeGreaterThan(0);
  });

  it.each(templates)("%s compiles with knownHelpersOnly and makes no decisions", (file) => {
    const source = readFileSync(path.join(dir, file), "utf8");
    expect(() => Handlebars.precompile(source, { strict: true, knownHelpersOnly: true })).not.toThrow();
    expect(source).not.toMatch(/\{\{#(if|unless)\b/);
  });
});
