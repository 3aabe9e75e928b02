/** Paths as generated code and headers spell them: `/`-separated whatever the platform. */
import path from "node:path";

/** `to` relative to `from`, `/`-separated (as used in headers and import specifiers). */
export function posixRelative(from: string, to: string): string {
  return path.relative(from, to).split(path.sep).join("/");
}
