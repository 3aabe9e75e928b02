/**
 * `UserModel` → `views.ts` (only when the manifest declares MCP Apps views): each view's `resources/list` entry
 * (its `ui://` URI, mimeType `text/html;profile=mcp-app`, `_meta.ui`) and its HTML as read at generation time, so a
 * server serves its views without a file system (edge runtimes too); `createServer` registers them (`serveViews`).
 */
import type { UserModel } from "../../manifest/user-model.ts";
import { typeUse } from "../printer.ts";
import { runtime } from "../runtime-symbols.ts";
import { propertyKey } from "../ts-types.ts";
import { jsonLiteral } from "./json-literal.ts";
import { createUserPrinter } from "./user-printer.ts";

export function emitUserViewsFile(model: UserModel, header: string): string {
  const f = createUserPrinter(model);
  const keys = model.views.map((v) => JSON.stringify(v.name)).join(" | ");
  f.print(
    "/** The MCP Apps views of the manifest (`ui`), by name: each served as a ui:// resource by `createServer`. */",
  );
  f.print(`export const views: Readonly<Record<${keys}, `, typeUse(runtime.AppView), ">> = {");
  for (const view of model.views) {
    f.print(`  /** ${view.file}${view.tools.length > 0 ? `: the view of ${view.tools.join(", ")}` : ""}. */`);
    f.print(
      `  ${propertyKey(view.name)}: { definition: ${jsonLiteral(view.descriptor)}, text: ${JSON.stringify(view.text)} },`,
    );
  }
  f.print("};");
  return f.render(header);
}
