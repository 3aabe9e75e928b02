/** `mcp-gen diff <from> <to> [--json]`: what changed between two revisions' IRs. */
import { diffModels } from "../diff/compare.ts";
import { loadModel } from "../diff/load.ts";
import { formatDiffText } from "../diff/text.ts";

export interface DiffArgs {
  readonly from: string;
  readonly to: string;
  readonly json: boolean;
}

export function runDiff(args: DiffArgs, write: (text: string) => void = (t) => process.stdout.write(t)): void {
  const diff = diffModels(loadModel(args.from), loadModel(args.to));
  write(args.json ? `${JSON.stringify(diff, null, 2)}\n` : formatDiffText(diff));
}
