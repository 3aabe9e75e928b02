/**
 * Fields a manifest declares beyond its own, for the revisions the server speaks: a draft's new capability, a new
 * field of its `Tool`. The loader takes them out before the manifest's own schema runs (`separateRevisionFields`),
 * so that schema stays strict; lowering then checks each against the IR of the served revisions
 * (`checkRevisionFields`): a field no served revision declares is an unknown field (with the closest known name), a
 * declared one must match the type the revision gives it. Accepted fields are served as written.
 */
import { hasCapability } from "@mcp-gen/runtime";
import type { IrModel } from "../ir/model.ts";
import { formatPath, SchemaProblem, type ManifestPath } from "./errors.ts";
import { EXTENSIBLE } from "./manifest-schema.ts";
import { declaredType, mismatch, propsOf, servedNewMethods, type ExtensibleRoot } from "./revision-fields.ts";
import { didYouMean } from "./suggest.ts";
import type { UserCapabilities, UserMethod } from "./user-model.ts";

/** The fields of one manifest object that the manifest itself does not define, as written. */
export interface RevisionExtra {
  readonly root: ExtensibleRoot;
  /** Property names below the root (`["tools"]` for `capabilities.tools`; empty for a list entry). */
  readonly inside: readonly string[];
  /** Where the object is in the file (`["tools", 3]`, `["capabilities", "tools"]`). */
  readonly path: ManifestPath;
  readonly fields: Readonly<Record<string, unknown>>;
}

type Shapes = Readonly<Record<string, { readonly shape: object }>>;

/** `raw` without the fields the manifest does not define in its extensible objects, and those fields. */
export function separateRevisionFields(raw: unknown): { raw: unknown; extras: RevisionExtra[] } {
  if (!isRecord(raw)) return { raw, extras: [] };
  const extras: RevisionExtra[] = [];
  const out: Record<string, unknown> = { ...raw };
  for (const [root, shapes] of Object.entries(EXTENSIBLE) as [ExtensibleRoot, Shapes][]) {
    const value = raw[root];
    if (root === "capabilities" && isRecord(value)) out[root] = split(value, root, [], [root], shapes, extras);
    else if (Array.isArray(value)) out[root] = value.map((item, i) => split(item, root, [], [root, i], shapes, extras));
  }
  return { raw: out, extras };
}

function split(
  value: unknown,
  root: ExtensibleRoot,
  inside: readonly string[],
  path: ManifestPath,
  shapes: Shapes,
  extras: RevisionExtra[],
): unknown {
  const shape = shapes[inside.join(".")]?.shape;
  if (!isRecord(value) || !shape) return value;
  const kept: Record<string, unknown> = {};
  const fields: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (Object.hasOwn(shape, key))
      kept[key] = inside.length === 0 ? split(field, root, [key], [...path, key], shapes, extras) : field;
    else fields[key] = field;
  }
  if (Object.keys(fields).length > 0) extras.push({ root, inside, path, fields });
  return kept;
}

/**
 * A revision the server speaks, by its IR and the name of its declaration of server capabilities; `index` is its
 * place in `server.revisions` when the manifest lists it.
 */
export interface ServedRevision {
  readonly model: IrModel;
  readonly capabilities: string;
  readonly index?: number;
}

/**
 * Checks every extra field against the served revisions; answers the accepted fields by object path
 * (`formatPath`), and the problems (an unknown field points at its key).
 */
export function checkRevisionFields(
  extras: readonly RevisionExtra[],
  served: readonly ServedRevision[],
): { accepted: Map<string, Record<string, unknown>>; problems: SchemaProblem[]; definitionFields: boolean } {
  const accepted = new Map<string, Record<string, unknown>>();
  const problems: SchemaProblem[] = [];
  let definitionFields = false;
  for (const extra of extras) {
    const declared = served.flatMap(({ model, capabilities }) => {
      const type = declaredType(model, capabilities, extra.root, extra.inside);
      return type ? [{ model, props: propsOf(model, type) ?? [] }] : [];
    });
    const fields: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(extra.fields)) {
      const problem = checkField(extra, key, value, declared);
      if (problem) problems.push(problem);
      else fields[key] = value;
    }
    accepted.set(formatPath(extra.path), fields);
    if (extra.root !== "capabilities" && Object.keys(fields).length > 0) definitionFields = true;
  }
  return { accepted, problems, definitionFields };
}

type Declared = readonly { readonly model: IrModel; readonly props: ReturnType<typeof propsOf> & object }[];

function checkField(extra: RevisionExtra, key: string, value: unknown, declared: Declared): SchemaProblem | undefined {
  const path = [...extra.path, key];
  const declaring = declared.flatMap(({ model, props }) => {
    const prop = props.find((p) => p.name === key);
    return prop ? [{ model, prop }] : [];
  });
  if (declaring.length === 0) {
    const shape = (EXTENSIBLE[extra.root] as Shapes)[extra.inside.join(".")]?.shape ?? {};
    const known = [...Object.keys(shape), ...declared.flatMap(({ props }) => props.map((p) => p.name))];
    return new SchemaProblem(path, `unknown field ${JSON.stringify(key)}${didYouMean(key, known)}`, { atKey: true });
  }
  for (const { model, prop } of declaring) {
    if (value === null && prop.constraints?.nullable) continue;
    const miss = mismatch(model, value, prop.type);
    if (miss)
      return new SchemaProblem([...path, ...miss.path], `${miss.reason} (as revision ${model.revision} declares it)`);
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A lowered entry with its revision-declared fields added to what it serves. */
export function withFields<T extends { readonly descriptor: Readonly<Record<string, unknown>> }>(
  entry: T,
  fields: Readonly<Record<string, unknown>>,
): T {
  return Object.keys(fields).length === 0 ? entry : { ...entry, descriptor: { ...entry.descriptor, ...fields } };
}

/** The manifest's switches with the capabilities (and capability fields) the served revisions declare added. */
export function withCapabilityFields(
  switches: UserCapabilities,
  fieldsAt: (path: ManifestPath) => Readonly<Record<string, unknown>>,
): UserCapabilities {
  const out: Record<string, unknown> = { ...switches, ...fieldsAt(["capabilities"]) };
  for (const [name, value] of Object.entries(switches)) {
    const fields = fieldsAt(["capabilities", name]);
    if (typeof value === "object" && Object.keys(fields).length > 0) out[name] = { ...value, ...fields };
  }
  return out as UserCapabilities;
}

/**
 * The requests the generated server serves through typed handlers (`ServerHandlers.methods`): each method a listed
 * revision adds that the runtime does not serve itself, enabled by the capabilities, typed by the first listed
 * revision that declares it.
 */
export function newMethods(
  served: readonly ServedRevision[],
  capabilities: UserCapabilities,
  builtinMethods: ReadonlySet<string> = new Set(),
): UserMethod[] {
  const found = new Map<string, UserMethod>();
  // Wire form of the switches: `logging: true` is the `logging` capability.
  const enabled = (path: readonly string[]) => hasCapability(capabilities, path);
  for (const { model, index } of served) {
    if (index === undefined) continue;
    for (const m of servedNewMethods(model, builtinMethods, enabled)) {
      if (found.has(m.method)) continue;
      found.set(m.method, { method: m.method, revision: index, ...(m.doc ? { doc: m.doc.text } : {}) });
    }
  }
  return [...found.values()].sort((a, b) => (a.method < b.method ? -1 : a.method > b.method ? 1 : 0));
}
