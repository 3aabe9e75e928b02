/**
 * The manifest's MCP Apps part → the views the generated server serves and each tool's link to one. Pure: the
 * pipeline reads a view's file (`LowerOptions.readView`). Every pairing rule is checked here, each problem at its
 * manifest path, all of a run at once: a tool's view exists, a view's file exists and is HTML, an app-only tool is
 * linked to a view; names and URIs are unique.
 */
import { duplicates, reportDuplicates } from "./duplicates.ts";
import { SchemaProblem, type ManifestPath } from "./errors.ts";
import type { Manifest, ManifestView } from "./manifest-schema.ts";
import { pascalName } from "./names.ts";
import { didYouMean } from "./suggest.ts";
import type { UserTool, UserToolUi, UserView } from "./user-model.ts";

/** The MIME type of an MCP Apps view resource (apps.mdx: UI resources). */
export const VIEW_MIME_TYPE = "text/html;profile=mcp-app";

/** A view file as the pipeline read it: its text, or why it cannot be served (one line). */
export type ViewFile = { readonly text: string } | { readonly problem: string };

/** Reads a view's file, named as the manifest writes it (relative to the manifest). */
export type ViewReader = (file: string) => ViewFile;

/**
 * Whether `text` is an HTML document: after a byte order mark, white space and comments, a doctype naming html or
 * an `<html` element. (A fragment or a script is not something a host can render as a view.)
 */
export function isHtmlDocument(text: string): boolean {
  const rest = text.replace(/^\uFEFF/, "").replace(/^(\s|<!--[\s\S]*?-->)*/, "");
  return /^<!doctype\s+html[\s>]/i.test(rest) || /^<html[\s>]/i.test(rest);
}

export interface LoweredViews {
  readonly views: UserView[];
  /** The tools, each with its `ui` when the manifest links it (problems leave it without). */
  readonly tools: UserTool[];
}

/**
 * Lowers `ui` and the tools' `ui` fields; problems go to `problems`. `toolAt` maps a position in `manifest.tools`
 * to the entry's index in the file; `readView` absent: the files are not read (a view's text is then empty), for
 * callers that compare definitions and never serve them.
 */
export function lowerViews(
  manifest: Manifest,
  tools: readonly UserTool[],
  problems: SchemaProblem[],
  at: { readonly views: (i: number) => number; readonly tools: (i: number) => number },
  readView: ViewReader | undefined,
): LoweredViews {
  const declared = manifest.ui ?? [];
  const uriOf = (v: ManifestView) => v.uri ?? `ui://${manifest.server.name}/${v.name}`;
  const bad = reportDuplicates(problems, [
    duplicates(declared, "ui", "view name", (v) => v.name, "name", at.views),
    duplicates(declared, "ui", "view name (as an identifier)", (v) => pascalName(v.name), "name", at.views),
    duplicates(declared, "ui", "view uri", uriOf, "uri", at.views),
  ]);
  const names = new Set(declared.map((v) => v.name));
  const links = toolLinks(manifest, names, problems, at.tools);
  const views = declared.flatMap((view, i): UserView[] => {
    const text = viewText(view, ["ui", at.views(i), "file"], problems, readView);
    if (bad.has(i) || text === undefined) return [];
    const uri = uriOf(view);
    const linked = tools.filter((t) => links.get(t.name)?.view === view.name).map((t) => t.name);
    return [
      {
        name: view.name,
        identifier: pascalName(view.name),
        uri,
        file: view.file,
        text,
        ...describe(view, uri),
        tools: linked,
      },
    ];
  });
  const served = new Map(views.map((v) => [v.name, v]));
  return {
    views,
    tools: tools.map((tool) => {
      const link = links.get(tool.name);
      if (!link) return tool;
      const view = link.view === undefined ? undefined : served.get(link.view);
      const ui: UserToolUi = {
        ...(view ? { view: view.name, resourceUri: view.uri } : {}),
        ...(link.visibility ? { visibility: link.visibility } : {}),
      };
      return { ...tool, ui };
    }),
  };
}

/** The resource's `resources/list` entry and its `_meta.ui` (what the manifest declares, nothing defaulted). */
function describe(view: ManifestView, uri: string): Pick<UserView, "descriptor" | "meta"> {
  const meta: Record<string, unknown> = {
    ...(view.csp && Object.keys(view.csp).length > 0 ? { csp: view.csp } : {}),
    ...(view.permissions ? { permissions: Object.fromEntries(view.permissions.map((p) => [p, {}])) } : {}),
    ...(view.domain !== undefined ? { domain: view.domain } : {}),
    ...(view.prefersBorder !== undefined ? { prefersBorder: view.prefersBorder } : {}),
  };
  const descriptor = {
    uri,
    name: view.name,
    ...(view.title !== undefined ? { title: view.title } : {}),
    ...(view.description !== undefined ? { description: view.description } : {}),
    mimeType: VIEW_MIME_TYPE,
    ...(Object.keys(meta).length > 0 ? { _meta: { ui: meta } } : {}),
  };
  return { descriptor, meta };
}

function viewText(
  view: ManifestView,
  path: ManifestPath,
  problems: SchemaProblem[],
  readView: ViewReader | undefined,
): string | undefined {
  if (!/\.html?$/i.test(view.file)) {
    problems.push(new SchemaProblem(path, `view file ${JSON.stringify(view.file)} is not an .html file`));
    return undefined;
  }
  if (!readView) return "";
  const file = readView(view.file);
  if ("problem" in file) {
    problems.push(new SchemaProblem(path, file.problem));
    return undefined;
  }
  if (!isHtmlDocument(file.text)) {
    problems.push(
      new SchemaProblem(
        path,
        `view file ${JSON.stringify(view.file)} is not an HTML document (it must start with <!doctype html> or <html>)`,
      ),
    );
    return undefined;
  }
  return file.text;
}

interface Link {
  readonly view?: string;
  readonly visibility?: readonly ("model" | "app")[];
}

/** Each tool's `ui` as declared, checked: its view exists, an app-only tool names one, no visibility twice. */
function toolLinks(
  manifest: Manifest,
  views: ReadonlySet<string>,
  problems: SchemaProblem[],
  toolAt: (i: number) => number,
): Map<string, Link> {
  const links = new Map<string, Link>();
  (manifest.tools ?? []).forEach((tool, i) => {
    const ui = tool.ui;
    if (!ui) return;
    const path = ["tools", toolAt(i), "ui"];
    let ok = true;
    if (ui.view !== undefined && !views.has(ui.view)) {
      const known = views.size > 0 ? `; the views are ${[...views].join(", ")}` : "; the manifest declares no ui views";
      problems.push(
        new SchemaProblem(
          [...path, "view"],
          `no view named ${JSON.stringify(ui.view)}${didYouMean(ui.view, views)}${known}`,
        ),
      );
      ok = false;
    }
    const visibility = ui.visibility;
    if (visibility && new Set(visibility).size < visibility.length) {
      problems.push(new SchemaProblem([...path, "visibility"], "a visibility is listed twice"));
      ok = false;
    }
    if (visibility && !visibility.includes("model") && ui.view === undefined) {
      problems.push(
        new SchemaProblem(
          path,
          "an app-only tool (visibility [app]) must be linked to a view (ui.view): otherwise no view can call it and the model never sees it",
        ),
      );
      ok = false;
    }
    if (ok)
      links.set(tool.name, {
        ...(ui.view !== undefined ? { view: ui.view } : {}),
        ...(visibility ? { visibility } : {}),
      });
  });
  return links;
}
