/**
 * `npm run generate:ir-schema`: writes `generator/ir/ir.schema.json`, the JSON Schema of `ir.json` files, from the
 * TypeScript model (`IrJsonFile` in generator/ir/model.ts) with ts-json-schema-generator. test/generator/ir-schema.test.ts
 * fails when the committed schema is stale and validates every committed ir.json against it.
 */
import { REPO_ROOT } from "./repo-root.ts";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createGenerator } from "ts-json-schema-generator";
import { stableJson } from "../generator/emit/generated-file.ts";

const IR_DIR = path.join(REPO_ROOT, "generator/ir");
export const IR_SCHEMA_PATH = path.join(IR_DIR, "ir.schema.json");

export function irSchemaText(): string {
  const generator = createGenerator({
    path: path.join(IR_DIR, "model.ts"),
    type: "IrJsonFile",
    tsconfig: path.resolve(IR_DIR, "../../tsconfig.json"),
    skipTypeCheck: true,
    additionalProperties: false,
    expose: "export",
    topRef: true,
    jsDoc: "extended",
    sortProps: true,
  });
  const schema = generator.createSchema("IrJsonFile");
  return stableJson({
    ...schema,
    $schema: "http://json-schema.org/draft-07/schema#",
    title: "mcp-gen ir.json",
    description:
      "The lowered model of one MCP revision (runtime/generated/protocol/<revision>/ir.json); generator/ir/model.ts.",
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await writeFile(IR_SCHEMA_PATH, irSchemaText());
  process.stdout.write(`wrote ${path.relative(process.cwd(), IR_SCHEMA_PATH)}\n`);
}
