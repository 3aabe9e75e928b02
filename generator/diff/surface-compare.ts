/**
 * Two manifest surfaces → what regenerating changes (`ManifestDiff`). Pure: no files, no printing. Entries are
 * matched by name (resources by URI), revisions by bindings folder or name; types compare by structure
 * (`diffDeclaration`, shared with the revision diff), documentation left out.
 */
import type { IrTypeDecl } from "../ir/model.ts";
import { diffDeclaration, diffTypes } from "./compare.ts";
import type { Change } from "./model.ts";
import { decodeMethod } from "./surface.ts";
import type {
  Descriptor,
  DiffOrigin,
  EntriesDiff,
  EntryChange,
  EntrySummary,
  ManifestDiff,
  ManifestSurface,
  MethodFactsChange,
  MethodsDiff,
  RevisionBrief,
  RevisionSurface,
  RevisionUpdate,
} from "./surface-model.ts";

export function diffSurfaces(
  from: ManifestSurface,
  to: ManifestSurface,
  origins: { readonly from: DiffOrigin; readonly to: DiffOrigin },
): ManifestDiff {
  const types = { from: byName(from.types, (t) => t.name), to: byName(to.types, (t) => t.name) };
  const typeRows = (label: string, a: string | undefined, b: string | undefined): Change[] => {
    if (a === undefined || b === undefined) return a === b ? [] : [{ field: label, from: a ?? null, to: b ?? null }];
    const [x, y] = [types.from.get(a), types.to.get(b)];
    const renamed: Change[] = a === b ? [] : [{ field: label, from: a, to: b }];
    if (!x || !y) return renamed;
    return [...renamed, ...prefixed(label, diffDeclaration(x, y))];
  };

  const tools = diffEntries(from.tools, to.tools, (t) => t.name, {
    handler: (t) => `${t.name}(input: ${t.input}) → ${t.output ?? "content"}`,
    signature: (a, b) => [...typeRows("input", a.input, b.input), ...typeRows("output", a.output, b.output)],
    served: (a, b) => [
      ...values([["scopes", a.scopes.join(", ") || null, b.scopes.join(", ") || null]]),
      ...descriptorRows(a.descriptor, b.descriptor),
    ],
  });
  const resources = diffEntries(from.resources, to.resources, (r) => r.uri, {
    handler: (r) => `"${r.uri}"(uri)`,
    signature: () => [],
    served: (a, b) => descriptorRows(a.descriptor, b.descriptor),
  });
  const resourceTemplates = diffEntries(from.resourceTemplates, to.resourceTemplates, (t) => t.name, {
    handler: (t) => `${t.name}(variables: ${t.variables}, uri)${completes(t.completions)}`,
    signature: (a, b) => [
      ...typeRows("variables", a.variables, b.variables),
      ...values([["completions", a.completions.join(", ") || null, b.completions.join(", ") || null]]),
    ],
    served: (a, b) => descriptorRows(a.descriptor, b.descriptor),
  });
  const prompts = diffEntries(from.prompts, to.prompts, (p) => p.name, {
    handler: (p) => `${p.name}(args: ${p.arguments})${completes(p.completions)}`,
    signature: (a, b) => [
      ...typeRows("arguments", a.arguments, b.arguments),
      ...values([["completions", a.completions.join(", ") || null, b.completions.join(", ") || null]]),
    ],
    served: (a, b) => descriptorRows(a.descriptor, b.descriptor),
  });

  // Types an entry names are compared under that entry; the rest (`$defs`) here.
  const attributed = new Set(
    [from, to].flatMap((s) => [
      ...s.tools.flatMap((t) => [t.input, ...(t.output ? [t.output] : [])]),
      ...s.resourceTemplates.map((t) => t.variables),
      ...s.prompts.map((p) => p.arguments),
    ]),
  );
  const rest = (decls: readonly IrTypeDecl[]) => decls.filter((d) => !attributed.has(d.name));
  const otherTypes = diffTypes(rest(from.types), rest(to.types));

  const result = {
    server: descriptorRows(from.server, to.server),
    generation: values([
      ["runtimeImport", from.generation.runtimeImport, to.generation.runtimeImport],
      ["importExtension", from.generation.importExtension, to.generation.importExtension],
    ]),
    capabilities: capabilityRows(from.capabilities, to.capabilities),
    tools,
    resources,
    resourceTemplates,
    prompts,
    types: otherTypes,
    revisions: diffRevisions(from, to),
  };
  return { from: origins.from, to: origins.to, unchanged: isEmpty(result), ...result };
}

interface EntryRules<T> {
  /** The handler, as one line. */
  readonly handler: (entry: T) => string;
  /** Changes to the handler's parameters or result. */
  readonly signature: (a: T, b: T) => Change[];
  /** Changes to what is served only. */
  readonly served: (a: T, b: T) => Change[];
}

function diffEntries<T>(
  from: readonly T[],
  to: readonly T[],
  key: (e: T) => string,
  rules: EntryRules<T>,
): EntriesDiff {
  const a = byName(from, key);
  const b = byName(to, key);
  const summary = (e: T): EntrySummary => ({ name: key(e), handler: rules.handler(e) });
  const changed: EntryChange[] = [];
  for (const name of sorted(a.keys())) {
    const x = a.get(name)!;
    const y = b.get(name);
    if (y === undefined) continue;
    const signature = rules.signature(x, y);
    const rows = [...signature, ...rules.served(x, y)];
    if (rows.length > 0) changed.push({ name, signature: signature.length > 0, changes: rows });
  }
  return {
    added: sorted(b.keys())
      .filter((k) => !a.has(k))
      .map((k) => summary(b.get(k)!)),
    removed: sorted(a.keys())
      .filter((k) => !b.has(k))
      .map((k) => summary(a.get(k)!)),
    changed,
  };
}

