/**
 * The differences of one definition from its pin, field by field, each a `Change` with its rule (`rules.ts`). Both
 * sides are the definition as served without its volatile fields (`pinnedForm`). Pure.
 */
import { sameJson, type KindList } from "./contract.ts";
import { change, type Change, type RuleId } from "./rules.ts";
import { schemaParts } from "./schema-parts.ts";

type Entry = Readonly<Record<string, unknown>>;

const isObject = (v: unknown): v is Entry => typeof v === "object" && v !== null && !Array.isArray(v);
const at = (v: unknown, key: string): unknown => (isObject(v) && Object.hasOwn(v, key) ? v[key] : undefined);

/** Fields of each list whose change breaks code written against the pin (besides schemas and arguments). */
const BREAKING_FIELDS: Readonly<Record<KindList, { readonly rule: RuleId; readonly fields: readonly string[] }>> = {
  tools: { rule: "definition-changed", fields: [] },
  resources: { rule: "resource-changed", fields: ["uri", "mimeType"] },
  resourceTemplates: { rule: "template-changed", fields: ["uriTemplate", "mimeType"] },
  prompts: { rule: "definition-changed", fields: [] },
};

export interface Ctx {
  readonly server: string;
  readonly where: string;
  /** Put before each message (`copy 2 of 3: ` for a name listed more than once). */
  readonly prefix: string;
  readonly out: Change[];
}

const add = (ctx: Ctx, rule: RuleId, message: string) =>
  ctx.out.push(change(ctx.server, rule, ctx.where, `${ctx.prefix}${message}`));

