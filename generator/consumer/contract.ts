/**
 * The pinned contract of a server: a hash of each tool, resource, resource template and prompt definition, plus
 * what the server said about itself. Canonical form (documented in docs/consumers.md, "Pinned contracts"): the
 * definition **as served** (every field, `_meta` and `execution` included) without its volatile fields (`VOLATILE`),
 * serialized with RFC 8785 (JSON Canonicalization Scheme), hashed with SHA-256 over its UTF-8 bytes, written
 * `sha256:<lower-case hex>`. The committed manifest keeps only the fields it defines; the lock keeps the others
 * (`unkept`), so the pinned definition can be rebuilt and compared field by field.
 *
 * Served names become keys here (a tool may be named `__proto__` or `constructor`): every record keyed by one is
 * made without a prototype, and read by own key only (`own`).
 */
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";

export const CANONICAL_FORM =
  "RFC 8785 JCS of each definition as served, without its volatile fields; SHA-256 of its UTF-8 bytes";

/** The lists of a manifest and the field that names an entry of each. */
export const KINDS = [
  { list: "tools", key: "name", noun: "tool" },
  { list: "resources", key: "uri", noun: "resource" },
  { list: "resourceTemplates", key: "name", noun: "resource template" },
  { list: "prompts", key: "name", noun: "prompt" },
] as const;

export type KindList = (typeof KINDS)[number]["list"];

/**
 * Fields of a served definition that its pin leaves out (by path): they describe a resource's content at the
 * moment of listing (its size, when it last changed), not the contract, and would fail the gate at every edit.
 */
export const VOLATILE: Readonly<Record<KindList, readonly (readonly [string, ...string[]])[]>> = {
  tools: [],
  resources: [["size"], ["annotations", "lastModified"]],
  resourceTemplates: [["annotations", "lastModified"]],
  prompts: [],
};

type Entry = Readonly<Record<string, unknown>>;
/** A record keyed by served names: no prototype, so `__proto__` is an ordinary key. */
export type NameRecord<T> = Record<string, T>;

export interface ServerPins {
  /** What the server reported in `initialize` (or `server/discover`) and the revision spoken. */
  readonly server: { readonly name: string; readonly version: string };
  readonly protocolRevision: string;
  /** Hash of the server's instructions (text a model reads), when it sent some. */
  readonly instructions?: string;
  readonly tools: Readonly<NameRecord<string>>;
  readonly resources: Readonly<NameRecord<string>>;
  readonly resourceTemplates: Readonly<NameRecord<string>>;
  readonly prompts: Readonly<NameRecord<string>>;
  /**
   * Per list and name, the served fields the manifest does not keep as served (`execution`, `_meta`, fields of a
   * newer revision); absent when there are none.
   */
  readonly unkept?: Readonly<Partial<Record<KindList, Readonly<NameRecord<Entry>>>>>;
}

/** What one read of a server gave: its lists as served, and the manifest object written from them. */
export interface ServerRead {
  readonly served: ServedLists;
  readonly manifest: Readonly<Record<string, unknown>>;
}

/** A server's identity and lists as served (`readServed`), every field kept. */
export type ServedLists = { readonly server: Entry } & { readonly [K in KindList]: readonly Entry[] };

/** An empty record keyed by served names. */
export const nameRecord = <T>(): NameRecord<T> => Object.create(null) as NameRecord<T>;

