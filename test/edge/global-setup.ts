/** vitest globalSetup: the edge runtimes are installed once, before any test file runs (see runtimes.ts). */
import { installEdgeRuntimes } from "./runtimes.ts";

export default function setup(): void {
  installEdgeRuntimes();
}
