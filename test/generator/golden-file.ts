/**
 * The one way a test compares output with a committed golden file. vitest's `toMatchFileSnapshot` silently writes a
 * missing file (outside CI), so a deleted golden would pass as "1 written": here a missing golden fails, unless the
 * goldens are being updated on purpose (`npm run test:update-golden`, which runs vitest with `--update`).
 */
import { existsSync } from "node:fs";
import { expect } from "vitest";

const UPDATE_COMMAND = "npm run test:update-golden";

/** Whether this run was asked to rewrite goldens (`vitest --update`). */
function updatingGoldens(): boolean {
  return expect.getState().snapshotState.snapshotUpdateState === "all";
}

export async function expectGoldenFile(content: string, file: string): Promise<void> {
  if (!existsSync(file) && !updatingGoldens())
    throw new Error(`missing golden file ${file}: run ${UPDATE_COMMAND} and review it`);
  await expect(content).toMatchFileSnapshot(file);
}
