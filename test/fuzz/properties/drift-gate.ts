/**
 * The drift gate (`check --live`, issue 34) as a property: a server's lists are pinned the way `import --config`
 * pins them (pins of the read, the lock's text parsed back, the committed manifest's YAML parsed back), then served
 * with random edits (any field changed, added or removed, copies of an entry, reordering, renames, names like
 * `__proto__` and `constructor`, invisible and bidi characters, the volatile fields), and compared by the function
 * `check --live` runs for each server (`classify`, its exit code by `exitCode`). The oracle knows nothing of the
 * classifier: a canonical deep equality of what is served against what was pinned, per list and per name, written
 * here (sorted keys, own keys only) without the documented volatile fields. It must hold that
 * - the exit code is non-zero exactly when some list differs from its pins (or the instructions do);
 * - every change names a name whose copies differ from its pin, and every such name has a change (none missed);
 * - no change is reported twice;
 * - no report format prints an invisible or bidi character raw.
 * `driftCase` and `oracleOf` are exported for the CI test, which runs a few cases through the real CLI.
 */
import fc from "fast-check";
import { parse } from "yaml";
import { classify } from "../../../generator/consumer/classify.ts";
import { pinsOf, type ServedLists } from "../../../generator/consumer/contract.ts";
import { manifestText } from "../../../generator/consumer/live.ts";
import { lockText, newLock, parseLock } from "../../../generator/consumer/lock.ts";
import { manifestOf, printable } from "../../../generator/consumer/read-server.ts";
import { exitCode, jsonReport, sarifReport, textReport } from "../../../generator/consumer/report.ts";
import type { Change } from "../../../generator/consumer/rules.ts";
import type { RunOptions } from "./frames.ts";
import { applyEdits, clone, driftCase, KEY, LIST_NAMES, type ListName, type Lists } from "./drift-gate-lists.ts";

export { applyEdits, driftCase, type Lists };

type Json = Record<string, unknown>;
/** docs/consumers.md, "Pinned contracts": the fields a pin leaves out, by path. */
const VOLATILE: Record<ListName, string[][]> = {
  tools: [],
  resources: [["size"], ["annotations", "lastModified"]],
  resourceTemplates: [["annotations", "lastModified"]],
  prompts: [],
};
export const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|[\u{e0000}-\u{e007f}]/u;
const REVISION = "2025-11-25";

// ---- the oracle: canonical deep equality, written here ----

/** Sorted-key JSON of a value, own keys only. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (typeof value === "object" && value !== null)
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Json)[k])}`)
      .join(",")}}`;
  return JSON.stringify(value);
}

/** The entry without the documented volatile fields (a parent object stays, emptied). */
function stable(list: ListName, entry: Json): Json {
  const copy = clone(entry);
  for (const path of VOLATILE[list]) {
    let parent: unknown = copy;
    for (const step of path.slice(0, -1))
      parent =
        typeof parent === "object" && parent !== null && Object.hasOwn(parent, step)
          ? (parent as Json)[step]
          : undefined;
    if (typeof parent === "object" && parent !== null && !Array.isArray(parent)) delete (parent as Json)[path.at(-1)!];
  }
  return copy;
}

export interface Oracle {
  /** `<list>/<key>` of every name whose served copies differ from its pin (or that was pinned and is gone). */
  readonly differing: Set<string>;
  readonly instructionsDiffer: boolean;
  readonly differs: boolean;
}

export function oracleOf(pinned: Lists, served: Lists): Oracle {
  const differing = new Set<string>();
  for (const list of LIST_NAMES) {
    const byKey = (entries: Json[]) => {
      const groups = new Map<string, string[]>();
      for (const entry of entries) {
        const key = String(entry[KEY[list]]);
        groups.set(key, [...(groups.get(key) ?? []), canonical(stable(list, entry))]);
      }
      return groups;
    };
    const before = byKey(pinned[list]);
    const after = byKey(served[list]);
    for (const key of new Set([...before.keys(), ...after.keys()])) {
      const pin = before.get(key) ?? [];
      const copies = after.get(key) ?? [];
      if (pin.length !== copies.length || copies.some((c) => c !== pin[0])) differing.add(`${list}/${key}`);
    }
  }
  const instructionsDiffer = pinned.server["instructions"] !== served.server["instructions"];
  return { differing, instructionsDiffer, differs: differing.size > 0 || instructionsDiffer };
}

