/**
 * Two revisions' IRs → their differences (`RevisionDiff`). Pure: no files, no printing. Types are compared by
 * structure with documentation left out; types print as TypeScript (the generator's own type printer).
 */
import type { IrMethod, IrModel, IrObjectType, IrProp, IrType, IrTypeDecl } from "../ir/model.ts";
import { emitTypeExpression } from "../emit/ts-types.ts";
import type { Change, DiffSide, MethodChange, MethodSummary, RevisionDiff, TypeChange } from "./model.ts";

export function diffModels(from: IrModel, to: IrModel): RevisionDiff {
  const a = side(from);
  const b = side(to);
  const revision = changes([
    ["version", a.version, b.version],
    ["era", a.era ?? null, b.era ?? null],
    ["batches", a.batches, b.batches],
  ]);
  return {
    from: a,
    to: b,
    revision,
    methods: diffMethods(from, to),
    types: diffTypes(from.types, to.types),
  };
}

function side(model: IrModel): DiffSide {
  const { era, version, batches } = model.protocol;
  return { name: model.revision, version, ...(era ? { era } : {}), batches };
}

function changes(rows: readonly (readonly [string, Change["from"], Change["to"]])[]): Change[] {
  return rows.filter(([, from, to]) => from !== to).map(([field, from, to]) => ({ field, from, to }));
}

const byName = <T>(items: readonly T[], key: (item: T) => string) => new Map(items.map((item) => [key(item), item]));
const sortedKeys = (keys: Iterable<string>) => [...keys].sort();

function diffMethods(fromModel: IrModel, toModel: IrModel): RevisionDiff["methods"] {
  const a = byName(fromModel.methods, (m) => m.method);
  const b = byName(toModel.methods, (m) => m.method);
  const fromTypes = byName(fromModel.types, (t) => t.name);
  const toTypes = byName(toModel.types, (t) => t.name);
  /**
   * Params or results: the same when their structure is (written inline on one side and named on the other, too);
   * a named type's own changes are listed under types, so two names only report the renaming.
   */
  const typeChanges = (field: string, x: IrType | undefined, y: IrType | undefined): Change[] => {
    const [rx, ry] = [resolve(x, fromTypes), resolve(y, toTypes)];
    if (canonical(rx) === canonical(ry)) return [];
    if (!x || !y) return [{ field, from: x ? typeText(x) : null, to: y ? typeText(y) : null }];
    if (x.kind === "ref" && y.kind === "ref") return x.name === y.name ? [] : [{ field, from: x.name, to: y.name }];
    // A named object on one side, an inline object on the other: the renaming, then what differs inside.
    const inlineVsNamed = (x.kind === "ref" && y.kind === "object") || (x.kind === "object" && y.kind === "ref");
    if (!inlineVsNamed) return diffType(field, x, y);
    const name = (t: IrType) => (t.kind === "ref" ? t.name : "(inline)");
    return [{ field, from: name(x), to: name(y) }, ...diffType(field, rx!, ry!)];
  };
  const added = sortedKeys(b.keys())
    .filter((k) => !a.has(k))
    .map((k) => summarize(b.get(k)!));
  const removed = sortedKeys(a.keys())
    .filter((k) => !b.has(k))
    .map((k) => summarize(a.get(k)!));
  const changed: MethodChange[] = [];
  for (const method of sortedKeys(a.keys())) {
    const before = a.get(method)!;
    const after = b.get(method);
    if (!after) continue;
    const x = summarize(before);
    const y = summarize(after);
    const facts = (s: MethodSummary, fact: string) => s.facts.includes(fact);
    const rows = [
      ...changes([
        ["kind", x.kind, y.kind],
        ["direction", x.direction, y.direction],
        ["delivery", x.delivery, y.delivery],
        ["capability", x.capability, y.capability],
      ]),
      ...typeChanges("params", before.params, after.params),
      ...changes([["paramsOptional", before.paramsOptional, after.paramsOptional]]),
      ...typeChanges("result", before.result, after.result),
      ...changes(
        (["resultType", "cacheable", "inputRequired"] as const).map(
          (fact) => [fact, facts(x, fact), facts(y, fact)] as const,
        ),
      ),
    ];
    if (rows.length > 0) changed.push({ method, changes: rows });
  }
  return { added, removed, changed };
}

/** A reference replaced by its declaration's type (one level: nested references are compared by name). */
function resolve(type: IrType | undefined, types: ReadonlyMap<string, IrTypeDecl>): IrType | undefined {
  return type?.kind === "ref" ? (types.get(type.name)?.type ?? type) : type;
}

function summarize(m: IrMethod): MethodSummary {
  const facts = m.resultFacts
    ? (["resultType", "cacheable", "inputRequired"] as const).filter((f) => m.resultFacts![f])
    : [];
  return {
    method: m.method,
    kind: m.kind,
    direction: m.direction,
    delivery: m.delivery,
    capability: m.capability ? `${m.capability.side}:${m.capability.path.join(".")}` : null,
    params: m.params ? typeText(m.params) : null,
    result: m.result ? typeText(m.result) : null,
    facts,
  };
}

