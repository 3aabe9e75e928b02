/**
 * Matching a URI against an RFC 6570 template, for the expressions resource templates use in practice:
 * `{var}` (one segment, no `/`), `{+var}` / `{#var}` (reserved expansion, may span `/`), and `{?a,b}` query forms.
 * Operators this cannot reverse make the template match nothing; pass `match` to `resourceTemplate` for those.
 *
 * Why not the `uri-template` package (2.0.0, used by the generator side): it parses and expands templates but has
 * no matching or variable extraction, which is all the runtime needs here; and the installed copy lacks its
 * `dist/index.js` entry (its build runs at install time, which npm does not do here), so it cannot be imported as is.
 */

export function matchUriTemplate(template: string, uri: string): Record<string, string> | undefined {
  const names: string[] = [];
  let pattern = "^";
  let last = 0;
  const expr = /\{([+#?&]?)([^}]+)\}/g;
  for (let m = expr.exec(template); m !== null; m = expr.exec(template)) {
    pattern += escape(template.slice(last, m.index));
    last = m.index + m[0].length;
    const op = m[1] ?? "";
    const vars = (m[2] ?? "").split(",").map((v) => v.replace(/\*$|:\d+$/, ""));
    if (op === "?" || op === "&") {
      let group = "";
      vars.forEach((v, i) => {
        names.push(v);
        group += `(?:${i === 0 ? (op === "?" ? "\\?" : "&") : "&"}${escape(v)}=([^&#]*))?`;
      });
      pattern += group;
      continue;
    }
    if (vars.length !== 1) return undefined;
    names.push(vars[0] as string);
    pattern += op === "" ? "([^/?#]+)" : op === "#" ? "#(.+)" : "(.+)";
  }
  pattern += escape(template.slice(last)) + "$";
  const match = new RegExp(pattern).exec(uri);
  if (!match) return undefined;
  const out: Record<string, string> = {};
  names.forEach((name, i) => {
    const value = match[i + 1];
    if (value !== undefined) out[name] = safeDecode(value);
  });
  return out;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
