/**
 * The drift-gate property's inputs (drift-gate.ts): lists a real server may serve, every field of each kind, with
 * names `import` accepts; and random edits of them (any field set, dropped or added, copies, removals, additions,
 * renames to any name, reordering, invisible and bidi characters, the instructions).
 */
import fc from "fast-check";

type Json = Record<string, unknown>;
export type Lists = { server: Json; tools: Json[]; resources: Json[]; resourceTemplates: Json[]; prompts: Json[] };
export type ListName = "tools" | "resources" | "resourceTemplates" | "prompts";
export const LIST_NAMES: readonly ListName[] = ["tools", "resources", "resourceTemplates", "prompts"];
export const KEY: Record<ListName, string> = {
  tools: "name",
  resources: "uri",
  resourceTemplates: "name",
  prompts: "name",
};

export const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** An object with these own keys (`__proto__` too, as an ordinary key). */
function record(entries: readonly (readonly [string, unknown])[]): Json {
  const out: Json = {};
  for (const [k, v] of entries)
    Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

// ---- arbitraries: lists a real server may serve (every field of the kind it is for) ----

const hidden = fc.constantFrom("\u200b", "\u200e", "\u202e", "\u2066", "\ufeff", "\u{e0041}\u{e0042}");
const text = fc
  .array(fc.oneof({ weight: 4, arbitrary: fc.string({ maxLength: 8 }) }, { weight: 1, arbitrary: hidden }), {
    maxLength: 4,
  })
  .map((parts) => parts.join(""));
const PROTO_NAMES = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];
/** Names `import` accepts (the pinned lists are imported): the tool-name pattern, prototype names included. */
const importable = fc.oneof(fc.constantFrom(...PROTO_NAMES, "read_file", "a"), fc.stringMatching(/^[a-z_]{1,6}$/));
/** Any name a server may serve later (edits): invisible and bidi characters too. */
const name = fc.oneof(
  fc.constantFrom(...PROTO_NAMES, "read_file", "a"),
  fc.stringMatching(/^[a-z_]{1,6}$/),
  fc.tuple(fc.stringMatching(/^[a-z]{1,4}$/), hidden).map(([a, b]) => a + b),
);
const propertySchema = fc.oneof(
  fc.record({ type: fc.constantFrom("string", "number", "boolean", "integer") }, { requiredKeys: ["type"] }),
  fc.record({
    type: fc.constant("string"),
    description: text,
    enum: fc.uniqueArray(fc.string({ maxLength: 3 }), { minLength: 1, maxLength: 3 }),
  }),
);
const objectSchema = fc
  .tuple(
    fc.uniqueArray(fc.tuple(name, propertySchema), { maxLength: 3, selector: ([k]) => k }),
    fc.boolean(),
    fc.boolean(),
  )
  .map(([props, requireFirst, closed]) => ({
    type: "object",
    properties: record(props),
    ...(requireFirst && props.length > 0 ? { required: [props[0]![0]] } : {}),
    ...(closed ? { additionalProperties: false } : {}),
  }));
const icons = fc.array(fc.record({ src: fc.constantFrom("https://x.test/a.png", "https://x.test/b.png") }), {
  maxLength: 1,
});
const uri = fc.oneof(
  fc.constantFrom("file:///a", "file:///__proto__", "mem://constructor"),
  name.map((n) => `mem://${n}`),
);

/** The value generator of each field of each kind: what an edit sets a field to. */
const FIELDS: Record<ListName, Record<string, fc.Arbitrary<unknown>>> = {
  tools: {
    title: text,
    description: text,
    inputSchema: objectSchema,
    outputSchema: objectSchema,
    annotations: fc.record({ readOnlyHint: fc.boolean(), title: text }, { requiredKeys: [] }),
    execution: fc.record({ taskSupport: fc.constantFrom("forbidden", "optional", "required") }),
    _meta: fc.record({ ui: fc.record({ resourceUri: fc.constantFrom("ui://app/v1", "ui://app/v2") }) }),
    icons,
  },
  resources: {
    name: text.filter((t) => t !== ""),
    title: text,
    description: text,
    mimeType: fc.constantFrom("text/plain", "application/json"),
    size: fc.nat({ max: 10_000 }),
    annotations: fc.record(
      {
        priority: fc.constantFrom(0, 0.5, 1),
        lastModified: fc.constantFrom("2026-01-01T00:00:00Z", "2026-02-02T00:00:00Z"),
      },
      { requiredKeys: [] },
    ),
    icons,
  },
  resourceTemplates: {
    uriTemplate: fc.constantFrom("mem://{id}", "mem://{+path}", "file:///{name}"),
    title: text,
    description: text,
    mimeType: fc.constantFrom("text/plain", "application/json"),
    annotations: fc.record(
      {
        priority: fc.constantFrom(0, 1),
        lastModified: fc.constantFrom("2026-01-01T00:00:00Z", "2026-03-03T00:00:00Z"),
      },
      { requiredKeys: [] },
    ),
  },
  prompts: {
    title: text,
    description: text,
    arguments: fc.uniqueArray(
      fc.record({ name, description: text, required: fc.boolean() }, { requiredKeys: ["name"] }),
      {
        maxLength: 3,
        selector: (a) => a.name,
      },
    ),
  },
};
const REQUIRED: Record<ListName, string[]> = {
  tools: ["inputSchema"],
  resources: ["name"],
  resourceTemplates: ["uriTemplate"],
  prompts: [],
};

