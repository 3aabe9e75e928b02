/** `RevisionDiff` → the text form of `mcp-gen diff`: one line per added/removed item, indented lines per change. */
import type { Change, MethodSummary, RevisionDiff } from "./model.ts";

export function formatDiffText(diff: RevisionDiff): string {
  const lines: string[] = [];
  const { from, to } = diff;
  lines.push(`mcp-gen diff ${from.name} → ${to.name}`, "");
  lines.push("revision");
  if (diff.revision.length === 0) lines.push("  (no change to version, era or batches)");
  for (const change of diff.revision) lines.push(`  ${changeText(change)}`);

  const { methods, types } = diff;
  lines.push("", `methods: ${counts(methods.added.length, methods.removed.length, methods.changed.length)}`);
  for (const m of methods.added) lines.push(`  + ${methodText(m)}`);
  for (const m of methods.removed) lines.push(`  - ${methodText(m)}`);
  for (const m of methods.changed) {
    lines.push(`  ~ ${m.method}`);
    for (const change of m.changes) lines.push(`      ${changeText(change)}`);
  }

  lines.push("", `types: ${counts(types.added.length, types.removed.length, types.changed.length)}`);
  for (const name of types.added) lines.push(`  + ${name}`);
  for (const name of types.removed) lines.push(`  - ${name}`);
  for (const t of types.changed) {
    lines.push(`  ~ ${t.name}`);
    for (const change of t.changes) lines.push(`      ${changeText(change)}`);
  }
  return `${lines.join("\n")}\n`;
}

function counts(added: number, removed: number, changed: number): string {
  return `${added} added, ${removed} removed, ${changed} changed`;
}

function methodText(m: MethodSummary): string {
  const parts = [m.method, m.kind, m.direction];
  if (m.delivery !== "message") parts.push(m.delivery);
  if (m.capability) parts.push(`gate ${m.capability}`);
  if (m.result) parts.push(`→ ${m.result}`);
  if (m.facts.length > 0) parts.push(`[${m.facts.join(", ")}]`);
  return parts.join("  ");
}

function changeText(change: Change): string {
  const value = (v: Change["from"]) => (v === null ? "(none)" : String(v));
  if (change.from === null) return `+ ${change.field}: ${value(change.to)}`;
  if (change.to === null) return `- ${change.field}: ${value(change.from)}`;
  return `${change.field}: ${value(change.from)} → ${value(change.to)}`;
}
