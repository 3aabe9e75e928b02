/**
 * RFC 6570 expansion of resource-template URIs for typed clients, with the `url-template` package (all four levels;
 * ships plain ESM, so it works from the built package without an install step). Parsed templates are cached: a
 * generated client expands the same few templates on every call.
 */
import { parseTemplate, type Template } from "url-template";

/** A template variable's value: a string, or a list of strings for explode/list operators. */
export type UriTemplateValue = string | readonly string[];

const parsed = new Map<string, Template>();

/** Expands `template` with `variables`; absent (`undefined`) variables are left out, as RFC 6570 says. */
export function expandUriTemplate(
  template: string,
  variables: Readonly<Record<string, UriTemplateValue | undefined>>,
): string {
  let compiled = parsed.get(template);
  if (compiled === undefined) {
    compiled = parseTemplate(template);
    parsed.set(template, compiled);
  }
  const defined: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(variables)) {
    if (value !== undefined) defined[name] = typeof value === "string" ? value : [...value];
  }
  return compiled.expand(defined);
}
