/**
 * The drift-gate property (properties/drift-gate.ts, issue 34) with a fixed seed: in process for a few hundred cases
 * (`npm run fuzz` runs 10,000), and two cases of the same generator through the real CLI: `import --config` of the
 * official-SDK lists server (test/generator/consumer/lists-server.mjs) as a process, then `check --live` after the
 * server's lists were edited, its exit code and changes held to the same independent oracle.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { visible } from "../../generator/consumer/report.ts";
import { cli, REPO } from "../generator/cli-run.ts";
import { applyEdits, checkAgainstOracle, driftCase, driftGate, INVISIBLE, oracleOf } from "./properties/drift-gate.ts";

const SCRATCH = path.join(REPO, ".tmp", `drift-gate-${process.pid}`);
const SERVER = path.join(REPO, "test/generator/consumer/lists-server.mjs");

afterAll(() => rm(SCRATCH, { recursive: true, force: true }));

describe("the drift gate", () => {
  it(
    "reports exactly what differs from the pins, each change once (400 cases, seed 3434)",
    () => driftGate({ numRuns: 400, seed: 3434 }),
    120_000,
  );

  // One case whose edits change what is served, one whose edits do not (a reorder, a volatile field, or nothing).
  const samples = fc.sample(driftCase, { seed: 3434, numRuns: 200 });
  const differing = samples.find(
    (s) => s.edits.length >= 2 && oracleOf(s.pinned, applyEdits(s.pinned, s.edits)).differs,
  );
  const same = samples.find((s) => s.edits.length >= 1 && !oracleOf(s.pinned, applyEdits(s.pinned, s.edits)).differs);

  for (const [label, sample] of [
    ["a case that changes what is served", differing],
    ["a case that does not", same],
  ] as const) {
    it(`holds through the real CLI against a real server process: ${label}`, async () => {
      expect(sample).toBeDefined();
      const { pinned, edits } = sample!;
      const folder = path.join(SCRATCH, label.replace(/\W+/g, "-"));
      const lists = path.join(folder, "lists.json");
      await mkdir(folder, { recursive: true });
      const serve = (l: typeof pinned) =>
        writeFile(lists, JSON.stringify({ ...l, server: undefined, instructions: l.server["instructions"] }));
      await serve(pinned);
      const config = { servers: { drift: { type: "stdio", command: process.execPath, args: [SERVER, lists] } } };
      await writeFile(path.join(folder, "mcp.json"), JSON.stringify(config));
      const imported = await cli(folder, "import", "--config", "mcp.json", "--out", "pinned");
      expect(imported.stderr).toBe("");
      expect(imported.code).toBe(0);

      const served = applyEdits(pinned, edits);
      await serve(served);
      const run = await cli(folder, "check", "--live", "--lock", "pinned/mcp.lock.json", "--format", "json");
      const report = JSON.parse(run.stdout) as {
        servers: { changes: { rule: string; where: string; message: string }[] }[];
      };
      const changes = report.servers[0]!.changes.filter((c) => c.where !== "server" || c.rule !== "server-changed");
      // The reports name invisible characters (⟨U+200B⟩): the oracle's names, spelled as the reports spell them.
      checkAgainstOracle(oracleOf(pinned, served), run.code, changes, (where) => visible(where).text);
      expect(JSON.stringify(JSON.parse(run.stdout))).not.toMatch(INVISIBLE);
    }, 180_000);
  }
});
