/**
 * Manifest data (scopes by tool name, descriptors, icons, annotations) as a TypeScript object literal whose value is
 * exactly the data. Keys are printed with `propertyKey`, so a key read from a manifest or a server (`__proto__`) stays
 * an own property: in a literal, `__proto__: x` or `"__proto__": x` would set the object's prototype instead.
 */
import { propertyKey } from "../ts-types.ts";

export function jsonLiteral(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(jsonLiteral).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    // One key a line, as JSON.stringify(value, null, 2) writes it (prettier keeps such an object expanded).
    if (entries.length === 0) return "{}";
    return `{\n${entries.map(([k, v]) => `${propertyKey(k)}: ${jsonLiteral(v)}`).join(",\n")}\n}`;
  }
  return JSON.stringify(value) ?? "null";
}