/** `record[key]` when it is the record's own entry (never one of Object.prototype's). */
export function own<T>(record: Readonly<NameRecord<T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** `sha256:<hex>` of the RFC 8785 form of a JSON value. */
export function canonicalHash(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error("not a JSON value");
  return `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;
}

const isObject = (v: unknown): v is Entry => typeof v === "object" && v !== null && !Array.isArray(v);
export const sameJson = (a: unknown, b: unknown): boolean => canonicalize(a ?? null) === canonicalize(b ?? null);

/** A copy of `value` without the field at `path` (objects on the way copied, own keys only). */
function without(value: Entry, path: readonly string[]): Entry {
  const [head, ...rest] = path;
  if (head === undefined || !Object.hasOwn(value, head)) return value;
  const copy: Record<string, unknown> = { ...value };
  if (rest.length === 0) delete copy[head];
  else if (isObject(value[head])) copy[head] = without(value[head], rest);
  return copy;
}

/** The definition as its pin covers it: as served, without the list's volatile fields. */
export function pinnedForm(list: KindList, entry: Entry): Entry {
  return VOLATILE[list].reduce(without, entry);
}

/** The key of an entry of `list` (its name, or a resource's URI), as a string. */
export function keyOf(list: KindList, entry: Entry): string {
  return String(entry[KINDS.find((k) => k.list === list)!.key]);
}

/** The entries of one list of a manifest or served object (objects only), in the order listed. */
export function listOf(manifest: object, list: KindList): Entry[] {
  const entries = Object.hasOwn(manifest, list) ? (manifest as Entry)[list] : undefined;
  return Array.isArray(entries) ? entries.filter(isObject) : [];
}

/** The entries of one list by their key, every copy of a repeated key kept in the order listed. */
export function groupsOf(manifest: object, list: KindList): Map<string, Entry[]> {
  const groups = new Map<string, Entry[]>();
  for (const entry of listOf(manifest, list)) {
    const key = keyOf(list, entry);
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  }
  return groups;
}

/** The pins of one read of a server (`readLive`'s result) at `protocolRevision`. */
export function pinsOf(read: ServerRead, protocolRevision: string): ServerPins {
  const server = isObject(read.served.server) ? read.served.server : {};
  const instructions = server["instructions"];
  const lists = {} as Record<KindList, NameRecord<string>>;
  const unkept: Partial<Record<KindList, NameRecord<Entry>>> = {};
  for (const { list } of KINDS) {
    lists[list] = nameRecord();
    const kept = groupsOf(read.manifest, list);
    for (const [name, copies] of groupsOf(read.served, list)) {
      // A repeated name cannot be pinned (the manifest refuses it before pins are written); the last copy stands.
      const entry = copies.at(-1)!;
      lists[list][name] = canonicalHash(pinnedForm(list, entry));
      const manifestEntry = kept.get(name)?.at(-1) ?? {};
      const fields = Object.keys(entry).filter(
        (f) => !(Object.hasOwn(manifestEntry, f) && sameJson(entry[f], manifestEntry[f])),
      );
      if (fields.length === 0) continue;
      const extra: Record<string, unknown> = {};
      for (const f of fields) Object.defineProperty(extra, f, { value: entry[f], enumerable: true, writable: true });
      (unkept[list] ??= nameRecord())[name] = extra;
    }
  }
  return {
    server: { name: String(server["name"] ?? ""), version: String(server["version"] ?? "") },
    protocolRevision,
    ...(typeof instructions === "string" ? { instructions: canonicalHash(instructions) } : {}),
    ...lists,
    ...(Object.keys(unkept).length > 0 ? { unkept } : {}),
  };
}

/**
 * The pinned definition of `name` rebuilt from the committed manifest's entry and the lock's unkept fields, when it
 * hashes to its pin (a hand-edited manifest does not); undefined otherwise.
 */
export function pinnedDefinition(
  pins: ServerPins,
  list: KindList,
  name: string,
  manifestEntry: Entry | undefined,
): Entry | undefined {
  if (manifestEntry === undefined) return undefined;
  const full: Record<string, unknown> = { ...manifestEntry };
  for (const [field, value] of Object.entries(own(pins.unkept?.[list], name) ?? {}))
    Object.defineProperty(full, field, { value, enumerable: true, writable: true, configurable: true });
  const entry = pinnedForm(list, full);
  return canonicalHash(entry) === own(pins[list], name) ? entry : undefined;
}
