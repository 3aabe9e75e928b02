/**
 * `npm run generate` output: byte-identical on regeneration, identical to what is committed, and
 * `generate:check` exits non-zero naming stale, missing and extra files.
 */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, writeFileSync, unlinkSync, appendFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { checkGenerated, generateAll } from "../../generator/scripts/generate-protocol.ts";
import { REPO_ROOT } from "../../generator/pipeline/protocol.ts";

const run = promisify(execFile);
const tmp = mkdtempSync(path.join(os.tmpdir(), "mcp-gen-check-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("regeneration", () => {
  it("is deterministic, machine-independent and matches the committed output", async () => {
    const first = await generateAll();
    const second = await generateAll();
    expect(second.map((f) => f.path)).toEqual(first.map((f) => f.path));
    second.forEach((file, i) => expect(file.content === first[i]!.content, file.path).toBe(true));
    expect(first.length).toBe(5 * 7 + 1);
    const today = new Date().toISOString().slice(0, 10);
    for (const file of first) {
      expect(file.content.includes(REPO_ROOT), `${file.path} holds an absolute path`).toBe(false);
      expect(file.content.includes(today), `${file.path} holds today's date`).toBe(false);
    }
    expect(await checkGenerated(first)).toEqual([]);
  });

  it("generate:check exits 1 naming stale, missing and extra files", async () => {
    for (const dir of ["generated/protocol", "test/protocol/fidelity"]) {
      cpSync(path.join(REPO_ROOT, dir), path.join(tmp, dir), { recursive: true });
    }
    appendFileSync(path.join(tmp, "generated/protocol/2025-06-18/types.ts"), "// edited by hand\n");
    unlinkSync(path.join(tmp, "generated/protocol/2024-11-05/methods.ts"));
    writeFileSync(path.join(tmp, "generated/protocol/2026-07-28/leftover.ts"), "export {};\n");
    const script = path.join(REPO_ROOT, "generator/scripts/generate-protocol.ts");
    const tsx = path.join(REPO_ROOT, "node_modules/tsx/dist/cli.mjs");
    const failure = await run(process.execPath, [tsx, script, "--check", "--root", tmp], { cwd: REPO_ROOT }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.stderr).toContain("stale: generated/protocol/2025-06-18/types.ts");
    expect(failure?.stderr).toContain("missing: generated/protocol/2024-11-05/methods.ts");
    expect(failure?.stderr).toContain("extra: generated/protocol/2026-07-28/leftover.ts");
    expect(failure?.stderr).not.toContain("2025-11-25");
  });
});
