/**
 * What changed between a server's pinned definitions (its committed manifest, checked against the lock's hashes)
 * and what it serves now, one `Change` per difference with its class (`rules.ts`). Pure.
 */
import canonicalize from "canonicalize";
import { canonicalHash, entriesOf, KINDS, type KindList, type ServerPins } from "./contract.ts";
import { change, type Change, type RuleId } from "./rules.ts";
import { schemaParts } from "./schema-parts.ts";

type Entry = Readonly<Record<string, unknown>>;
type Manifest = Readonly<Record<string, unknown>>;

const same = (a: unknown, b: unknown): boolean => canonicalize(a ?? null) === canonicalize(b ?? null);
const isObject = (v: unknown): v is Entry => typeof v === "object" && v !== null && !Array.isArray(v);

const NOUN_RULES: Record<KindList, { removed: RuleId; added: RuleId; changed: RuleId; breakingFields: string[] }> = {
  tools: { removed: "tool-removed", added: "tool-added", changed: "definition-changed", breakingFields: [] },
  resources: {
    removed: "resource-removed",
    added: "resource-added",
    changed: "resource-changed",
    breakingFields: ["uri", "mimeType"],
  },
  resourceTemplates: {
    removed: "template-removed",
    added: "template-added",
    changed: "template-changed",
    breakingFields: ["uriTemplate", "mimeType"],
  },
  prompts: { removed: "prompt-removed", added: "prompt-added", changed: "definition-changed", breakingFields: [] },
};

interface Ctx {
  readonly server: string;
  readonly where: string;
  readonly out: Change[];
}

const add = (ctx: Ctx, rule: RuleId, message: string) => ctx.out.push(change(ctx.server, rule, ctx.where, message));

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
  if (!same(a.text, b.text)) add(ctx, "description-changed", "the input schema's descriptions or titles changed");
  if (same(a.shape, b.shape)) return;
  const old = objectInputs(a.shape);
  const now = objectInputs(b.shape);
  for (const name of Object.keys(old.props))
    if (!(name in now.props)) add(ctx, "input-removed", `input "${name}" is gone`);
  for (const [name, schema] of Object.entries(now.props)) {
    const required = now.required.has(name);
    if (!(name in old.props)) {
      add(
        ctx,
        required ? "input-required-added" : "input-optional-added",
        `new ${required ? "required" : "optional"} input "${name}"`,
      );
      continue;
    }
    if (!same(old.props[name], schema)) add(ctx, "input-type-changed", `input "${name}" changed its schema`);
    if (required && !old.required.has(name)) add(ctx, "input-required-added", `input "${name}" is now required`);
    if (!required && old.required.has(name)) add(ctx, "input-made-optional", `input "${name}" is now optional`);
  }
  if (!same(old.rest, now.rest)) add(ctx, "input-schema-changed", "the input schema changed outside its properties");
}

function compareOutput(ctx: Ctx, before: unknown, after: unknown): void {
  const a = schemaParts(before);
  const b = schemaParts(after);
  if (!same(a.shape, b.shape)) {
    const message =
      before === undefined
        ? "the tool now declares an output schema"
        : after === undefined
          ? "the tool no longer declares an output schema"
          : "the output schema changed";
    add(ctx, "output-type-changed", message);
  } else if (!same(a.text, b.text)) add(ctx, "description-changed", "the output schema's descriptions changed");
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
    if (required && was["required"] !== true) add(ctx, "argument-required-added", `argument "${name}" is now required`);
    if (!required && was["required"] === true) add(ctx, "argument-made-optional", `argument "${name}" is now optional`);
    if (!same(was["description"], arg["description"]) || !same(was["title"], arg["title"]))
      add(ctx, "description-changed", `argument "${name}"'s description or title changed`);
  }
}

/** Every difference of one definition, by field. */
function compareEntry(ctx: Ctx, list: KindList, before: Entry, after: Entry): void {
  const rules = NOUN_RULES[list];
  const fields = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const field of fields) {
    const [a, b] = [before[field], after[field]];
    if (same(a, b)) continue;
    if (field === "inputSchema") compareInput(ctx, a, b);
    else if (field === "outputSchema") compareOutput(ctx, a, b);
    else if (field === "arguments") compareArguments(ctx, a, b);
    else if (field === "description" || field === "title")
      add(ctx, "description-changed", `the ${field} changed${typeof b === "string" ? `: ${JSON.stringify(b)}` : ""}`);
    else if (field === "annotations") add(ctx, "annotations-changed", "the annotations changed");
    else if (rules.breakingFields.includes(field)) add(ctx, rules.changed, `${field} changed`);
    else if (field === "name" || field === "icons" || field === "size")
      add(ctx, "presentation-changed", `${field} changed`);
    else add(ctx, "definition-changed", `${field} changed`);
  }
}

/**
 * The changes of server `server` from `pinned` (the lock's pins and the committed manifest they pin) to `live`
 * (what it serves now, read at `liveRevision`). A definition whose live hash equals its pin is unchanged.
 */
export function classify(
  server: string,
  pinned: { readonly pins: ServerPins; readonly manifest: Manifest },
  live: { readonly pins: ServerPins; readonly manifest: Manifest },
): Change[] {
  const out: Change[] = [];
  const info: string[] = [];
  const [p, l] = [pinned.pins, live.pins];
  if (p.server.name !== l.server.name) info.push(`name ${p.server.name} → ${l.server.name}`);
  if (p.server.version !== l.server.version) info.push(`version ${p.server.version} → ${l.server.version}`);
  if (p.protocolRevision !== l.protocolRevision)
    info.push(`protocol revision ${p.protocolRevision} → ${l.protocolRevision}`);
  if (info.length > 0) out.push(change(server, "server-changed", "server", info.join(", ")));
  if (p.instructions !== l.instructions)
    out.push(change(server, "instructions-changed", "server", "the server's instructions changed"));
  for (const kind of KINDS) {
    const before = entriesOf(pinned.manifest, kind.list);
    const after = entriesOf(live.manifest, kind.list);
    const rules = NOUN_RULES[kind.list];
    for (const name of Object.keys(p[kind.list]))
      if (!(name in l[kind.list]))
        out.push(change(server, rules.removed, `${kind.list}/${name}`, `${kind.noun} "${name}" is gone`));
    for (const [name, hash] of Object.entries(l[kind.list])) {
      const where = `${kind.list}/${name}`;
      if (!(name in p[kind.list])) {
        out.push(change(server, rules.added, where, `new ${kind.noun} "${name}"`));
        continue;
      }
      if (p[kind.list][name] === hash) continue;
      const ctx: Ctx = { server, where, out: [] };
      const old = before.get(name);
      // The committed manifest is the pinned text only while its hash matches the pin.
      if (old && canonicalHash(old) === p[kind.list][name]) compareEntry(ctx, kind.list, old, after.get(name) ?? {});
      if (ctx.out.length === 0)
        ctx.out.push(change(server, "definition-changed", where, `${kind.noun} "${name}" differs from its pin`));
      out.push(...ctx.out);
    }
  }
  return out;
}