// ---- the gate, as check --live runs it for one server ----

/** The lock entry and committed manifest `import --config` writes for `lists`, read back as `check --live` reads them. */
export function pinnedState(lists: Lists) {
  const served = clone(lists) as unknown as ServedLists;
  const manifest = manifestOf(served, "@mcp-gen/runtime");
  const lock = newLock("../mcp.json");
  lock.servers["drift"] = { manifest: "drift/mcp.yaml", ...pinsOf({ served, manifest }, REVISION) };
  const locked = parseLock(lockText(lock), "mcp.lock.json").servers["drift"]!;
  const committed = parse(manifestText("drift", "mcp.json", manifest)) as Json;
  return { pins: locked, manifest: committed };
}

export function gate(pinned: Lists, served: Lists): { code: number; changes: Change[] } {
  const changes = classify("drift", pinnedState(pinned), {
    served: clone(served) as unknown as ServedLists,
    revision: REVISION,
  });
  return { code: exitCode([{ server: "drift", manifest: "drift/mcp.yaml", changes }]), changes };
}

/**
 * Throws with what went wrong when the gate's answer is not the oracle's. `shown` is how a report spells a `where`
 * (the CLI's reports name invisible characters; in process it is the name itself).
 */
export function checkAgainstOracle(
  oracle: Oracle,
  code: number,
  changes: readonly { rule: string; where: string; message: string }[],
  shown: (where: string) => string = (where) => where,
): void {
  const differing = new Set([...oracle.differing].map(shown));
  if ((code !== 0) !== oracle.differs)
    throw new Error(
      `exit ${code}, but served ${oracle.differs ? "differs from" : "equals"} the pins: ${JSON.stringify(changes)}`,
    );
  const seen = new Set<string>();
  for (const c of changes) {
    const id = `${c.rule} ${c.where} ${c.message}`;
    if (seen.has(id)) throw new Error(`reported twice: ${id}`);
    seen.add(id);
    const expected = c.where === "server" ? oracle.instructionsDiffer : differing.has(c.where);
    if (!expected) throw new Error(`a change where nothing differs: ${id}`);
  }
  for (const where of differing)
    if (!changes.some((c) => c.where === where))
      throw new Error(`${where} differs from its pin, and no change names it`);
  if (oracle.instructionsDiffer && !changes.some((c) => c.where === "server"))
    throw new Error("the instructions differ, and no change says so");
}

/** The report formats as `check --live` prints them (text lines through `printable`), for the invisible check. */
function reports(changes: Change[]): string[] {
  const outcomes = [{ server: "drift", manifest: "drift/mcp.yaml", changes }];
  return [
    textReport(outcomes).map(printable).join("\n"),
    JSON.stringify(jsonReport(outcomes)),
    JSON.stringify(sarifReport(outcomes)),
  ];
}

export async function driftGate(options: RunOptions): Promise<void> {
  await fc.assert(
    fc.property(driftCase, ({ pinned, edits }) => {
      const served = applyEdits(pinned, edits);
      const { code, changes } = gate(pinned, served);
      checkAgainstOracle(oracleOf(pinned, served), code, changes);
      for (const report of reports(changes))
        if (INVISIBLE.test(report))
          throw new Error(`a report prints an invisible character raw: ${JSON.stringify(report)}`);
      // The unedited lists, in any order, always match.
      const reordered = applyEdits(
        pinned,
        LIST_NAMES.map((list) => ({ op: "reorder", list, keys: [7, 3, 5, 1, 6, 0, 2, 4] })),
      );
      if (gate(pinned, reordered).code !== 0) throw new Error("the pinned lists, reordered, do not match their pins");
    }),
    { numRuns: options.numRuns, seed: options.seed },
  );
}
