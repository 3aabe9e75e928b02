/**
 * RFC 6570 URI templates, the one implementation shared by the server (matching a URI to a resource template),
 * typed clients (expansion, all four levels) and the generator (validating a manifest's templates and listing
 * their variables). A leaf module with no imports, so the generator can compile it into its own package.
 */

/** A template variable's value: a string, or a list of strings for explode/list operators. */
export type UriTemplateValue = string | readonly string[];

export type UriTemplateOperator = "" | "+" | "#" | "." | "/" | ";" | "?" | "&";

export interface UriTemplateVariable {
  readonly name: string;
  /** `{list*}`: each list item is expanded on its own. */
  readonly explode: boolean;
  /** `{var:3}`: only the first `prefix` characters are expanded. */
  readonly prefix?: number;
}

export type UriTemplatePart =
  | { readonly kind: "literal"; readonly text: string }
  | {
      readonly kind: "expression";
      readonly operator: UriTemplateOperator;
      readonly variables: readonly UriTemplateVariable[];
    };

export class UriTemplateError extends Error {
  override readonly name = "UriTemplateError";
}

const OPERATORS = new Set<string>(["+", "#", ".", "/", ";", "?", "&"]);
/** RFC 6570 §2.2 reserves these operator characters for future extensions. */
const RESERVED_OPERATORS = new Set<string>(["=", ",", "!", "@", "|"]);
const VARSPEC = /^((?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*)(\*|:([1-9][0-9]{0,3}))?$/;
/** Characters RFC 6570 §2.1 does not allow in literals (outside a pct-encoded triplet). */
const BAD_LITERAL = /[\s"'<>\\^`{|}]|%(?![0-9A-Fa-f]{2})/;

const parsedTemplates = new Map<string, readonly UriTemplatePart[]>();

/** Parses and validates `template`; throws `UriTemplateError` naming the first problem. Results are cached. */
export function parseUriTemplate(template: string): readonly UriTemplatePart[] {
  const cached = parsedTemplates.get(template);
  if (cached) return cached;
  const parts: UriTemplatePart[] = [];
  let rest = template;
  while (rest !== "") {
    const open = rest.indexOf("{");
    const literal = open === -1 ? rest : rest.slice(0, open);
    if (literal !== "") {
      const bad = BAD_LITERAL.exec(literal);
      if (bad) throw new UriTemplateError(`unexpected ${JSON.stringify(bad[0])} in literal ${JSON.stringify(literal)}`);
      parts.push({ kind: "literal", text: literal });
    }
    if (open === -1) break;
    const close = rest.indexOf("}", open);
    if (close === -1) throw new UriTemplateError(`unclosed expression at ${JSON.stringify(rest.slice(open))}`);
    parts.push(parseExpression(rest.slice(open + 1, close)));
    rest = rest.slice(close + 1);
  }
  parsedTemplates.set(template, parts);
  return parts;
}

function parseExpression(body: string): UriTemplatePart {
  const first = body.charAt(0);
  if (RESERVED_OPERATORS.has(first)) throw new UriTemplateError(`reserved operator "${first}" in {${body}}`);
  const operator = (OPERATORS.has(first) ? first : "") as UriTemplateOperator;
  const list = body.slice(operator.length);
  const variables = list.split(",").map((spec): UriTemplateVariable => {
    const match = VARSPEC.exec(spec);
    if (!match) throw new UriTemplateError(`invalid variable ${JSON.stringify(spec)} in {${body}}`);
    return {
      name: match[1] as string,
      explode: match[2] === "*",
      ...(match[3] !== undefined ? { prefix: Number(match[3]) } : {}),
    };
  });
  return { kind: "expression", operator, variables };
}

/** Every variable of `template` once, in order of first appearance, with the operator of that appearance. */
export function uriTemplateVariables(
  template: string,
): readonly (UriTemplateVariable & { readonly operator: UriTemplateOperator })[] {
  const seen = new Map<string, UriTemplateVariable & { readonly operator: UriTemplateOperator }>();
  for (const part of parseUriTemplate(template)) {
    if (part.kind !== "expression") continue;
    for (const v of part.variables) if (!seen.has(v.name)) seen.set(v.name, { ...v, operator: part.operator });
  }
  return [...seen.values()];
}

interface OperatorRules {
  readonly first: string;
  readonly separator: string;
  /** `name=value` pairs (`;`, `?`, `&`). */
  readonly named: boolean;
  /** What follows a name whose value is empty. */
  readonly ifEmpty: string;
  /** Reserved characters pass unencoded (`+`, `#`). */
  readonly allowReserved: boolean;
}

/** RFC 6570 Appendix A. */
const RULES: Readonly<Record<UriTemplateOperator, OperatorRules>> = {
  "": { first: "", separator: ",", named: false, ifEmpty: "", allowReserved: false },
  "+": { first: "", separator: ",", named: false, ifEmpty: "", allowReserved: true },
  "#": { first: "#", separator: ",", named: false, ifEmpty: "", allowReserved: true },
  ".": { first: ".", separator: ".", named: false, ifEmpty: "", allowReserved: false },
  "/": { first: "/", separator: "/", named: false, ifEmpty: "", allowReserved: false },
  ";": { first: ";", separator: ";", named: true, ifEmpty: "", allowReserved: false },
  "?": { first: "?", separator: "&", named: true, ifEmpty: "=", allowReserved: false },
  "&": { first: "&", separator: "&", named: true, ifEmpty: "=", allowReserved: false },
};

/** Expands `template` with `variables`; absent (`undefined`) variables and empty lists are left out (RFC 6570). */
export function expandUriTemplate(
  template: string,
  variables: Readonly<Record<string, UriTemplateValue | undefined>>,
): string {
  let out = "";
  for (const part of parseUriTemplate(template)) {
    if (part.kind === "literal") {
      out += encode(part.text, true);
      continue;
    }
    const rules = RULES[part.operator];
    const pieces: string[] = [];
    for (const spec of part.variables) {
      const value = variables[spec.name];
      if (value === undefined || (typeof value !== "string" && value.length === 0)) continue;
      pieces.push(expandVariable(spec, value, rules));
    }
    if (pieces.length > 0) out += rules.first + pieces.join(rules.separator);
  }
  return out;
}

function expandVariable(spec: UriTemplateVariable, value: UriTemplateValue, rules: OperatorRules): string {
  const named = (text: string, raw: string) =>
    (rules.named ? spec.name + (raw === "" ? rules.ifEmpty : "=") : "") + text;
  if (typeof value === "string") {
    const cut = spec.prefix !== undefined ? [...value].slice(0, spec.prefix).join("") : value;
    return named(encode(cut, rules.allowReserved), cut);
  }
  const items = value.map((item) => encode(item, rules.allowReserved));
  if (!spec.explode) return named(items.join(","), items.join(","));
  return rules.named
    ? value.map((item, i) => named(items[i] as string, item)).join(rules.separator)
    : items.join(rules.separator);
}

/** Unreserved characters stay; with `allowReserved`, reserved characters and pct-encoded triplets stay too. */
function encode(text: string, allowReserved: boolean): string {
  if (!allowReserved)
    return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return text
    .split(/(%[0-9A-Fa-f]{2})/)
    .map((piece, i) => (i % 2 === 1 ? piece : encodeURI(piece).replace(/%5B/g, "[").replace(/%5D/g, "]")))
    .join("");
}

/** URIs longer than this match no template unless the caller passes another bound (`matchUriTemplate`). */
export const DEFAULT_MAX_MATCHED_URI_LENGTH = 8_192;

/**
 * What matching reads a template as: literals (as expansion writes them), values of at least one character (within
 * one segment, no `/`, `?` or `#`, when `segment`) and query blocks (`?`/`&` then `name=value` pairs joined by `&`).
 */
type MatchAtom =
  | { readonly kind: "literal"; readonly text: string }
  | { readonly kind: "value"; readonly name: string; readonly segment: boolean }
  | { readonly kind: "query"; readonly lead: string; readonly names: readonly string[] };

const matchers = new Map<string, readonly MatchAtom[] | undefined>();

/**
 * Matches `uri` against `template`, for the expressions resource templates use in practice: `{var}` (one segment:
 * no `/`, `?` or `#`), `{+var}` (reserved expansion, may span `/`), `{#var}` (a fragment) and the query forms
 * `{?a,b}` / `{&a,b}` (each variable at most once, in any order, its value running to the next `&` or `#`). A
 * prefix (`{var:3}`) is not checked. A template with other operators, several variables in one non-query
 * expression, an exploded variable or invalid syntax matches nothing; pass `match` to `resourceTemplate` for those.
 * Where several readings fit, earlier variables take as much as they can. Values are percent-decoded where they
 * decode; a variable used twice must read the same both times. Runs in time linear in `uri.length` × the template's
 * parts (no backtracking), and a URI longer than `maxLength` matches nothing.
 */
export function matchUriTemplate(
  template: string,
  uri: string,
  maxLength: number = DEFAULT_MAX_MATCHED_URI_LENGTH,
): Record<string, string> | undefined {
  if (uri.length > maxLength) return undefined;
  const atoms = matcherOf(template);
  if (atoms === undefined) return undefined;
  const feasible = feasibility(atoms, uri);
  if (feasible[0]![0] === 0) return undefined;
  const values = new Map<string, string>();
  let at = 0;
  for (const [i, atom] of atoms.entries()) {
    const next = feasible[i + 1]!;
    if (atom.kind === "literal") at += atom.text.length;
    else if (atom.kind === "value") {
      const end = longestValue(atom, uri, at, next);
      if (!record(values, atom.name, uri.slice(at, end))) return undefined;
      at = end;
    } else {
      const pairs = queryPairs(atom, uri, at);
      let taken = pairs.length;
      while (taken > 0 && next[pairs[taken - 1]!.end] === 0) taken--;
      for (const pair of pairs.slice(0, taken)) if (!record(values, pair.name, pair.value)) return undefined;
      at = taken > 0 ? pairs[taken - 1]!.end : at;
    }
  }
  return Object.fromEntries(values);
}

function matcherOf(template: string): readonly MatchAtom[] | undefined {
  if (matchers.has(template)) return matchers.get(template);
  let atoms: MatchAtom[] | undefined = [];
  try {
    for (const part of parseUriTemplate(template)) {
      const atom =
        part.kind === "literal" ? [{ kind: "literal", text: encode(part.text, true) } as const] : atomsOf(part);
      if (atom === undefined) {
        atoms = undefined;
        break;
      }
      atoms.push(...atom);
    }
  } catch {
    atoms = undefined;
  }
  matchers.set(template, atoms);
  return atoms;
}

function atomsOf(part: Extract<UriTemplatePart, { kind: "expression" }>): MatchAtom[] | undefined {
  const { operator, variables } = part;
  if (variables.some((v) => v.explode)) return undefined;
  if (operator === "?" || operator === "&")
    return [{ kind: "query", lead: operator, names: variables.map((v) => v.name) }];
  const name = variables[0]!.name;
  if (variables.length > 1) return undefined;
  if (operator === "") return [{ kind: "value", name, segment: true }];
  if (operator === "+") return [{ kind: "value", name, segment: false }];
  if (operator === "#")
    return [
      { kind: "literal", text: "#" },
      { kind: "value", name, segment: false },
    ];
  return undefined;
}

/** `feasible[i][p]` is 1 when atoms `i…` can match `uri` from position `p` to its end; one pass per atom. */
function feasibility(atoms: readonly MatchAtom[], uri: string): Uint8Array[] {
  const n = uri.length;
  const feasible = atoms.map(() => new Uint8Array(n + 1));
  const last = new Uint8Array(n + 1);
  last[n] = 1;
  feasible.push(last);
  // One small function per kind of atom: each loop stays monomorphic, so it is fast even before the JIT settles.
  for (let i = atoms.length - 1; i >= 0; i--) {
    const atom = atoms[i]!;
    if (atom.kind === "literal") literalFits(atom.text, uri, feasible[i + 1]!, feasible[i]!);
    else if (atom.kind === "value") valueFits(atom.segment, uri, feasible[i + 1]!, feasible[i]!);
    else queryFits(atom, uri, feasible[i + 1]!, feasible[i]!);
  }
  return feasible;
}

function literalFits(text: string, uri: string, next: Uint8Array, here: Uint8Array): void {
  const first = text.charCodeAt(0);
  for (let p = 0, end = uri.length - text.length; p <= end; p++)
    if (next[p + text.length] === 1 && uri.charCodeAt(p) === first && uri.startsWith(text, p)) here[p] = 1;
}

/** here[p]: the character at p is allowed and from p + 1 a position where the next atoms fit is reachable. */
function valueFits(segment: boolean, uri: string, next: Uint8Array, here: Uint8Array): void {
  let reach = next[uri.length] === 1;
  for (let p = uri.length - 1; p >= 0; p--) {
    if (reach && !(segment && endsSegment(uri.charCodeAt(p)))) here[p] = 1;
    reach = next[p] === 1 || here[p] === 1;
  }
}

/** `/`, `?` and `#` end a `{var}` value. */
function endsSegment(code: number): boolean {
  return code === 0x2f || code === 0x3f || code === 0x23;
}

function queryFits(atom: Extract<MatchAtom, { kind: "query" }>, uri: string, next: Uint8Array, here: Uint8Array): void {
  for (let p = 0; p <= uri.length; p++) {
    const fits =
      next[p] === 1 ||
      (p < uri.length && uri.charAt(p) === atom.lead && queryPairs(atom, uri, p).some((pair) => next[pair.end] === 1));
    if (fits) here[p] = 1;
  }
}

/** The end of the longest value from `at` over allowed characters after which the next atoms fit. */
function longestValue(atom: Extract<MatchAtom, { kind: "value" }>, uri: string, at: number, next: Uint8Array): number {
  let end = at;
  while (end < uri.length && !(atom.segment && endsSegment(uri.charCodeAt(end)))) end++;
  while (next[end] === 0) end--;
  return end;
}

interface QueryPair {
  readonly name: string;
  readonly value: string;
  /** Where the pair's value ends. */
  readonly end: number;
}

/** The `name=value` pairs a query block can read from `at`, in order (each name once). */
function queryPairs(atom: Extract<MatchAtom, { kind: "query" }>, uri: string, at: number): QueryPair[] {
  const pairs: QueryPair[] = [];
  let p = at;
  while (p < uri.length && uri.charAt(p) === (pairs.length === 0 ? atom.lead : "&")) {
    const name = atom.names.find((n) => uri.startsWith(n, p + 1) && uri.charAt(p + 1 + n.length) === "=");
    if (name === undefined || pairs.some((pair) => pair.name === name)) break;
    const start = p + name.length + 2;
    let end = start;
    while (end < uri.length && uri.charAt(end) !== "&" && uri.charAt(end) !== "#") end++;
    pairs.push({ name, value: uri.slice(start, end), end });
    p = end;
  }
  return pairs;
}

/** Records a variable's decoded value; false when the variable already has another value. */
function record(values: Map<string, string>, name: string, raw: string): boolean {
  const value = safeDecode(raw);
  if (values.has(name) && values.get(name) !== value) return false;
  values.set(name, value);
  return true;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
