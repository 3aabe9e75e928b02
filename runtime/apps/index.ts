/**
 * mcp-gen runtime: MCP Apps (`@mcp-gen/runtime/apps`; `io.modelcontextprotocol/ui`, ext-apps 2026-01-26), on the
 * extension interface of the core entry (`ServerExtension.serve`). Docs: docs/apps.md.
 *
 * Server: `new McpServer({ …, extensions: [apps()] })` advertises the extension and shows clients that do not
 * declare it ordinary tools; `serveViews(server, views)` serves each view as a `ui://` resource. A generated server
 * does both when its manifest declares views (`ui:`).
 */
export { apps, declaresApps, toolVisibility, APPS_EXTENSION_ID, LEGACY_RESOURCE_URI_KEY } from "./server/feature.ts";
export { serveViews, VIEW_MIME_TYPE, type AppView } from "./server/views.ts";
export { viewAllowAttribute, viewCsp, type ViewCsp } from "./host/csp.ts";
