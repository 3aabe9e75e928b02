/**
 * Renders a Handlebars file skeleton from `templates/` with an already-rendered view model. Templates may loop and
 * interpolate, never decide: they compile with `knownHelpersOnly` and no helpers are registered, so `{{#if}}`,
 * `{{#each}}` and `{{#with}}` are all they can use (a test keeps `{{#if}}` out of them).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Handlebars from "handlebars";

export const TEMPLATES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../templates");

const cache = new Map<string, HandlebarsTemplateDelegate>();

export function renderTemplate(name: string, view: object): string {
  let template = cache.get(name);
  if (!template) {
    const source = readFileSync(path.join(TEMPLATES_DIR, name), "utf8");
    template = Handlebars.create().compile(source, { strict: true, noEscape: true, knownHelpersOnly: true });
    cache.set(name, template);
  }
  return template(view);
}
