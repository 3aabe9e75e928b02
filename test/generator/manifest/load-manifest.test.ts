/** Bad manifests: one line per problem with file:line:col, the manifest path and the reason; nothing is written. */
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runGenerate } from "../../../generator/pipeline/run-generate.ts";
import { ManifestError } from "../../../generator/manifest/errors.ts";
import { knownRevisions } from "../../../generator/pipeline/known-revisions.ts";
import { parseManifest } from "../../../generator/manifest/load-manifest.ts";
import { SUPPORTED_REVISIONS } from "../../../runtime/index.ts";

const HEADER = "server: { name: s, version: 1.0.0 }\n";

function firstError(text: string, file = "mcp.yaml"): string {
  try {
    parseManifest(text, { file, displayPath: () => file, knownRevisions: knownRevisions() });
  } catch (error) {
    if (error instanceof ManifestError) return error.message;
    throw error;
  }
  throw new Error("expected a ManifestError");
}

const tool = (name: string, extra = "") => `  - name: ${name}\n${extra}`;

describe("manifest errors", () => {
  it("YAML syntax errors carry file:line:col", () => {
    expect(firstError(`${HEADER}tools:\n  - name: a\n    inputSchema: { type: object\n`)).toMatch(
      /^mcp\.yaml:\d+:\d+: syntax error: /,
    );
  });

  it("JSON manifests get positions too", () => {
    expect(
      firstError('{\n  "server": { "name": "s", "version": "1" },\n  "tools": [ { "name": 3 } ]\n}\n', "mcp.json"),
    ).toBe("mcp.json:3:24: tools[0].name: Invalid input: expected string, received number");
  });

  it("a bad schema keyword is reported at its path: tools[3].inputSchema.properties.city", () => {
    const tools = ["a", "b", "c"].map((n) => tool(n)).join("");
    const bad = tool("d", "    inputSchema:\n      type: object\n      properties:\n        city: { type: strin }\n");
    expect(firstError(`${HEADER}tools:\n${tools}${bad}`)).toBe(
      'mcp.yaml:10:23: tools[3].inputSchema.properties.city.type: invalid type "strin": use string, number, integer, boolean, null, object, array or an array of them',
    );
  });

  it.each<[string, string, string]>([
    [
      "duplicate tool names",
      `tools:\n${tool("a")}${tool("a")}`,
      'mcp.yaml:4:11: tools[1].name: duplicate tool name "a" (first at tools[0])',
    ],
    [
      "names that collide as identifiers",
      `tools:\n${tool("get_x")}${tool("get-x")}`,
      'tools[1].name: duplicate tool name (as an identifier) "GetX"',
    ],
    [
      "invalid tool names",
      `tools:\n${tool('"has space"')}`,
      "mcp.yaml:3:11: tools[0].name: invalid tool name: use 1-128 characters of A-Z a-z 0-9 _ . -",
    ],
    [
      "unresolvable $ref",
      `tools:\n${tool("a", '    inputSchema: { type: object, properties: { x: { $ref: "#/$defs/nope" } } }\n')}`,
      'tools[0].inputSchema.properties.x.$ref: unresolvable $ref "#/$defs/nope"',
    ],
    [
      "non-object tool schema",
      `tools:\n${tool("a", "    inputSchema: { type: string }\n")}`,
      'tools[0].inputSchema.type: a tool schema must have "type": "object"',
    ],
    [
      "unknown fields",
      `tools:\n${tool("a", "    inputschema: {}\n")}`,
      // Points at the key (column 5), and names the field it most likely meant.
      'mcp.yaml:4:5: tools[0].inputschema: unknown field "inputschema" (did you mean "inputSchema"?)',
    ],
    ["missing server", "#\ntools: []\n", "mcp.yaml:2:1: server: required field missing (expected object)"],
    [
      "duplicate resource URIs",
      'resources:\n  - { uri: "x://a", name: a }\n  - { uri: "x://a", name: b }\n',
      'resources[1].uri: duplicate resource uri "x://a"',
    ],
    [
      "bad URI template",
      'resourceTemplates:\n  - { uriTemplate: "x://{a", name: t }\n',
      "resourceTemplates[0].uriTemplate: invalid RFC 6570 URI template",
    ],
    [
      "template variable not in the template",
      'resourceTemplates:\n  - { uriTemplate: "x://{a}", name: t, variables: { b: {} } }\n',
      "resourceTemplates[0].variables.b: variable b does not appear in the uriTemplate",
    ],
    [
      "duplicate prompt arguments",
      "prompts:\n  - { name: p, arguments: [{ name: a }, { name: a }] }\n",
      'prompts[0].arguments[1].name: duplicate argument name "a"',
    ],
    [
      "unknown protocol revisions",
      "server: { name: s, version: 1.0.0, revisions: [2025-11-25, 2099-01-01] }\n",
      `mcp.yaml:1:60: server.revisions[1]: unknown protocol revision "2099-01-01" (known: ${[...SUPPORTED_REVISIONS].sort().join(", ")})`,
    ],
    [
      "repeated protocol revisions",
      "server: { name: s, version: 1.0.0, revisions: [2025-11-25, 2025-11-25] }\n",
      'mcp.yaml:1:60: server.revisions[1]: duplicate protocol revision "2025-11-25" (first at server.revisions[0])',
    ],
    [
      "duplicate YAML keys",
      "server: { name: s, version: 1.0.0 }\nserver: { name: t, version: 1.0.0 }\n",
      "syntax error: Map keys must be unique",
    ],
  ])("%s", (_name, body, message) => {
    const text = body.startsWith("server") || body.startsWith("#") ? body : `${HEADER}${body}`;
    expect(firstError(text)).toContain(message);
  });
});

