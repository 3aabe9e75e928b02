/**
 * `UserModel` → the browser modules of MCP Apps views: `app-view.ts` (the view side of the protocol, the same text
 * for every output folder, read by the pipeline from templates/apps/) and per view `view-<name>.ts`, which types it
 * by the view's tools: those the host renders it for (linked, visible to the model) give `onToolInput` and
 * `onToolResult` their input and output types, those it may call (linked, visible to apps) type `callTool`; its
 * `typed<View>App(app)` types ext-apps' `App` class the same way (`ontoolinput`, `ontoolresult`, `callServerTool`). Both
 * import nothing but each other and `types.ts` (type-only): no Node module, no runtime, no validator library.
 */
import type { UserModel, UserTool, UserView } from "../../manifest/user-model.ts";
import type { GeneratedFile } from "../generated-file.ts";
import { propertyKey } from "../ts-types.ts";
import { createUserPrinter, T } from "./user-printer.ts";
import { siblingExport } from "../runtime-symbols.ts";
import { typeUse, type Printable } from "../printer.ts";

const visible = (tool: UserTool, who: "model" | "app") => (tool.ui?.visibility ?? ["model", "app"]).includes(who);

/** The file name of a view's module (`forecast-card` → `view-forecast-card.ts`). */
export function viewModulePath(view: UserView): string {
  return `view-${view.name}.ts`;
}

function toolTable(tools: readonly UserTool[]): Printable {
  if (tools.length === 0) return "{}";
  return [
    "{\n",
    tools.map((t): Printable => [
      `  readonly ${propertyKey(t.name)}: { readonly input: `,
      typeUse(T),
      `.${t.input.typeName}; readonly output: `,
      t.output ? [typeUse(T), `.${t.output.typeName}`] : "undefined",
      " };\n",
    ]),
    "}",
  ];
}

function emitViewModule(model: UserModel, view: UserView, header: string): string {
  const f = createUserPrinter(model);
  const linked = model.tools.filter((t) => t.ui?.view === view.name);
  const rendered = linked.filter((t) => visible(t, "model"));
  const callable = linked.filter((t) => visible(t, "app"));
  const id = view.identifier;
  const AppView = siblingExport("AppView", "app-view");
  const ViewOptions = siblingExport("ViewOptions", "app-view");
  f.print(`/** The tools the host renders view ${view.name} for: linked to it and visible to the model. */`);
  f.print(`export type ${id}RenderedTools = `, toolTable(rendered), ";");
  f.print("");
  f.print(`/** The tools view ${view.name} may call through the host: linked to it and visible to apps. */`);
  f.print(`export type ${id}CallableTools = `, toolTable(callable), ";");
  f.print("");
  f.print(`/** View ${view.name} (${view.uri}): its connection to the host, typed by its tools. */`);
  f.print(`export type ${id}View = `, typeUse(AppView), `<${id}RenderedTools, ${id}CallableTools>;`);
  f.print("");
  f.print(
    `/** Connects view ${view.name} to its host (appInfo defaults to its name, version "1"): register handlers, then \`connect()\`. */`,
  );
  f.print(`export function create${id}View(options: Partial<`, typeUse(ViewOptions), `> = {}): ${id}View {`);
  f.print(
    "  return ",
    siblingExport("createAppView", "app-view"),
    `<${id}RenderedTools, ${id}CallableTools>({ name: ${JSON.stringify(view.name)}, version: "1", ...options });`,
  );
  f.print("}");
  f.print("");
  const AppLike = siblingExport("AppLike", "app-view");
  const TypedApp = siblingExport("TypedApp", "app-view");
  f.print(
    `/** Types an ext-apps \`App\` (\`new App(…)\`) for view ${view.name}: the same object, its tool handlers and \`callServerTool\` typed by the view's tools. */`,
  );
  f.print(
    `export function typed${id}App<A extends `,
    typeUse(AppLike),
    `>(app: A): `,
    typeUse(TypedApp),
    `<A, ${id}RenderedTools, ${id}CallableTools> {`,
  );
  f.print("  return ", siblingExport("typedApp", "app-view"), `<${id}RenderedTools, ${id}CallableTools, A>(app);`);
  f.print("}");
  return f.render(header);
}

/** `app-view.ts` and one module per view; none without views. */
export function emitViewModules(model: UserModel, header: string, appViewSource: string | undefined): GeneratedFile[] {
  if (model.views.length === 0) return [];
  if (appViewSource === undefined) throw new Error("emitUserFiles: a model with views needs assets.appViewSource");
  return [
    { path: "app-view.ts", content: `${header}${appViewSource}` },
    ...model.views.map((view) => ({ path: viewModulePath(view), content: emitViewModule(model, view, header) })),
  ];
}
