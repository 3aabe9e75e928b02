/** Paths as generated code and headers spell them: `/`-separated whatever the platform. */
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (the directory holding `generator/`). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** `to` relative to `from`, `/`-separated (as used in headers and import specifiers). */
export function posixRelative(from: string, to: string): string {
  return path.relative(from, to).split(path.sep).join("/");
}
