/**
 * What changed between a server's pinned definitions (rebuilt from its committed manifest and the lock's unkept
 * fields, checked against the lock's hashes) and what it serves now, one `Change` per difference with its class
 * (`rules.ts`). A name listed more than once is a change of its own (breaking: a client may use any copy), and each
 * copy that differs from the pin is compared on its own. Pure.
 */
import canonicalize from "canonicalize";
import {
  canonicalHash,
  groupsOf,
  KINDS,
  own,
  pinnedDefinition,
  pinnedForm,
  type KindList,
  type ServedLists,
  type ServerPins,
} from "./contract.ts";
import { compareEntry, type Ctx } from "./classify-entry.ts";
import { change, type Change, type RuleId } from "./rules.ts";

type Entry = Readonly<Record<string, unknown>>;
type Manifest = Readonly<Record<string, unknown>>;

const NOUN_RULES: Record<KindList, { removed: RuleId; added: RuleId }> = {
  tools: { removed: "tool-removed", added: "tool-added" },
  resources: { removed: "resource-removed", added: "resource-added" },
  resourceTemplates: { removed: "template-removed", added: "template-added" },
  prompts: { removed: "prompt-removed", added: "prompt-added" },
};

function serverChanges(server: string, p: ServerPins, live: ServedLists, revision: string): Change[] {
  const out: Change[] = [];
  const info: string[] = [];
  const name = String(live.server["name"] ?? "");
  const version = String(live.server["version"] ?? "");
  if (p.server.name !== name) info.push(`name ${p.server.name} → ${name}`);
  if (p.server.version !== version) info.push(`version ${p.server.version} → ${version}`);
  if (p.protocolRevision !== revision) info.push(`protocol revision ${p.protocolRevision} → ${revision}`);
  if (info.length > 0) out.push(change(server, "server-changed", "server", info.join(", ")));
  const instructions = live.server["instructions"];
  const now = typeof instructions === "string" ? canonicalHash(instructions) : undefined;
  if (p.instructions !== now)
    out.push(change(server, "instructions-changed", "server", "the server's instructions changed"));
  return out;
}

/** The changes of the copies of one pinned name (`pin`; `pinned` its definition, when the manifest holds it). */
function copyChanges(
  server: string,
  kind: (typeof KINDS)[number],
  name: string,
  copies: readonly Entry[],
  pinned: Entry | undefined,
  pin: string,
): Change[] {
  const where = `${kind.list}/${name}`;
  const out: Change[] = [];
  const seen = new Set<string>();
  copies.forEach((copy, i) => {
    const form = pinnedForm(kind.list, copy);
    const text = canonicalize(form) ?? "";
    // A copy equal to the pin, or to a copy already compared, adds nothing.
    if (canonicalHash(form) === pin || seen.has(text)) return;
    seen.add(text);
    const ctx: Ctx = { server, where, prefix: copies.length > 1 ? `copy ${i + 1} of ${copies.length}: ` : "", out };
    const before = out.length;
    if (pinned) compareEntry(ctx, kind.list, pinned, form);
    if (out.length === before)
      out.push(change(server, "definition-changed", where, `${ctx.prefix}${kind.noun} "${name}" differs from its pin`));
  });
  return out;
}

/**
 * The changes of server `server` from `pinned` (the lock's pins and the committed manifest they pin) to `live`
 * (what it serves now, every field as listed, read at `revision`).
 */
export function classify(
  server: string,
  pinned: { readonly pins: ServerPins; readonly manifest: Manifest },
  live: { readonly served: ServedLists; readonly revision: string },
): Change[] {
  const p = pinned.pins;
  const out = serverChanges(server, p, live.served, live.revision);
  for (const kind of KINDS) {
    const committed = groupsOf(pinned.manifest, kind.list);
    const now = groupsOf(live.served, kind.list);
    const rules = NOUN_RULES[kind.list];
    for (const name of Object.keys(p[kind.list]))
      if (!now.has(name))
        out.push(change(server, rules.removed, `${kind.list}/${name}`, `${kind.noun} "${name}" is gone`));
    for (const [name, copies] of now) {
      const where = `${kind.list}/${name}`;
      const pin = own(p[kind.list], name);
      if (copies.length > 1)
        out.push(change(server, "listed-twice", where, `${kind.noun} "${name}" is listed ${copies.length} times`));
      if (pin === undefined) {
        out.push(change(server, rules.added, where, `new ${kind.noun} "${name}"`));
        continue;
      }
      // The committed manifest holds the pinned text only while the definition rebuilt from it hashes to the pin.
      const pinnedEntry = pinnedDefinition(p, kind.list, name, committed.get(name)?.at(-1));
      out.push(...copyChanges(server, kind, name, copies, pinnedEntry, pin));
    }
  }
  return out;
}
