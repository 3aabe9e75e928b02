/**
 * What a user commits, read from the weather example as committed (`npm run generate:check` keeps it equal to what
 * the generator writes): issue 22's checks on generated output. No file silences the type checker, definitions are
 * referred to by name (never by position in a list), and the outputs record restates no built-in revision's facts:
 * its only digest is the manifest's, and it holds no method of any revision (record-upgrade.test.ts shows an upgrade
 * that changes no generated file leaves it unchanged).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const GENERATED = path.resolve(import.meta.dirname, "../../examples/weather/generated");
const sources = readdirSync(GENERATED)
  .filter((f) => f.endsWith(".ts"))
  .map((f) => [f, readFileSync(path.join(GENERATED, f), "utf8")] as const);

describe("the weather example's generated files", () => {
  it("are all there and none silences the type checker", () => {
    expect(sources.map(([f]) => f).sort()).toEqual([
      "client.ts",
      "definitions.ts",
      "index.ts",
      "schemas.ts",
      "server.ts",
      "types.ts",
    ]);
    for (const [file, text] of sources) expect(text, file).not.toMatch(/@ts-nocheck|@ts-ignore|@ts-expect-error/);
  });

  it("refer to definitions by name, never by index", () => {
    for (const [file, text] of sources) expect(text, file).not.toMatch(/[\w)\]]\[\d+\]/);
    // The server registers each definition through its name (D.toolDefinitions, D.promptDefinitions.plan_trip, …).
    const server = sources.find(([f]) => f === "server.ts")![1];
    expect(server).toContain("D.promptDefinitions.plan_trip");
    expect(server).toContain('D.resourceDefinitions["weather://stations"]');
  });

  it("have a record that restates no built-in revision", () => {
    const text = readFileSync(path.join(GENERATED, ".mcp-gen.json"), "utf8");
    const record = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(record).sort()).toEqual(["files", "generator", "manifest", "sha256", "surface"]);
    // One digest: the manifest's. No method of any revision, no revision named (the manifest names none).
    expect(text.match(/[0-9a-f]{64}/g)).toEqual([record["sha256"]]);
    expect(text).not.toMatch(/"methods"|"method"|\d{4}-\d{2}-\d{2}/);
    expect(text.split("\n").length).toBeLessThan(500);
  });
});
