/**
 * MCP Apps on the client (apps.mdx, "Client (Host) Capabilities"): a host declares `io.modelcontextprotocol/ui` with
 * the view MIME types it renders, and then sees every tool with its `_meta.ui`, app-only tools included.
 */
import type { ClientExtension } from "../../client/extensions.ts";
import { extension } from "../../generated/extensions/apps/extension.ts";

/** The MCP Apps extension for `ClientOptions.extensions` of a client whose views a host renders (`AppHost`). */
export function appsClient(): ClientExtension {
  return { ...extension, settings: { mimeTypes: ["text/html;profile=mcp-app"] } };
}
