/**
 * `npm run generate:manifest-schema`: writes `generator/manifest/mcp-manifest.schema.json`, the manifest's JSON
 * Schema for editors, from `ManifestSchema`. test/manifest/manifest-schema.test.ts fails when it is stale.
 */
import { REPO_ROOT } from "./repo-root.ts";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { stableJson } from "../generator/emit/generated-file.ts";
import { manifestJsonSchema } from "../generator/manifest/manifest-schema.ts";

export const MANIFEST_SCHEMA_PATH = path.join(REPO_ROOT, "generator/manifest/mcp-manifest.schema.json");

export function manifestSchemaText(): string {
  return stableJson(manifestJsonSchema());
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await writeFile(MANIFEST_SCHEMA_PATH, manifestSchemaText());
  process.stdout.write(`wrote ${path.relative(process.cwd(), MANIFEST_SCHEMA_PATH)}\n`);
}
