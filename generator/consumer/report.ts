/**
 * The outcome of `check --live` as text (for people), JSON (for scripts) and SARIF 2.1.0 (for code-scanning UIs:
 * one result per change, its rule the change kind, its location the server's manifest). Pure.
 */
import type { Log, ReportingDescriptor, Result } from "sarif";
import { cliVersion } from "../version.ts";
import { EXIT_BITS, RULES, type Change, type ChangeClass, type RuleId } from "./rules.ts";

export interface ServerOutcome {
  readonly server: string;
  /** The manifest that pins it, as a path from the current folder (`/`-separated). */
  readonly manifest: string;
  /** Why it could not be checked; absent when it was. */
  readonly failure?: string;
  readonly changes: readonly Change[];
}

/**
 * Characters a reviewer cannot see or that reorder what they see: controls (tab and line breaks aside: JSON escapes
 * them, and the text report's lines escape every control), format characters (zero-width, bidi
 * embeddings, overrides and isolates, Unicode tags), line and paragraph separators, variation selectors, the
 * combining grapheme joiner and the Hangul fillers.
 */
const INVISIBLE = /(?:(?![\t\n\r])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Variation_Selector}\u115f\u1160\u3164\uffa0]|\u034f)+/gu;
/** Unicode tag characters spelling printable ASCII (U+E0020–U+E007E): text hidden from the eye, not from a model. */
const TAG_RUN = /[\u{e0020}-\u{e007e}]+|./gsu;
const TAG_RUN_ONLY = /^[\u{e0020}-\u{e007e}]+$/u;

/**
 * `text` with every invisible character named by its code point (`⟨U+200B⟩`; a run of tag characters also spelled
 * out: `⟨tags "…"⟩`), so every report format shows what a model would read. `count` is how many were named.
 */
export function visible(text: string): { text: string; count: number } {
  let count = 0;
  const name = (c: string) => `⟨U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}⟩`;
  const shown = text.replace(INVISIBLE, (run) =>
    run.replace(TAG_RUN, (part) => {
      const chars = [...part];
      count += chars.length;
      if (chars.length === 1 || !TAG_RUN_ONLY.test(part)) return chars.map(name).join("");
      return `⟨tags ${JSON.stringify(chars.map((c) => String.fromCodePoint(c.codePointAt(0)! - 0xe0000)).join(""))}⟩`;
    }),
  );
  return { text: shown, count };
}

/** A message with its invisible characters named, said first (a long message may be shortened on a terminal). */
function shownMessage(message: string): string {
  const { text, count } = visible(message);
  return count === 0 ? text : `(${count} invisible character${count > 1 ? "s" : ""} named ⟨…⟩) ${text}`;
}

/** The outcomes as every report shows them: server text (names, messages, failures) with invisible characters named. */
function shown(outcomes: readonly ServerOutcome[]): ServerOutcome[] {
  const name = (t: string) => visible(t).text;
  return outcomes.map((o) => ({
    server: name(o.server),
    manifest: name(o.manifest),
    ...(o.failure !== undefined ? { failure: shownMessage(o.failure) } : {}),
    changes: o.changes.map((c) => ({
      ...c,
      server: name(c.server),
      where: name(c.where),
      message: shownMessage(c.message),
    })),
  }));
}

/** The exit code: `EXIT_BITS` of every class found, OR-ed (info changes never count). */
export function exitCode(outcomes: readonly ServerOutcome[]): number {
  let code = 0;
  for (const o of outcomes) {
    if (o.failure !== undefined) code |= EXIT_BITS.error;
    for (const c of o.changes) if (c.class !== "info") code |= EXIT_BITS[c.class];
  }
  return code;
}

const ORDER: readonly ChangeClass[] = ["breaking", "descriptive", "additive", "info"];

function counts(outcomes: readonly ServerOutcome[]): Record<ChangeClass, number> {
  const out: Record<ChangeClass, number> = { breaking: 0, descriptive: 0, additive: 0, info: 0 };
  for (const o of outcomes) for (const c of o.changes) out[c.class]++;
  return out;
}

export function textReport(served: readonly ServerOutcome[]): string[] {
  const outcomes = shown(served);
  const lines: string[] = [];
  for (const o of outcomes) {
    if (o.failure !== undefined) {
      lines.push(`${o.server}: not checked: ${o.failure}`);
      continue;
    }
    if (o.changes.length === 0) {
      lines.push(`${o.server}: matches its pins`);
      continue;
    }
    lines.push(`${o.server}: ${o.changes.length} change${o.changes.length > 1 ? "s" : ""} (${o.manifest})`);
    const sorted = [...o.changes].sort((a, b) => ORDER.indexOf(a.class) - ORDER.indexOf(b.class));
    for (const c of sorted) lines.push(`  ${c.class.padEnd(11)} ${c.where}: ${c.message} [${c.rule}]`);
  }
  const n = counts(outcomes);
  lines.push(
    `${n.breaking} breaking, ${n.descriptive} descriptive (text a model reads: review for tool poisoning), ` +
      `${n.additive} additive; exit ${exitCode(outcomes)}`,
  );
  return lines;
}

export function jsonReport(served: readonly ServerOutcome[]): unknown {
  const outcomes = shown(served);
  return {
    version: 1,
    exitCode: exitCode(outcomes),
    counts: counts(outcomes),
    servers: outcomes.map((o) => ({
      server: o.server,
      manifest: o.manifest,
      ...(o.failure !== undefined ? { failure: o.failure } : {}),
      changes: o.changes.map(({ rule, class: cls, where, message }) => ({ rule, class: cls, where, message })),
    })),
  };
}

const LEVEL: Record<ChangeClass, "error" | "warning" | "note" | "none"> = {
  breaking: "error",
  descriptive: "warning",
  additive: "note",
  info: "none",
};

/** A SARIF 2.1.0 log with one run (typed by the SARIF object model of `@types/sarif`). */
export function sarifReport(served: readonly ServerOutcome[]): Log {
  const outcomes = shown(served);
  const ids = Object.keys(RULES) as RuleId[];
  const rules: ReportingDescriptor[] = ids.map((id) => ({
    id,
    shortDescription: { text: RULES[id].summary },
    defaultConfiguration: { level: LEVEL[RULES[id].class] },
    properties: { class: RULES[id].class },
  }));
  const results = outcomes.flatMap((o) =>
    o.changes.map((c): Result => ({
      ruleId: c.rule,
      ruleIndex: ids.indexOf(c.rule),
      level: LEVEL[c.class],
      message: { text: `${c.server}: ${c.where}: ${c.message}` },
      locations: [
        {
          physicalLocation: { artifactLocation: { uri: o.manifest } },
          logicalLocations: [{ fullyQualifiedName: `${c.server}/${c.where}`, kind: "member" }],
        },
      ],
      properties: { class: c.class, server: c.server },
    })),
  );
  const failures = outcomes.filter((o) => o.failure !== undefined);
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "mcp-gen",
            version: cliVersion(),
            rules,
          },
        },
        invocations: [
          {
            executionSuccessful: failures.length === 0,
            toolExecutionNotifications: failures.map((o) => ({
              level: "error",
              message: { text: `${o.server}: not checked: ${o.failure}` },
            })),
          },
        ],
        results,
      },
    ],
  };
}
