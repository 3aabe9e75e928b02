/**
 * The read stage of MCP Apps views: a view's file, named relative to the manifest, as text (lowering checks that it
 * is an HTML document). Synchronous, as the bindings lookup is: lowering calls it while it runs.
 */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { ViewFile, ViewReader } from "../manifest/lower-views.ts";

/** At most this many bytes of HTML per view: the text is compiled into the generated server. */
export const MAX_VIEW_BYTES = 8 * 1024 * 1024;

export function viewFileReader(manifestDir: string): ViewReader {
  return (file): ViewFile => {
    const absolute = path.resolve(manifestDir, file);
    const named = JSON.stringify(file);
    let size: number;
    try {
      const stat = statSync(absolute);
      if (!stat.isFile()) return { problem: `view file ${named} is not a file` };
      size = stat.size;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return {
        problem:
          code === "ENOENT"
            ? `view file ${named} does not exist (build the view first when it is a bundle)`
            : `view file ${named} cannot be read (${code ?? "error"})`,
      };
    }
    if (size > MAX_VIEW_BYTES) return { problem: `view file ${named} is larger than ${MAX_VIEW_BYTES} bytes` };
    try {
      return { text: new TextDecoder("utf-8", { fatal: true }).decode(readFileSync(absolute)) };
    } catch {
      return { problem: `view file ${named} is not UTF-8 text` };
    }
  };
}