export function diffTypes(from: readonly IrTypeDecl[], to: readonly IrTypeDecl[]): RevisionDiff["types"] {
  const a = byName(from, (t) => t.name);
  const b = byName(to, (t) => t.name);
  const added = sortedKeys(b.keys()).filter((k) => !a.has(k));
  const removed = sortedKeys(a.keys()).filter((k) => !b.has(k));
  const changed: TypeChange[] = [];
  for (const name of sortedKeys(a.keys())) {
    const after = b.get(name);
    if (!after) continue;
    const rows = diffDeclaration(a.get(name)!, after);
    if (rows.length > 0) changed.push({ name, changes: rows });
  }
  return { added, removed, changed };
}

export function diffDeclaration(before: IrTypeDecl, after: IrTypeDecl): Change[] {
  const heritage = changes([["extends", before.extends.join(", ") || null, after.extends.join(", ") || null]]);
  const typeRows =
    canonical(before.constraints) === canonical(after.constraints)
      ? diffType("", before.type, after.type)
      : [{ field: "type", from: typeText(before.type), to: typeText(after.type) }];
  return [...heritage, ...typeRows];
}

/**
 * Object types compare property by property (inline object properties recursively, as `a.b`), unions member by
 * member; anything else as a whole.
 */
function diffType(prefix: string, before: IrType, after: IrType): Change[] {
  if (canonical(before) === canonical(after)) return [];
  if (before.kind === "object" && after.kind === "object") return diffObject(prefix, before, after);
  if (before.kind === "union" && after.kind === "union") {
    const a = new Set(before.items.map(typeText));
    const b = new Set(after.items.map(typeText));
    const field = `${prefix ? `${prefix} ` : ""}member`;
    const rows: Change[] = [
      ...[...b].filter((m) => !a.has(m)).map((m) => ({ field, from: null, to: m })),
      ...[...a].filter((m) => !b.has(m)).map((m) => ({ field, from: m, to: null })),
    ];
    if (rows.length > 0 && canonical({ ...before, items: [] }) === canonical({ ...after, items: [] })) return rows;
  }
  return [{ field: prefix || "type", from: typeText(before), to: typeText(after) }];
}

function diffObject(prefix: string, before: IrObjectType, after: IrObjectType): Change[] {
  const a = byName(before.props, (p) => p.name);
  const b = byName(after.props, (p) => p.name);
  const rows: Change[] = [];
  const label = (name: string) => (prefix ? `${prefix}.${name}` : `property ${name}`);
  for (const name of sortedKeys(new Set([...a.keys(), ...b.keys()]))) {
    const x = a.get(name);
    const y = b.get(name);
    if (canonical(x) === canonical(y)) continue;
    const sameShell = x && y && x.optional === y.optional && canonical(x.constraints) === canonical(y.constraints);
    if (sameShell && x.type.kind === "object" && y.type.kind === "object") {
      rows.push(...diffObject(label(name), x.type, y.type));
    } else {
      rows.push({ field: label(name), from: x ? propText(x) : null, to: y ? propText(y) : null });
    }
  }
  const index = (t: IrObjectType) => (t.index ? typeText(t.index) : null);
  rows.push(...changes([[`${prefix ? `${prefix} ` : ""}index signature`, index(before), index(after)]]));
  if (Boolean(before.closed) !== Boolean(after.closed)) {
    rows.push({
      field: `${prefix ? `${prefix} ` : ""}closed`,
      from: Boolean(before.closed),
      to: Boolean(after.closed),
    });
  }
  return rows;
}

/** A property's type as TypeScript, `(optional)` when it is, and its validation constraints when it has some. */
function propText(p: IrProp): string {
  const constraints = p.constraints ? ` ${JSON.stringify(p.constraints)}` : "";
  return `${typeText(p.type)}${p.optional ? " (optional)" : ""}${constraints}`;
}

/** The type as one line of TypeScript, without the JSDoc the printer would put on properties. */
function typeText(type: IrType): string {
  const bare = JSON.parse(JSON.stringify(type, (key, v: unknown) => (key === "doc" ? undefined : v))) as IrType;
  return emitTypeExpression(bare).replace(/\s+/g, " ").replace(/\{ /g, "{ ").replace(/; \}/g, "; }").trim();
}

/** A stable JSON form without documentation, for structural equality. */
function canonical(value: unknown): string {
  return JSON.stringify(value ?? null, (key, v: unknown) =>
    key === "doc" ? undefined : v && typeof v === "object" && !Array.isArray(v) ? sortObject(v) : v,
  );
}

function sortObject(value: object): Record<string, unknown> {
  const entries = Object.entries(value as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  return Object.fromEntries(entries);
}
