/**
 * generator/ir/ir.schema.json, the published JSON Schema of `ir.json`: generated from the TypeScript model (fails when
 * stale; `npm run generate:ir-schema`), and every committed ir.json validates against it, while broken ones do not.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { IR_SCHEMA_PATH, irSchemaText } from "../../../scripts/write-ir-schema.ts";

const repoRoot = path.resolve(import.meta.dirname, "../../..");
const committed = readFileSync(IR_SCHEMA_PATH, "utf8");
const validate = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(
  JSON.parse(committed) as object,
);

const protocolDir = path.join(repoRoot, "runtime/generated/protocol");
const irFiles = [
  ...readdirSync(protocolDir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => path.join(protocolDir, e.name, "ir.json")),
  path.join(repoRoot, "test/generator/golden/protocol-basic/expected/ir.json"),
];
const read = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;

describe("ir.schema.json", () => {
  it("is the schema of the TypeScript model (IrJsonFile)", { timeout: 120_000 }, () => {
    expect(committed).toBe(irSchemaText());
  });

  it.each(irFiles.map((f) => [path.relative(repoRoot, f), f]))("validates %s", (_name, file) => {
    expect(validate(read(file)), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
  });

  it("covers every revision folder (five released ones at least)", () => {
    expect(irFiles.length).toBeGreaterThanOrEqual(6);
  });

  it("rejects ir.json files that break the model", () => {
    const good = read(irFiles[0]!);
    const methods = good["methods"] as Record<string, unknown>[];
    const broken = [
      { ...good, protocol: { ...(good["protocol"] as object), era: "sometime" } },
      { ...good, methods: [{ ...methods[0], direction: "sideways" }, ...methods.slice(1)] },
      { ...good, types: [{ name: "X", extends: [], type: { kind: "tuple" } }] },
      { ...good, surprise: true },
      Object.fromEntries(Object.entries(good).filter(([key]) => key !== "protocol")),
    ];
    for (const model of broken) expect(validate(model), JSON.stringify(model).slice(0, 80)).toBe(false);
  });
});
