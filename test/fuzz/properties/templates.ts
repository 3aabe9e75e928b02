/**
 * Resource-template matching as properties (issue 20, item 1). Templates are drawn the way resource templates are
 * written: a path of literals, `{var}` and `{+var}` values, then optional `{?…}`, `{&…}` and `{#…}`.
 * - round trip: a URI that expansion wrote matches, and the variables read back expand to the same URI (an oracle
 *   that holds whichever of several readings the matcher picks);
 * - time: URIs up to the matcher's length bound, made of the characters templates split on, match (or not) in
 *   under 10 ms of CPU time, the fastest of five runs (a preempted or cold run says nothing about the algorithm).
 */
import fc from "fast-check";
import {
  DEFAULT_MAX_MATCHED_URI_LENGTH,
  expandUriTemplate,
  matchUriTemplate,
} from "../../../runtime/protocol/uri-template.ts";
import type { RunOptions } from "./frames.ts";

const LITERALS = ["s://", "/", "-", ".", "x", "_", "a/b", "~", "%20"];
type Value = string | undefined;

interface Drawn {
  readonly template: string;
  readonly values: Readonly<Record<string, Value>>;
}

/** A value for `{var}` or `{+var}`: not empty (expansion of "" is ""), no `%` under `+` (kept as a triplet). */
const pathValue = (reserved: boolean): fc.Arbitrary<string> =>
  fc
    .string({ unit: "grapheme", minLength: 1, maxLength: 8 })
    .filter((v) => !reserved || !v.includes("%"))
    .map((v) => v);

const queryValue: fc.Arbitrary<Value> = fc.option(fc.string({ unit: "grapheme", maxLength: 8 }), {
  nil: undefined,
});

/** A template and values for its variables (names v0, v1, … in order of use). */
const drawn: fc.Arbitrary<Drawn> = fc
  .record({
    // Each expression is followed by a literal: `{a}{b}` has no one right reading.
    lead: fc.constantFrom("", ...LITERALS),
    path: fc.array(fc.tuple(fc.constantFrom("", "+"), fc.constantFrom(...LITERALS)), { maxLength: 5 }),
    query: fc.array(fc.constant(null), { maxLength: 3 }),
    more: fc.array(fc.constant(null), { maxLength: 2 }),
    fragment: fc.boolean(),
    seed: fc.infiniteStream(fc.tuple(pathValue(false), pathValue(true), queryValue)),
  })
  .map(({ lead, path, query, more, fragment, seed }) => {
    const values: Record<string, Value> = {};
    let n = 0;
    const next = () => seed.next().value as [string, string, Value];
    let template = lead;
    for (const [op, text] of path) {
      const name = `v${n++}`;
      template += `{${op}${name}}${text}`;
      values[name] = next()[op === "+" ? 1 : 0];
    }
    const block = (op: string, size: number) => {
      if (size === 0) return;
      const names = Array.from({ length: size }, () => `v${n++}`);
      for (const name of names) values[name] = next()[2];
      template += `{${op}${names.join(",")}}`;
    };
    block("?", query.length);
    block("&", more.length);
    if (fragment) {
      const name = `v${n++}`;
      template += `{#${name}}`;
      values[name] = next()[1];
    }
    return { template, values };
  });

/** fc.assert with a short report: counterexamples here can be 16,000 characters long. */
export function holds<T>(property: fc.IProperty<T>, options: RunOptions): void {
  report(fc.check(property, { numRuns: options.numRuns, seed: options.seed }));
}

/** `holds` for an async property. */
export async function holdsAsync<T>(property: fc.IAsyncProperty<T>, options: RunOptions): Promise<void> {
  report(await fc.check(property, { numRuns: options.numRuns, seed: options.seed }));
}

function report<T>(details: fc.RunDetails<T>): void {
  if (!details.failed) return;
  const example = JSON.stringify(details.counterexample).slice(0, 300);
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(
    `property failed (seed ${details.seed}, path ${details.counterexamplePath}): ${cause.slice(0, 500)}\ncounterexample: ${example}`,
  );
}

export function templateRoundTrip(options: RunOptions): void {
  holds(
    fc.property(drawn, ({ template, values }) => {
      const uri = expandUriTemplate(template, values);
      const read = matchUriTemplate(template, uri);
      if (read === undefined) throw new Error(`${JSON.stringify(uri)} did not match ${template}`);
      const again = expandUriTemplate(template, read);
      if (again !== uri) throw new Error(`${template}: ${uri} read as ${JSON.stringify(read)} expands to ${again}`);
    }),
    options,
  );
}

/** Templates with many splitting points, including the two. */
const hardTemplates = fc.oneof(
  fc.constantFrom("weather://{city}-{date}-{unit}", "{a}.{b}.{c}.{d}", "{+a}{+b}{+c}{+d}{#e}", "q{?a,b,c}{&d}"),
  drawn.map((d) => d.template),
);

/** A URI of (up to) the length bound: a short chunk of splitting characters repeated, then one more character. */
const adversarialUri = fc
  .record({
    chunk: fc.string({
      unit: fc.constantFrom("-", ".", "/", "?", "&", "=", "#", "a", "v0", "%", "s://"),
      minLength: 1,
    }),
    tail: fc.constantFrom("", "!", "/", "#", "\u2028"),
    cut: fc.nat({ max: 16 }),
  })
  .map(({ chunk, tail, cut }) => {
    const body = chunk.repeat(Math.ceil(DEFAULT_MAX_MATCHED_URI_LENGTH / chunk.length));
    return (body.slice(0, DEFAULT_MAX_MATCHED_URI_LENGTH - tail.length - cut) + tail).slice(
      0,
      DEFAULT_MAX_MATCHED_URI_LENGTH,
    );
  });

export const MATCH_BUDGET_MS = 10;

export function adversarialMatching(options: RunOptions): void {
  holds(
    fc.property(hardTemplates, adversarialUri, (template, uri) => {
      let best = Infinity;
      let read: Record<string, string> | undefined;
      for (let i = 0; i < 5; i++) {
        const started = process.cpuUsage();
        read = matchUriTemplate(template, uri);
        const spent = process.cpuUsage(started);
        best = Math.min(best, (spent.user + spent.system) / 1000);
      }
      if (best >= MATCH_BUDGET_MS)
        throw new Error(
          `${template} against ${uri.length} characters (${uri.slice(0, 40)}…) took ${best.toFixed(1)} ms`,
        );
      // Whatever it reads, the reading fits the template's variables.
      for (const [name, value] of Object.entries(read ?? {}))
        if (!/^v\d+$|^[a-z]+$/.test(name) || typeof value !== "string") throw new Error(`odd reading ${name}`);
    }),
    options,
  );
}