/** A value in a message: JSON, shortened; `absent` for a missing one. */
export function brief(value: unknown): string {
  if (value === undefined) return "absent";
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** The own keys of two objects whose values differ (present on one side only included). */
function changedKeys(before: unknown, after: unknown): string[] {
  const keys = new Set([
    ...(isObject(before) ? Object.keys(before) : []),
    ...(isObject(after) ? Object.keys(after) : []),
  ]);
  const has = (v: unknown, k: string) => isObject(v) && Object.hasOwn(v, k);
  return [...keys].filter((k) => has(before, k) !== has(after, k) || !sameJson(at(before, k), at(after, k)));
}

/** `key: old → new` for each key of `keys` (`prefix` before each). */
const keyChanges = (before: unknown, after: unknown, keys: readonly string[], prefix = ""): string[] =>
  keys.map((k) => `${prefix}${k}: ${brief(at(before, k))} → ${brief(at(after, k))}`);

function objectInputs(schema: unknown): { props: Entry; required: Set<string>; rest: Entry } {
  const s = isObject(schema) ? schema : {};
  const { properties, required, ...rest } = s;
  return {
    props: isObject(properties) ? properties : {},
    required: new Set(Array.isArray(required) ? required.map(String) : []),
    rest,
  };
}

function compareInput(ctx: Ctx, before: unknown, after: unknown): void {
  const a = schemaParts(before);
  const b = schemaParts(after);
  if (!sameJson(a.text, b.text)) add(ctx, "description-changed", "the input schema's descriptions or titles changed");
  if (sameJson(a.shape, b.shape)) return;
  const old = objectInputs(a.shape);
  const now = objectInputs(b.shape);
  for (const name of Object.keys(old.props))
    if (!Object.hasOwn(now.props, name)) add(ctx, "input-removed", `input "${name}" is gone`);
  for (const [name, schema] of Object.entries(now.props)) {
    const required = now.required.has(name);
    if (!Object.hasOwn(old.props, name)) {
      add(
        ctx,
        required ? "input-required-added" : "input-optional-added",
        `new ${required ? "required" : "optional"} input "${name}"`,
      );
      continue;
    }
    if (!sameJson(old.props[name], schema)) add(ctx, "input-type-changed", `input "${name}" changed its schema`);
    if (required && !old.required.has(name)) add(ctx, "input-required-added", `input "${name}" is now required`);
    if (!required && old.required.has(name)) add(ctx, "input-made-optional", `input "${name}" is now optional`);
  }
  // Named by keyword and values, so `additionalProperties: absent → false` says what a caller now meets.
  const outside = keyChanges(old.rest, now.rest, changedKeys(old.rest, now.rest));
  if (outside.length > 0) add(ctx, "input-schema-changed", `the input schema changed: ${outside.join("; ")}`);
}

function compareOutput(ctx: Ctx, before: unknown, after: unknown): void {
  const a = schemaParts(before);
  const b = schemaParts(after);
  if (!sameJson(a.shape, b.shape)) {
    const message =
      before === undefined
        ? "the tool now declares an output schema"
        : after === undefined
          ? "the tool no longer declares an output schema"
          : "the output schema changed";
    add(ctx, "output-type-changed", message);
  } else if (!sameJson(a.text, b.text)) add(ctx, "description-changed", "the output schema's descriptions changed");
}

function compareArguments(ctx: Ctx, before: unknown, after: unknown): void {
  const list = (v: unknown) => new Map((Array.isArray(v) ? v.filter(isObject) : []).map((a) => [String(a["name"]), a]));
  const old = list(before);
  const now = list(after);
  for (const name of old.keys()) if (!now.has(name)) add(ctx, "argument-removed", `argument "${name}" is gone`);
  for (const [name, arg] of now) {
    const was = old.get(name);
    const required = arg["required"] === true;
    if (!was) {
      add(
        ctx,
        required ? "argument-required-added" : "argument-optional-added",
        `new ${required ? "required" : "optional"} argument "${name}"`,
      );
      continue;
    }
    const flipped = required !== (was["required"] === true);
    if (flipped && required) add(ctx, "argument-required-added", `argument "${name}" is now required`);
    if (flipped && !required) add(ctx, "argument-made-optional", `argument "${name}" is now optional`);
    const changed = changedKeys(was, arg);
    if (changed.includes("description") || changed.includes("title"))
      add(ctx, "description-changed", `argument "${name}"'s description or title changed`);
    const other = changed.filter((k) => k !== "description" && k !== "title" && !(k === "required" && flipped));
    if (other.length > 0) add(ctx, "definition-changed", keyChanges(was, arg, other, `argument "${name}" `).join("; "));
  }
}

/** `execution` of a tool: a change of `taskSupport` (absent: "forbidden") is additive when it became optional. */
function compareExecution(ctx: Ctx, before: unknown, after: unknown): void {
  const support = (v: unknown) => at(v, "taskSupport") ?? "forbidden";
  const [was, now] = [support(before), support(after)];
  if (!sameJson(was, now))
    add(
      ctx,
      now === "optional" ? "execution-widened" : "execution-changed",
      `execution.taskSupport ${brief(was)} → ${brief(now)}`,
    );
  const rest = (v: unknown) =>
    isObject(v) ? Object.fromEntries(Object.entries(v).filter(([k]) => k !== "taskSupport")) : {};
  const other = changedKeys(rest(before), rest(after));
  if (other.length > 0) add(ctx, "execution-changed", keyChanges(before, after, other, "execution.").join("; "));
}

/** Every difference of one definition, by field. */
export function compareEntry(ctx: Ctx, list: KindList, before: Entry, after: Entry): void {
  const breaking = BREAKING_FIELDS[list];
  for (const field of changedKeys(before, after)) {
    const [a, b] = [at(before, field), at(after, field)];
    const reported = ctx.out.length;
    if (field === "inputSchema") compareInput(ctx, a, b);
    else if (field === "outputSchema") compareOutput(ctx, a, b);
    else if (field === "arguments") compareArguments(ctx, a, b);
    else if (field === "description" || field === "title")
      add(ctx, "description-changed", `the ${field} changed${typeof b === "string" ? `: ${JSON.stringify(b)}` : ""}`);
    else if (field === "annotations")
      add(ctx, "annotations-changed", `the annotations changed: ${keyPaths(a, b, "annotations").join("; ")}`);
    else if (field === "execution" && list === "tools") compareExecution(ctx, a, b);
    else if (field === "_meta") add(ctx, "meta-changed", `_meta changed: ${keyPaths(a, b, "_meta").join("; ")}`);
    else if (breaking.fields.includes(field)) add(ctx, breaking.rule, `${field} changed: ${brief(a)} → ${brief(b)}`);
    else if (field === "name" || field === "icons") add(ctx, "presentation-changed", `${field} changed`);
    // Whatever the field-wise rules above leave unexplained (a reordered `required`, a repeated argument) still
    // differs as served: reported, never dropped.
    if (ctx.out.length === reported) add(ctx, "definition-changed", `${field} changed: ${brief(a)} → ${brief(b)}`);
  }
}

/** `path.key: old → new` for each leaf that differs between two JSON values (objects walked, own keys only). */
function keyPaths(before: unknown, after: unknown, path: string): string[] {
  if (!isObject(before) || !isObject(after)) return [`${path}: ${brief(before)} → ${brief(after)}`];
  return changedKeys(before, after).flatMap((k) =>
    Object.hasOwn(before, k) && Object.hasOwn(after, k)
      ? keyPaths(before[k], after[k], `${path}.${k}`)
      : [`${path}.${k}: ${brief(at(before, k))} → ${brief(at(after, k))}`],
  );
}
