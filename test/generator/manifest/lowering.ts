/**
 * Shared by the lower-json-schema*.test.ts files: the IR primitives they expect, and JSON Schema lowering of a tool's
 * input schema (`tools[0].inputSchema`) as the manifest loader calls it.
 */
import type { IrType } from "../../../generator/ir/model.ts";
import { SchemaProblem } from "../../../generator/manifest/errors.ts";
import { lowerJsonSchema } from "../../../generator/manifest/lower-json-schema.ts";

const primitive = (name: "string" | "number" | "integer" | "boolean" | "null" | "unknown"): IrType => ({
  kind: "primitive",
  name,
});
export const S = primitive("string");
export const N = primitive("number");
export const I = primitive("integer");
export const B = primitive("boolean");
export const NULL = primitive("null");
export const U = primitive("unknown");

/** The manifest path lowering reports problems and warnings against. */
export const AT = ["tools", 0, "inputSchema"] as const;

export const lower = (schema: unknown) => lowerJsonSchema(schema, "Root", [...AT], new Set());
export const rootType = (schema: unknown): IrType => lower(schema).decls[0]!.type;

/** The `SchemaProblem` lowering `schema` throws (anything else, or no throw, fails the test). */
export function problem(schema: unknown): { path: unknown; message: string } {
  try {
    lower(schema);
  } catch (error) {
    if (error instanceof SchemaProblem) return { path: error.path, message: error.message };
    throw error;
  }
  throw new Error("expected a SchemaProblem");
}
