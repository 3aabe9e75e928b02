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

/**
 * Matches `uri` against `template`, for the expressions resource templates use in practice: `{var}` (one segment,
 * no `/`), `{+var}` / `{#var}` (reserved expansion, may span `/`), and `{?a,b}` / `{&a,b}` query forms. A template
 * with other operators, several variables in one simple expression, or invalid syntax matches nothing; pass
 * `match` to `resourceTemplate` for those. Values are percent-decoded where they decode.
 */
export function matchUriTemplate(template: string, uri: string): Record<string, string> | undefined {
  let parts: readonly UriTemplatePart[];
  try {
    parts = parseUriTemplate(template);
  } catch {
    return undefined;
  }
  const names: string[] = [];
  let pattern = "^";
  for (const part of parts) {
    if (part.kind === "literal") {
      pattern += escapeRegExp(part.text);
      continue;
    }
    const { operator, variables } = part;
    if (operator === "?" || operator === "&") {
      variables.forEach((v, i) => {
        names.push(v.name);
        const lead = i === 0 && operator === "?" ? "\\?" : "&";
        pattern += `(?:${lead}${escapeRegExp(v.name)}=([^&#]*))?`;
      });
      continue;
    }
    if (variables.length !== 1 || !(operator === "" || operator === "+" || operator === "#")) return undefined;
    names.push((variables[0] as UriTemplateVariable).name);
    pattern += operator === "" ? "([^/?#]+)" : operator === "#" ? "#(.+)" : "(.+)";
  }
  const match = new RegExp(pattern + "$").exec(uri);
  if (!match) return undefined;
  const out: Record<string, string> = {};
  names.forEach((name, i) => {
    const value = match[i + 1];
    if (value !== undefined) out[name] = safeDecode(value);
  });
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
