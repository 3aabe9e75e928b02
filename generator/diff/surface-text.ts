/**
 * `ManifestDiff` → the text form of `mcp-gen diff --manifest`: what a user's handlers must do first (add, remove,
 * change), then every section; `+` added, `-` removed, `~` changed, indented lines per change.
 */
import type { Change } from "./model.ts";
import type { EntriesDiff, ManifestDiff, MethodFacts, MethodsDiff, RevisionBrief } from "./surface-model.ts";

const ENTRY_KINDS = [
  ["tools", "tools"],
  ["resources", "resources"],
  ["resourceTemplates", "resource templates"],
  ["prompts", "prompts"],
] as const;

export function formatManifestDiffText(diff: ManifestDiff): string {
  const origin = (o: ManifestDiff["from"]) => `${o.path}${o.kind === "record" ? " (as generated)" : ""}`;
  const lines = [`mcp-gen diff ${origin(diff.from)} → ${origin(diff.to)}`, ""];
  if (diff.unchanged) {
    lines.push("No change to handlers, served entries, types or revisions (documentation is not compared).");
    return `${lines.join("\n")}\n`;
  }
  lines.push(...handlerSummary(diff), "");

  section(lines, "server", diff.server);
  section(lines, "generated code (every file changes, no handler does)", diff.generation);
  section(lines, "capabilities", diff.capabilities);
  for (const [key, title] of ENTRY_KINDS) entries(lines, title, diff[key]);

  const { types } = diff;
  if (types.added.length + types.removed.length + types.changed.length > 0) {
    lines.push(`types: ${counts(types.added.length, types.removed.length, types.changed.length)}`);
    for (const name of types.added) lines.push(`  + ${name}`);
    for (const name of types.removed) lines.push(`  - ${name}`);
    for (const t of types.changed) {
      lines.push(`  ~ ${t.name}`);
      for (const change of t.changes) lines.push(`      ${changeText(change)}`);
    }
    lines.push("");
  }

  const { revisions } = diff;
  const revisionCount = revisions.added.length + revisions.removed.length + revisions.updated.length;
  lines.push(revisionCount === 0 ? "revisions: no change" : `revisions: ${revisionCounts(diff)}`);
  for (const r of revisions.added) lines.push(`  + ${briefText(r)}`);
  for (const r of revisions.removed) lines.push(`  - ${briefText(r)}`);
  for (const update of revisions.updated) {
    const against =
      update.comparedWith === null
        ? ""
        : update.comparedWith === update.name
          ? ""
          : ` (against ${update.comparedWith})`;
    lines.push(`  ~ ${update.name}${against}${update.schemaChanged ? "" : " (same schema)"}`);
    for (const change of update.revision) lines.push(`      ${changeText(change)}`);
    methods(lines, update.methods);
  }
  return `${lines.join("\n")}\n`;
}

/** The first lines: which handlers to write, delete or adjust. */
function handlerSummary(diff: ManifestDiff): string[] {
  const all = ENTRY_KINDS.map(([key]) => diff[key]);
  const added = all.reduce((n, e) => n + e.added.length, 0);
  const removed = all.reduce((n, e) => n + e.removed.length, 0);
  const changed = all.reduce((n, e) => n + e.changed.filter((c) => c.signature).length, 0);
  return [`handlers: ${added} to add, ${removed} to remove, ${changed} with a changed signature`];
}

function section(lines: string[], title: string, changes: readonly Change[]): void {
  if (changes.length === 0) return;
  lines.push(title);
  for (const change of changes) lines.push(`  ${changeText(change)}`);
  lines.push("");
}

function entries(lines: string[], title: string, diff: EntriesDiff): void {
  if (diff.added.length + diff.removed.length + diff.changed.length === 0) return;
  lines.push(`${title}: ${counts(diff.added.length, diff.removed.length, diff.changed.length)}`);
  for (const e of diff.added) lines.push(`  + ${e.handler}`);
  for (const e of diff.removed) lines.push(`  - ${e.handler}`);
  for (const e of diff.changed) {
    lines.push(`  ~ ${e.name}${e.signature ? "  (handler signature changes)" : ""}`);
    for (const change of e.changes) lines.push(`      ${changeText(change)}`);
  }
  lines.push("");
}

function methods(lines: string[], diff: MethodsDiff): void {
  const note = (served: boolean) => (served ? "" : "  (gated by a capability this server does not declare)");
  for (const m of diff.added) lines.push(`      + ${methodText(m)}${note(m.served)}`);
  for (const m of diff.removed) lines.push(`      - ${methodText(m)}${note(m.served)}`);
  for (const m of diff.changed) {
    lines.push(`      ~ ${m.method}${note(m.served)}`);
    for (const change of m.changes) lines.push(`          ${changeText(change)}`);
  }
}

function methodText(m: MethodFacts): string {
  const parts = [m.method, m.kind, m.direction];
  if (m.delivery !== "message") parts.push(m.delivery);
  if (m.capability) parts.push(`gate ${m.capability}`);
  if (m.result) parts.push(`→ ${m.result}`);
  return parts.join("  ");
}

function briefText(r: RevisionBrief): string {
  const parts = [r.name];
  if (r.bindings !== null) parts.push(`(bindings ${r.bindings})`);
  parts.push(`version ${r.version}`, r.era ?? "no era", `${r.methods} methods`);
  return parts.join("  ");
}

function revisionCounts(diff: ManifestDiff): string {
  const { added, removed, updated } = diff.revisions;
  const changed = updated.filter((u) => u.comparedWith === u.name).length;
  return `${added.length} added, ${removed.length} removed, ${changed} changed`;
}

function counts(added: number, removed: number, changed: number): string {
  return `${added} added, ${removed} removed, ${changed} changed`;
}

function changeText(change: Change): string {
  const value = (v: Change["from"]) => (v === null ? "(none)" : String(v));
  if (change.from === null || change.from === false) return `+ ${change.field}${valueSuffix(change.to)}`;
  if (change.to === null || change.to === false) return `- ${change.field}${valueSuffix(change.from)}`;
  return `${change.field}: ${value(change.from)} → ${value(change.to)}`;
}

/** `: value`, except for a switch turned on or off (`true`), which the sign says. */
function valueSuffix(v: Change["from"]): string {
  return v === true ? "" : `: ${String(v)}`;
}