function entryOf(list: ListName, names = name): fc.Arbitrary<Json> {
  const fields = FIELDS[list];
  return fc
    .tuple(list === "resources" ? uri : names, fc.record(fields, { requiredKeys: REQUIRED[list] as never[] }))
    .map(([key, rest]) => ({ [KEY[list]]: key, ...rest }));
}
const listOf = (list: ListName) =>
  fc.uniqueArray(entryOf(list, importable), { maxLength: 4, selector: (e) => String(e[KEY[list]]) });

export const listsArbitrary: fc.Arbitrary<Lists> = fc
  .record({
    instructions: fc.option(text, { nil: undefined }),
    tools: listOf("tools"),
    resources: listOf("resources"),
    resourceTemplates: listOf("resourceTemplates"),
    prompts: listOf("prompts"),
  })
  .map(({ instructions, ...lists }) => ({
    server: { name: "drift", version: "1.0.0", ...(instructions !== undefined ? { instructions } : {}) },
    ...lists,
  }));

// ---- edits ----

export type Edit =
  | { op: "set"; list: ListName; at: number; field: string; value: unknown }
  | { op: "drop"; list: ListName; at: number; field: string }
  | { op: "vendor"; list: ListName; at: number; field: string; value: unknown }
  | { op: "copy"; list: ListName; at: number; to: number }
  | { op: "remove"; list: ListName; at: number }
  | { op: "add"; list: ListName; entry: Json; to: number }
  | { op: "rename"; list: ListName; at: number; key: string }
  | { op: "reorder"; list: ListName; keys: number[] }
  | { op: "hide"; list: ListName; at: number; chars: string }
  | { op: "instructions"; value: string | undefined };

const listName = fc.constantFrom(...LIST_NAMES);
const at = fc.nat({ max: 7 });
const edit: fc.Arbitrary<Edit> = fc.oneof(
  listName.chain((list) =>
    fc.constantFrom(...Object.keys(FIELDS[list])).chain((field) =>
      fc.record({
        op: fc.constant("set" as const),
        list: fc.constant(list),
        at,
        field: fc.constant(field),
        value: FIELDS[list][field]!,
      }),
    ),
  ),
  listName.chain((list) =>
    fc.record({
      op: fc.constant("drop" as const),
      list: fc.constant(list),
      at,
      field: fc.constantFrom(...Object.keys(FIELDS[list])),
    }),
  ),
  fc.record({
    op: fc.constant("vendor" as const),
    list: listName,
    at,
    field: fc.constantFrom("x_vendor", "__proto__", "constructor"),
    value: fc.jsonValue({ maxDepth: 2 }),
  }),
  fc.record({ op: fc.constant("copy" as const), list: listName, at, to: at }),
  fc.record({ op: fc.constant("remove" as const), list: listName, at }),
  listName.chain((list) =>
    fc.record({ op: fc.constant("add" as const), list: fc.constant(list), entry: entryOf(list), to: at }),
  ),
  listName.chain((list) =>
    fc.record({
      op: fc.constant("rename" as const),
      list: fc.constant(list),
      at,
      key: list === "resources" ? uri : name,
    }),
  ),
  fc.record({
    op: fc.constant("reorder" as const),
    list: listName,
    keys: fc.array(fc.nat(), { minLength: 8, maxLength: 8 }),
  }),
  fc.record({ op: fc.constant("hide" as const), list: listName, at, chars: hidden }),
  fc.record({ op: fc.constant("instructions" as const), value: fc.option(text, { nil: undefined }) }),
);

/** The lists with `edits` applied (positions taken modulo the list's length; an empty list takes only adds). */
export function applyEdits(lists: Lists, edits: readonly Edit[]): Lists {
  const out = clone(lists);
  for (const e of edits) {
    if (e.op === "instructions") {
      if (e.value === undefined) delete out.server["instructions"];
      else out.server["instructions"] = e.value;
      continue;
    }
    const entries = out[e.list];
    if (e.op === "add") {
      entries.splice(e.to % (entries.length + 1), 0, clone(e.entry));
      continue;
    }
    if (entries.length === 0) continue;
    const i = e.op === "reorder" ? 0 : e.at % entries.length;
    const target = entries[i]!;
    const define = (field: string, value: unknown) =>
      Object.defineProperty(target, field, {
        value: clone(value),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    if (e.op === "set" || e.op === "vendor") define(e.field, e.value);
    else if (e.op === "drop" && !REQUIRED[e.list].includes(e.field)) delete target[e.field];
    else if (e.op === "copy") entries.splice(e.to % (entries.length + 1), 0, clone(target));
    else if (e.op === "remove") entries.splice(i, 1);
    else if (e.op === "rename") target[KEY[e.list]] = e.key;
    else if (e.op === "hide") target["description"] = `${String(target["description"] ?? "")}${e.chars}`;
    else if (e.op === "reorder") {
      const order = entries.map((entry, j) => [e.keys[j % e.keys.length]! + j / 100, entry] as const);
      out[e.list] = order.sort((a, b) => a[0] - b[0]).map(([, entry]) => entry);
    }
  }
  return out;
}

export const driftCase = fc.record({ pinned: listsArbitrary, edits: fc.array(edit, { maxLength: 4 }) });
