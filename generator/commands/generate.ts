/**
 * `mcp-gen generate [--manifest mcp.yaml] [--out <dir>] [--check] [--watch]`: the typed server stub and client
 * for a manifest. Exit codes: 0 done / up to date, 1 bad manifest or stale output (`--check`).
 */
import { watch } from "node:fs";
import path from "node:path";
import { runGenerate, stdio, type RunGenerateArgs } from "../pipeline/run-generate.ts";

export interface GenerateArgs extends RunGenerateArgs {
  readonly watch: boolean;
}

/** Regenerates whenever the manifest changes, until the process is stopped. */
export function watchManifest(args: GenerateArgs): void {
  let timer: NodeJS.Timeout | undefined;
  const run = () => {
    runGenerate({ ...args, check: false }).catch((error: unknown) => stdio.err(`mcp-gen: ${String(error)}`));
  };
  run();
  // Watch the folder: editors often replace the file, which ends a watch on the file itself.
  watch(path.dirname(path.resolve(args.manifest)), (_event, file) => {
    if (file !== path.basename(args.manifest)) return;
    clearTimeout(timer);
    timer = setTimeout(run, 100);
  });
  stdio.out(`mcp-gen: watching ${args.manifest}`);
}
