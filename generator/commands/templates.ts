/**
 * The Handlebars templates of `templates/<set>/`: scaffolds whose shape is the file they produce. Loaded here, by
 * the command that uses them, so no emitter reads the disk. Files named `_<name>.hbs` are partials (`{{> name}}`),
 * for the parts several templates repeat. Templates may loop and interpolate, never decide: they compile with
 * `knownHelpersOnly` and no helpers are registered (test/manifest/manifest-schema.test.ts keeps `{{#if}}` out of them).
 */
import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import Handlebars from "handlebars";

/**
 * `templates/` of the `mcp-gen` package (shipped through its `files`), found from the package's own `package.json`
 * by self-reference: the same folder whether the sources run (this repository) or the compiled CLI (installed).
 */
function templatesDir(): string {
  return path.join(path.dirname(createRequire(import.meta.url).resolve("mcp-gen/package.json")), "templates");
}

/** Renders the named template of the set with an already-rendered view model. */
export type Templates = (name: string, view: object) => string;

export async function loadTemplates(set: string): Promise<Templates> {
  const dir = path.join(templatesDir(), set);
  const handlebars = Handlebars.create();
  const templates = new Map<string, HandlebarsTemplateDelegate>();
  for (const name of (await readdir(dir)).filter((n) => n.endsWith(".hbs")).sort()) {
    const source = await readFile(path.join(dir, name), "utf8");
    if (name.startsWith("_")) handlebars.registerPartial(name.slice(1, -".hbs".length), source);
    else templates.set(name, handlebars.compile(source, { strict: true, noEscape: true, knownHelpersOnly: true }));
  }
  return (name, view) => {
    const template = templates.get(name);
    if (!template) throw new Error(`no template ${set}/${name}`);
    return template(view);
  };
}
