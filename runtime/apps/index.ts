/**
 * mcp-gen runtime: MCP Apps (`@mcp-gen/runtime/apps`; `io.modelcontextprotocol/ui`, ext-apps 2026-01-26), on the
 * extension interface of the core entry (`ServerExtension.serve`). Docs: docs/apps.md.
 *
 * Server: `new McpServer({ …, extensions: [apps()] })` advertises the extension and shows clients that do not
 * declare it ordinary tools; `serveViews(server, views)` serves each view as a `ui://` resource. A generated server
 * does both when its manifest declares views (`ui:`).
 *
 * Host (a page that embeds views; web APIs only): a client with `extensions: [appsClient()]`, then
 * `new AppHost(client, { hostInfo })`: `readView(tool)` gives the HTML with its CSP (`viewCsp`) and `allow` attribute,
 * `open(port, tool)` answers the view behind `port` (`frameViewPort(iframe.contentWindow)`), `run(session, args)`
 * sends it the tool's input and result.
 */
export { apps, declaresApps, toolVisibility, APPS_EXTENSION_ID, LEGACY_RESOURCE_URI_KEY } from "./server/feature.ts";
export { serveViews, VIEW_MIME_TYPE, type AppView } from "./server/views.ts";
export { viewAllowAttribute, viewCsp, type ViewCsp } from "./host/csp.ts";
export { appsClient } from "./host/client-extension.ts";
export { AppHost, APPS_PROTOCOL_VERSION, type AppHostOptions, type OpenViewOptions } from "./host/host.ts";
export type { ViewSession } from "./host/session.ts";
export { AppViewError, readToolView, toolUiMeta, toolViewUri, toolVisibleTo, type ToolView } from "./host/read-view.ts";
export {
  frameViewPort,
  messagePortViewPort,
  type FrameViewPortOptions,
  type MessageEventLike,
  type MessageEventTargetLike,
  type MessagePortLike,
  type ViewPort,
  type WindowLike,
} from "./host/view-port.ts";
