/**
 * The pinned contract of a server: a hash of each tool, resource, resource template and prompt definition, plus
 * what the server said about itself. Canonical form (documented in docs/consumers.md, "Pinned contracts"): the
 * definition as the imported manifest stores it (the fields `mcp-gen import` keeps: name, title, description, icons,
 * schemas, annotations, arguments, uri/uriTemplate, mimeType, size), serialized with RFC 8785 (JSON Canonicalization
 * Scheme), hashed with SHA-256 over its UTF-8 bytes, written `sha256:<lower-case hex>`.
 */
import { createHash } from "node:crypto";
import canonicalize from "canonicalize";

export const CANONICAL_FORM = "RFC 8785 JCS of each definition as the manifest stores it; SHA-256 of its UTF-8 bytes";

/** The lists of a manifest and the field that names an entry of each. */
export const KINDS = [
  { list: "tools", key: "name", noun: "tool" },
  { list: "resources", key: "uri", noun: "resource" },
  { list: "resourceTemplates", key: "name", noun: "resource template" },
  { list: "prompts", key: "name", noun: "prompt" },
] as const;

export type KindList = (typeof KINDS)[number]["list"];

export interface ServerPins {
  /** What the server reported in `initialize` (or `server/discover`) and the revision spoken. */
  readonly server: { readonly name: string; readonly version: string };
  readonly protocolRevision: string;
  /** Hash of the server's instructions (text a model reads), when it sent some. */
  readonly instructions?: string;
  readonly tools: Readonly<Record<string, string>>;
  readonly resources: Readonly<Record<string, string>>;
  readonly resourceTemplates: Readonly<Record<string, string>>;
  readonly prompts: Readonly<Record<string, string>>;
}

/** `sha256:<hex>` of the RFC 8785 form of a JSON value. */
export function canonicalHash(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error("not a JSON value");
  return `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;
}

type Entry = Readonly<Record<string, unknown>>;

/** The entries of one list of a manifest object, by their key (a later duplicate wins). */
export function entriesOf(manifest: Readonly<Record<string, unknown>>, list: KindList): Map<string, Entry> {
  const key = KINDS.find((k) => k.list === list)!.key;
  const entries = Array.isArray(manifest[list]) ? (manifest[list] as Entry[]) : [];
  return new Map(entries.map((e) => [String(e[key]), e]));
}

function hashes(manifest: Readonly<Record<string, unknown>>, list: KindList): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, entry] of entriesOf(manifest, list)) out[name] = canonicalHash(entry);
  return out;
}

/** The pins of an imported manifest object (`readServer`'s result) read at `protocolRevision`. */
export function pinsOf(manifest: Readonly<Record<string, unknown>>, protocolRevision: string): ServerPins {
  const server = (manifest["server"] ?? {}) as Entry;
  const instructions = server["instructions"];
  return {
    server: { name: String(server["name"] ?? ""), version: String(server["version"] ?? "") },
    protocolRevision,
    ...(typeof instructions === "string" ? { instructions: canonicalHash(instructions) } : {}),
    tools: hashes(manifest, "tools"),
    resources: hashes(manifest, "resources"),
    resourceTemplates: hashes(manifest, "resourceTemplates"),
    prompts: hashes(manifest, "prompts"),
  };
}
