/**
 * MCP Apps views on the server: each an HTML document served as a `ui://` resource with mimeType
 * `text/html;profile=mcp-app` and, in both its `resources/list` entry and its `resources/read` content, the
 * `_meta.ui` it declares (`csp`, `permissions`, `domain`, `prefersBorder`): hosts read the content's first.
 */
import type { ResourceDefinition } from "../../protocol/builtin-types.ts";
import type { McpServer } from "../../server/server.ts";

/** The MIME type of an MCP Apps view resource. */
export const VIEW_MIME_TYPE = "text/html;profile=mcp-app";

/** A view as the generated `views.ts` lists it: its resource entry (a `ui://` URI) and its HTML. */
export interface AppView {
  readonly definition: ResourceDefinition;
  readonly text: string;
}

/** Registers each view as a resource of `server`. Throws for an entry that is not a `ui://` view. */
export function serveViews(server: McpServer, views: Readonly<Record<string, AppView>>): void {
  for (const [name, view] of Object.entries(views)) {
    const { definition, text } = view;
    if (!definition.uri.startsWith("ui://"))
      throw new Error(`view ${name}: its uri must be a ui:// URI, not ${definition.uri}`);
    if (definition.mimeType !== VIEW_MIME_TYPE) throw new Error(`view ${name}: its mimeType must be ${VIEW_MIME_TYPE}`);
    const meta = (definition as { readonly _meta?: Readonly<Record<string, unknown>> })._meta;
    const content = { uri: definition.uri, mimeType: VIEW_MIME_TYPE, text, ...(meta ? { _meta: meta } : {}) };
    server.resource(definition, () => ({ contents: [content] }));
  }
}
