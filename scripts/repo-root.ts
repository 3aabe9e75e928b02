/** The repository's root folder, for the repository-only scripts and the tests (never for shipped code). */
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
