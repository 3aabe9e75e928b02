/**
 * MCP Apps (`io.modelcontextprotocol/ui`, ext-apps specification 2026-01-26) on the server: the extension is
 * advertised, and what a client sees follows what it declares. A client that declares the extension gets every tool
 * with its `_meta.ui`; one that does not sees ordinary tools: no `_meta.ui` (nor the deprecated flat
 * `ui/resourceUri`), no tool only views may call (`visibility: ["app"]`), and a call of such a tool is an unknown
 * tool, as if it did not exist.
 */
import { ErrorCode, RpcError } from "../../jsonrpc/errors.ts";
import type { ToolDefinition } from "../../protocol/builtin-types.ts";
import { hasCapability } from "../../protocol/capabilities.ts";
import { extensionApplies } from "../../protocol/extensions.ts";
import type { RequestContext } from "../../server/context.ts";
import type { ServerExtension, ServerFeature } from "../../server/extension.ts";
import { extension } from "../../generated/extensions/apps/extension.ts";

/** The MCP Apps extension identifier. */
export const APPS_EXTENSION_ID = extension.id;

/** The deprecated flat key a tool's view URI was written under before `_meta.ui.resourceUri`; hosts still read it. */
export const LEGACY_RESOURCE_URI_KEY = "ui/resourceUri";

/** The MCP Apps extension for `ServerOptions.extensions` (the generated server lists it when the manifest has views). */
export function apps(): ServerExtension {
  return { ...extension, serve: () => appsFeature() };
}

/** Whether the request's client declared MCP Apps under a revision the extension is defined for. */
export function declaresApps(context: RequestContext): boolean {
  return (
    extensionApplies(extension, context.revision) &&
    hasCapability(context.clientCapabilities, ["extensions", APPS_EXTENSION_ID])
  );
}

/** The `visibility` a tool definition declares in `_meta.ui` (absent: both, the spec's default). */
export function toolVisibility(definition: ToolDefinition): readonly string[] {
  const ui = uiMetaOf(definition);
  const visibility = ui?.["visibility"];
  return Array.isArray(visibility) ? visibility.filter((v): v is string => typeof v === "string") : ["model", "app"];
}

function uiMetaOf(definition: ToolDefinition): Readonly<Record<string, unknown>> | undefined {
  const meta = (definition as { readonly _meta?: Readonly<Record<string, unknown>> })._meta;
  const ui = meta?.["ui"];
  return typeof ui === "object" && ui !== null && !Array.isArray(ui) ? (ui as Record<string, unknown>) : undefined;
}

const appOnly = (definition: ToolDefinition) => !toolVisibility(definition).includes("model");

/** The definition without its MCP Apps keys (and without `_meta` when nothing else is left in it). */
function ordinary(definition: ToolDefinition): ToolDefinition {
  const meta = (definition as { readonly _meta?: Readonly<Record<string, unknown>> })._meta;
  if (meta === undefined || (!Object.hasOwn(meta, "ui") && !Object.hasOwn(meta, LEGACY_RESOURCE_URI_KEY)))
    return definition;
  const { ui: _ui, [LEGACY_RESOURCE_URI_KEY]: _flat, ...rest } = meta;
  const { _meta: _old, ...plain } = definition as ToolDefinition & { readonly _meta?: unknown };
  return (Object.keys(rest).length > 0 ? { ...plain, _meta: rest } : plain) as ToolDefinition;
}

function appsFeature(): ServerFeature {
  return {
    toolList: (tools, context) =>
      declaresApps(context) ? tools : tools.filter((tool) => !appOnly(tool)).map(ordinary),
    toolCall(tool, context) {
      if (appOnly(tool.definition) && !declaresApps(context))
        throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${tool.name}`);
      return undefined;
    },
  };
}