function diffRevisions(from: ManifestSurface, to: ManifestSurface): ManifestDiff["revisions"] {
  const key = (r: RevisionSurface) => r.bindings ?? r.name;
  const a = byName(from.revisions, key);
  const b = byName(to.revisions, key);
  const switches = { from: new Set(from.capabilities), to: new Set(to.capabilities) };
  const added = to.revisions.filter((r) => !a.has(key(r)));
  // What an added revision brings is shown against the newest revision served before.
  const newest = [...from.revisions].sort((x, y) => compare(y.version, x.version))[0];
  const updated: RevisionUpdate[] = [];
  for (const revision of to.revisions) {
    const before = a.get(key(revision)) ?? (added.includes(revision) ? newest : undefined);
    if (before === undefined) {
      updated.push(revisionUpdate(undefined, revision, switches));
      continue;
    }
    const update = revisionUpdate(before, revision, switches);
    const isNew = !a.has(key(revision));
    if (isNew || update.schemaChanged || !isEmpty(update.revision) || !isEmpty(update.methods)) updated.push(update);
  }
  return {
    added: added.map(brief),
    removed: from.revisions.filter((r) => !b.has(key(r))).map(brief),
    updated,
  };
}

type Switches = { readonly from: ReadonlySet<string>; readonly to: ReadonlySet<string> };

function revisionUpdate(
  before: RevisionSurface | undefined,
  after: RevisionSurface,
  switches: Switches,
): RevisionUpdate {
  return {
    name: after.name,
    comparedWith: before?.name ?? null,
    revision: before
      ? values([
          ["bindings", before.bindings ?? null, after.bindings ?? null],
          ["version", before.version, after.version],
          ["era", before.era ?? null, after.era ?? null],
          ["batches", before.batches, after.batches],
        ])
      : [],
    schemaChanged: before?.schema !== after.schema,
    methods: diffMethods(before?.methods ?? {}, after.methods, switches),
  };
}

function diffMethods(
  from: Readonly<Record<string, string>>,
  to: Readonly<Record<string, string>>,
  switches: Switches,
): MethodsDiff {
  const names = sorted(new Set([...Object.keys(from), ...Object.keys(to)]));
  const decode = (method: string, side: "from" | "to") => {
    const line = (side === "from" ? from : to)[method];
    return line === undefined ? undefined : decodeMethod(method, line, switches[side]);
  };
  const added = names.filter((m) => !(m in from)).map((m) => decode(m, "to")!.facts);
  const removed = names.filter((m) => !(m in to)).map((m) => decode(m, "from")!.facts);
  const changed: MethodFactsChange[] = [];
  for (const method of names) {
    const [x, y] = [decode(method, "from"), decode(method, "to")];
    if (!x || !y) continue;
    const a = x.facts;
    const b = y.facts;
    const typeRow = (field: string, labels: [string | null, string | null], names: [string | null, string | null]) => {
      if (labels[0] === labels[1]) return [];
      if (names[0] !== names[1]) return [{ field, from: names[0], to: names[1] }];
      return [{ field, from: names[0], to: `${names[1]} (changed inside)` }];
    };
    const rows: Change[] = [
      ...values([
        ["kind", a.kind, b.kind],
        ["direction", a.direction, b.direction],
        ["delivery", a.delivery, b.delivery],
        ["capability", a.capability, b.capability],
      ]),
      ...typeRow("params", [x.paramsLabel, y.paramsLabel], [a.params, b.params]),
      ...typeRow("result", [x.resultLabel, y.resultLabel], [a.result, b.result]),
      ...values([["facts", a.facts.join(", ") || null, b.facts.join(", ") || null]]),
    ];
    if (rows.length > 0) changed.push({ method, served: b.served, changes: rows });
  }
  return { added, removed, changed };
}

function brief(r: RevisionSurface): RevisionBrief {
  return {
    name: r.name,
    bindings: r.bindings ?? null,
    version: r.version,
    era: r.era ?? null,
    batches: r.batches,
    methods: Object.keys(r.methods).length,
  };
}

function capabilityRows(from: readonly string[], to: readonly string[]): Change[] {
  const [a, b] = [new Set(from), new Set(to)];
  return sorted(new Set([...a, ...b]))
    .filter((c) => a.has(c) !== b.has(c))
    .map((c) => ({ field: c, from: a.has(c), to: b.has(c) }));
}

/** One row per descriptor key whose value differs; strings as written, anything else as JSON. */
function descriptorRows(a: Descriptor, b: Descriptor): Change[] {
  const text = (v: unknown) => (v === undefined ? null : typeof v === "string" ? v : stableText(v));
  return values(sorted(new Set([...Object.keys(a), ...Object.keys(b)])).map((k) => [k, text(a[k]), text(b[k])]));
}

function stableText(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => compare(x, y)))
      : v,
  );
}

function values(rows: readonly (readonly [string, Change["from"], Change["to"]])[]): Change[] {
  return rows.filter(([, a, b]) => a !== b).map(([field, a, b]) => ({ field, from: a, to: b }));
}

/** `input` + `property city` → `input property city`; a whole-type change (`type`) becomes `input`. */
function prefixed(label: string, rows: readonly Change[]): Change[] {
  return rows.map((r) => ({ ...r, field: r.field === "type" ? label : `${label} ${r.field}` }));
}

const completes = (names: readonly string[]) => (names.length > 0 ? `, completes ${names.join(", ")}` : "");

function isEmpty(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "object" && value !== null) return Object.values(value).every(isEmpty);
  return true;
}

const byName = <T>(items: readonly T[], key: (item: T) => string) => new Map(items.map((item) => [key(item), item]));
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const sorted = (keys: Iterable<string>) => [...keys].sort(compare);