describe("server.revisions", () => {
  it("the known revisions are the runtime's", () => {
    expect(knownRevisions()).toEqual([...SUPPORTED_REVISIONS].sort());
  });

  it("accepts every revision the runtime speaks", () => {
    const text = `server: { name: s, version: 1.0.0, revisions: [${SUPPORTED_REVISIONS.join(", ")}] }\n`;
    expect(
      parseManifest(text, { file: "mcp.yaml", displayPath: () => "mcp.yaml", knownRevisions: knownRevisions() }).model
        .server.revisions,
    ).toEqual(SUPPORTED_REVISIONS.map((name) => ({ kind: "builtin", name })));
  });
});

describe("mcp-gen generate on a bad manifest", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "mcp-gen-bad-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("exits 1 with one line per problem and writes nothing", async () => {
    const manifest = path.join(dir, "mcp.yaml");
    await writeFile(manifest, `${HEADER}tools:\n${tool("ok")}${tool("ok")}`);
    const lines: string[] = [];
    const code = await runGenerate(
      { manifest, check: false },
      { out: (l) => lines.push(l), err: (l) => lines.push(l) },
    );
    expect(code).toBe(1);
    expect(lines).toEqual([`mcp-gen: ${manifest}:4:11: tools[1].name: duplicate tool name "ok" (first at tools[0])`]);
    expect(existsSync(path.join(dir, "generated"))).toBe(false);
    expect(await readdir(dir)).toEqual(["mcp.yaml"]);
  });

  it("a missing manifest is a one-line error", async () => {
    const lines: string[] = [];
    const code = await runGenerate(
      { manifest: path.join(dir, "nope.yaml"), check: false },
      { out: (l) => lines.push(l), err: (l) => lines.push(l) },
    );
    expect(code).toBe(1);
    expect(lines).toEqual([
      `mcp-gen: ${path.join(dir, "nope.yaml")}: manifest not found; start a project with \`mcp-gen init\`, or name the manifest with --manifest`,
    ]);
  });
});
