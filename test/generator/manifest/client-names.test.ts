/**
 * The typed client's member names and optional arguments are decided by the lowering: camelCase identifiers for
 * tools, templates and prompts (the raw name is what goes on the wire), a clash between two names that meet as the
 * same member is a manifest error, and an argument that may be `{}` may be left out. Also: every schema problem of
 * one tool is reported in one run (a bad `inputSchema` does not hide a bad `outputSchema`).
 */
import { describe, expect, it } from "vitest";
import { ManifestError } from "../../../generator/manifest/errors.ts";
import { parseManifest } from "../../../generator/manifest/load-manifest.ts";
import { memberName } from "../../../generator/manifest/names.ts";
import type { UserModel } from "../../../generator/manifest/user-model.ts";
import { knownRevisions } from "../../../generator/pipeline/known-revisions.ts";

const HEADER = "server: { name: s, version: 1.0.0 }\n";

function parse(text: string): UserModel {
  return parseManifest(HEADER + text, {
    file: "mcp.yaml",
    displayPath: () => "mcp.yaml",
    knownRevisions: knownRevisions(),
  }).model;
}

function problems(text: string): string[] {
  try {
    parse(text);
  } catch (error) {
    if (error instanceof ManifestError) return error.lines();
    throw error;
  }
  throw new Error("expected a ManifestError");
}

describe("client member names", () => {
  it.each([
    ["get-sum", "getSum"],
    ["get_forecast", "getForecast"],
    ["Dynamic Text Resource", "dynamicTextResource"],
    ["URL_fetch", "urlFetch"],
    ["HTTP2", "http2"],
    ["HTTP", "http"],
    ["getWeather", "getWeather"],
    ["2fa-check", "t2faCheck"],
    ["__proto__", "proto"],
    ["x", "x"],
  ])("%s → %s", (name, member) => {
    expect(memberName(name)).toBe(member);
    expect(member).toMatch(/^[a-z][A-Za-z0-9]*$/);
  });

  it("the lowering gives tools, templates and prompts their member and keeps the wire name", () => {
    const model = parse(
      [
        "tools:",
        "  - name: get-sum",
        "resourceTemplates:",
        "  - { name: Dynamic Text Resource, uriTemplate: 'test://dynamic/{id}' }",
        "prompts:",
        "  - name: plan-trip",
      ].join("\n"),
    );
    expect(model.tools.map((t) => [t.name, t.member])).toEqual([["get-sum", "getSum"]]);
    expect(model.resourceTemplates.map((t) => [t.name, t.member])).toEqual([
      ["Dynamic Text Resource", "dynamicTextResource"],
    ]);
    expect(model.prompts.map((p) => [p.name, p.member])).toEqual([["plan-trip", "planTrip"]]);
  });

  it("two names that become the same member are refused, pointing at the second", () => {
    expect(problems("tools:\n  - name: URL_fetch\n  - name: url-fetch\n")).toEqual([
      'mcp.yaml:4:11: tools[1].name: duplicate tool name (as a client method) "urlFetch" (first at tools[0])',
    ]);
  });
});

describe("optional arguments", () => {
  const object = (body: string) => `{ type: object${body} }`;
  it.each([
    ["no inputSchema", "", true],
    ["no properties", `\n    inputSchema: ${object("")}`, true],
    ["only optional properties", `\n    inputSchema: ${object(", properties: { a: { type: string } }")}`, true],
    [
      "a required property",
      `\n    inputSchema: ${object(", properties: { a: { type: string } }, required: [a]")}`,
      false,
    ],
    ["minProperties", `\n    inputSchema: ${object(", properties: { a: { type: string } }, minProperties: 1")}`, false],
  ])("a tool with %s: input optional = %s", (_what, schema, optional) => {
    expect(parse(`tools:\n  - name: t${schema}\n`).tools[0]?.inputOptional).toBe(optional);
  });

  it("templates with only query variables and prompts without required arguments", () => {
    const model = parse(
      [
        "resourceTemplates:",
        "  - { name: search, uriTemplate: 'test://search{?q,page}' }",
        "  - { name: item, uriTemplate: 'test://item/{id}{?v}' }",
        "prompts:",
        "  - { name: loose, arguments: [{ name: a }] }",
        "  - { name: strict, arguments: [{ name: a, required: true }] }",
      ].join("\n"),
    );
    expect(model.resourceTemplates.map((t) => t.variablesOptional)).toEqual([true, false]);
    expect(model.prompts.map((p) => p.argumentsOptional)).toEqual([true, false]);
  });
});

describe("all problems of one tool in one run", () => {
  it("a bad inputSchema and a bad outputSchema of the same tool are both reported", () => {
    const lines = problems(
      [
        "tools:",
        "  - name: t",
        "    inputSchema: { type: object, properties: { x: { $ref: '#/nope' } } }",
        "    outputSchema: { type: object, properties: { y: { enum: [] } } }",
        "",
      ].join("\n"),
    );
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/tools\[0\]\.inputSchema\.properties\.x\.\$ref: unresolvable \$ref "#\/nope"/);
    expect(lines[1]).toMatch(/tools\[0\]\.outputSchema\.properties\.y\.enum: `enum` must be a non-empty array/);
  });
});
