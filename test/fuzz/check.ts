/** Does what the server answered match what a frame's construction says it must answer? */
import type { Expect, IdExpect, Outcome } from "./frames.ts";

/** One answer as received: the parsed JSON value and the raw text it came in (for digit-exact ids). */
export interface Answer {
  readonly value: unknown;
  readonly raw: string;
}

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

function idMatches(expected: IdExpect, answer: Obj, raw: string, base: number): boolean {
  const id = answer["id"];
  if (expected === null) return id === null;
  if ("self" in expected) return id === base + expected.self;
  if ("value" in expected) return id === expected.value;
  // Digits exactly as sent: a rounded double would print differently.
  return new RegExp(`"id"\\s*:\\s*${expected.raw}(?![0-9.eE])`).test(raw);
}

function outcomeMatches(outcome: Outcome, answer: Obj): boolean {
  if (outcome === "result") return "result" in answer && !("error" in answer);
  const error = answer["error"];
  return !("result" in answer) && isObject(error) && error["code"] === outcome && typeof error["message"] === "string";
}

/** Why `answer` is not an acceptable answer for a single-answer expectation, or undefined when it is. */
export function mismatchOne(
  expect: Extract<Expect, { kind: "one" }>,
  answer: unknown,
  raw: string,
  base: number,
): string | undefined {
  if (!isObject(answer) || answer["jsonrpc"] !== "2.0") return `not a JSON-RPC 2.0 response: ${raw.slice(0, 300)}`;
  // Several outcomes: the i-th outcome goes with the i-th id (e.g. a result for the id sent, or -32600 with null).
  const pairs: Array<[Outcome, IdExpect[]]> =
    expect.outcomes.length > 1
      ? expect.outcomes.map((o, i) => [o, [expect.ids[i] ?? null]])
      : [[expect.outcomes[0]!, [...expect.ids]]];
  for (const [outcome, ids] of pairs)
    if (outcomeMatches(outcome, answer) && ids.some((id) => idMatches(id, answer, raw, base))) return undefined;
  return `expected ${describe(expect)}, got ${raw.slice(0, 300)}`;
}

export function describe(expect: Expect): string {
  if (expect.kind === "none") return "no answer";
  if (expect.kind === "batch") return `a batch answer [${expect.elements.map(describe).join(", ")}]`;
  return `${expect.outcomes.join(" or ")} with id ${expect.ids.map((i) => JSON.stringify(i)).join(" or ")}`;
}

/** How many answers (messages) an expectation produces: a batch is answered by one array, or nothing. */
export function answerCount(expect: Expect): number {
  if (expect.kind === "none") return 0;
  if (expect.kind === "one") return 1;
  return expect.elements.some((e) => e.kind !== "none") ? 1 : 0;
}

/** Why the answers to one frame are wrong, or undefined when they are right. */
export function mismatch(expect: Expect, answers: readonly Answer[], base: number): string | undefined {
  const want = answerCount(expect);
  if (answers.length !== want)
    return `expected ${describe(expect)}, got ${answers.length} answers: ${answers.map((a) => a.raw.slice(0, 200)).join(" | ")}`;
  if (want === 0) return undefined;
  const { value, raw } = answers[0]!;
  if (expect.kind === "one") return mismatchOne(expect, value, raw, base);
  if (expect.kind !== "batch") return undefined;
  if (!Array.isArray(value)) return `expected a batch answer (an array), got ${raw.slice(0, 300)}`;
  return mismatchBatch(expect, value, base);
}

/** Each element answered on its own, in any order; notifications not at all (JSON-RPC 2.0 §6). */
export function mismatchBatch(
  expect: Extract<Expect, { kind: "batch" }>,
  values: readonly unknown[],
  base: number,
): string | undefined {
  const remaining = [...values];
  const wanted = expect.elements.filter((e): e is Extract<Expect, { kind: "one" }> => e.kind === "one");
  if (remaining.length !== wanted.length)
    return `expected ${wanted.length} batch answers, got ${JSON.stringify(values).slice(0, 300)}`;
  for (const element of wanted) {
    const at = remaining.findIndex((v) => mismatchOne(element, v, JSON.stringify(v), base) === undefined);
    if (at === -1) return `no batch answer matches ${describe(element)} in ${JSON.stringify(values).slice(0, 300)}`;
    remaining.splice(at, 1);
  }
  return undefined;
}

/** Server-to-client traffic that answers nothing (notifications and requests). */
export function isServerInitiated(value: unknown): boolean {
  return isObject(value) && typeof value["method"] === "string";
}
