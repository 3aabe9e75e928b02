/**
 * Literal credentials in a host config's `args` and `url`, which `import --config` must not write into the index
 * (env and header literals are all replaced: every one of them may be a secret). The rule, documented in
 * docs/consumers.md:
 *
 * - an argument is a credential when it follows a flag naming one (`--api-key sk-…`, `-token x`), or is the value
 *   of such a flag (`--api-key=sk-…`); a flag names one when its last word is key, apikey, token, secret, password,
 *   passwd, pwd, pat, auth, credential(s) or bearer (`--github-token`, `--client_secret`);
 * - an argument, or a URL query value, is a credential when it has the form of a known token (`sk-…`, `ghp_…`,
 *   `github_pat_…`, `glpat-…`, `xox?-…`, `AKIA…`, a JWT);
 * - a URL's password (`https://user:pw@host`), and each query value whose parameter names a credential as above
 *   (`?api_key=…`, `access_token=…`, `sig=…`), is one.
 *
 * A value with a `${…}` placeholder is never a literal. Each credential becomes `${input:<server>.<name>}` (the
 * caller's `inputs`, else `MCP_INPUT_<SERVER>_<NAME>`), holding the text exactly as it stood (a URL's still encoded).
 */
import { hasPlaceholder } from "./placeholders.ts";

const SECRET_WORD = /(?:^|[-_.])(?:api[-_]?key|key|token|secret|password|passwd|pwd|pat|auth|credentials?|bearer)$/i;
const QUERY_SECRET =
  /^(?:.*[-_.])?(?:api[-_]?key|key|token|secret|password|passwd|pwd|pat|auth|sig|signature|credentials?)$/i;
const TOKEN_FORM =
  /^(?:sk-[A-Za-z0-9_-]{8,}|gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{16,}|glpat-[A-Za-z0-9_-]{16,}|xox[abpsr]-[A-Za-z0-9-]{8,}|AKIA[A-Z0-9]{16}|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*)$/;

export interface Literal {
  /** Where it was (`args[3]`, `url ?api_key`), for the note; never the value. */
  readonly where: string;
  /** The input id that replaces it (`<server>.<name>`). */
  readonly id: string;
  readonly value: string;
}

const flagName = (arg: string): string | undefined => /^--?([A-Za-z][\w.-]*)$/.exec(arg)?.[1];
const idPart = (text: string): string => text.replace(/[^A-Za-z0-9_.-]+/g, "-").toLowerCase();

/** The entry's args with literal credentials replaced by `${input:…}`, and what was replaced. */
export function replaceArgSecrets(server: string, args: readonly string[]): { args: string[]; found: Literal[] } {
  const found: Literal[] = [];
  const out = args.map((arg, i) => {
    if (hasPlaceholder(arg)) return arg;
    const assigned = /^(--?[A-Za-z][\w.-]*)=(.+)$/s.exec(arg);
    if (assigned && (SECRET_WORD.test(assigned[1]!.replace(/^-+/, "")) || TOKEN_FORM.test(assigned[2]!))) {
      const id = `${server}.${idPart(assigned[1]!.replace(/^-+/, ""))}`;
      found.push({ where: `args[${i}] (${assigned[1]}=…)`, id, value: assigned[2]! });
      return `${assigned[1]}=\${input:${id}}`;
    }
    const previous = i > 0 ? flagName(args[i - 1]!) : undefined;
    const byFlag = previous !== undefined && SECRET_WORD.test(previous) && flagName(arg) === undefined;
    if (!byFlag && !TOKEN_FORM.test(arg)) return arg;
    const id = `${server}.${byFlag ? idPart(previous) : `arg${i}`}`;
    found.push({ where: byFlag ? `args[${i}] (after ${args[i - 1]})` : `args[${i}]`, id, value: arg });
    return `\${input:${id}}`;
  });
  return { args: out, found };
}

/** The URL with literal credentials (password, credential query values) replaced by `${input:…}`. */
export function replaceUrlSecrets(server: string, url: string): { url: string; found: Literal[] } {
  const found: Literal[] = [];
  if (hasPlaceholder(url)) return { url, found };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url, found };
  }
  let text = url;
  if (parsed.password !== "") {
    const id = `${server}.url-password`;
    found.push({ where: "the url's password", id, value: parsed.password });
    text = text.replace(`:${parsed.password}@`, `:\${input:${id}}@`);
  }
  const query = text.indexOf("?");
  if (query >= 0) {
    const end = text.indexOf("#", query);
    const search = text.slice(query + 1, end < 0 ? undefined : end);
    const pairs = search.split("&").map((pair) => {
      const eq = pair.indexOf("=");
      if (eq < 0) return pair;
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const decoded = safeDecode(value);
      if (value === "" || !(QUERY_SECRET.test(safeDecode(name)) || TOKEN_FORM.test(decoded))) return pair;
      const id = `${server}.url-${idPart(safeDecode(name))}`;
      found.push({ where: `the url's ?${safeDecode(name)}`, id, value });
      return `${name}=\${input:${id}}`;
    });
    text = `${text.slice(0, query + 1)}${pairs.join("&")}${end < 0 ? "" : text.slice(end)}`;
  }
  return { url: text, found };
}

export function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}
