/**
 * Reading a tool's view over a client connection (apps.mdx, "Resource Discovery"): the tool names its view by
 * `_meta.ui.resourceUri` (or the deprecated flat `_meta["ui/resourceUri"]`), a `ui://` resource the host MUST read with
 * `resources/read`. The content's `_meta.ui` says how to sandbox it (the `resources/list` entry's is the fallback).
 */
import type { McpClient } from "../../client/client.ts";
import type { ResourceDefinition, ToolDefinition } from "../../protocol/builtin-types.ts";
import { bytesFromBase64 } from "../../transport/base64.ts";
import type { McpUiResourceMeta, McpUiToolMeta } from "../../generated/extensions/apps/types.ts";
import { viewAllowAttribute, viewCsp, type ViewCsp } from "./csp.ts";

/** The MIME type of an MCP Apps view resource. */
const VIEW_MIME = "text/html;profile=mcp-app";
/** The deprecated flat key of a tool's view URI. */
const FLAT_KEY = "ui/resourceUri";

/** A view that cannot be shown: the tool has none, or the server's resource is not a view. */
export class AppViewError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AppViewError";
  }
}

/** A tool's view as a host embeds it. */
export interface ToolView {
  readonly tool: ToolDefinition;
  readonly uri: string;
  /** The HTML document (decoded from `blob` when the server sent Base64). */
  readonly html: string;
  /** `_meta.ui` of the resource: `csp`, `permissions`, `domain`, `prefersBorder`. */
  readonly meta: McpUiResourceMeta;
  /** The Content Security Policy to load the HTML under (deny by default). */
  readonly csp: ViewCsp;
  /** The iframe `allow` attribute for the permissions the view requests. */
  readonly allow: string;
}

type Json = Readonly<Record<string, unknown>>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function metaOf(value: unknown): Json | undefined {
  const meta = isObject(value) ? value["_meta"] : undefined;
  return isObject(meta) ? meta : undefined;
}

/** `_meta.ui` of a tool definition (empty when it has none). */
export function toolUiMeta(tool: ToolDefinition): McpUiToolMeta {
  const ui = metaOf(tool)?.["ui"];
  return isObject(ui) ? (ui as McpUiToolMeta) : {};
}

/** The URI of the tool's view: `_meta.ui.resourceUri`, else the deprecated flat key; undefined when it has none. */
export function toolViewUri(tool: ToolDefinition): string | undefined {
  const uri = toolUiMeta(tool).resourceUri ?? metaOf(tool)?.[FLAT_KEY];
  return typeof uri === "string" ? uri : undefined;
}

/** Who may see and call the tool (`_meta.ui.visibility`; the spec's default, both, when absent). */
export function toolVisibleTo(tool: ToolDefinition, who: "model" | "app"): boolean {
  const visibility: unknown = toolUiMeta(tool).visibility;
  return Array.isArray(visibility) ? visibility.includes(who) : true;
}

function decodeHtml(content: Json, uri: string): string {
  if (typeof content["text"] === "string") return content["text"];
  const blob = content["blob"];
  const bytes = typeof blob === "string" ? bytesFromBase64(blob) : undefined;
  if (bytes === undefined) throw new AppViewError(`view ${uri}: the resource has neither text nor a Base64 blob`);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AppViewError(`view ${uri}: the resource's blob is not UTF-8 text`);
  }
}

async function listedMeta(client: McpClient, uri: string): Promise<Json | undefined> {
  const listed: ResourceDefinition[] = await client.listAllResources().catch(() => []);
  const ui = metaOf(listed.find((r) => r.uri === uri))?.["ui"];
  return isObject(ui) ? ui : undefined;
}

/**
 * Reads the view of `tool` from the server `client` is connected to. Throws `AppViewError` when the tool has no
 * view, its URI is not `ui://`, or the server's content for it is not a `text/html;profile=mcp-app` document.
 */
export async function readToolView(client: McpClient, tool: ToolDefinition): Promise<ToolView> {
  const uri = toolViewUri(tool);
  if (uri === undefined) throw new AppViewError(`tool ${tool.name} has no view (no _meta.ui.resourceUri)`);
  if (!uri.startsWith("ui://"))
    throw new AppViewError(`tool ${tool.name}: its view ${JSON.stringify(uri.slice(0, 200))} is not a ui:// URI`);
  const { contents } = await client.readResource(uri);
  const content = (contents as readonly unknown[]).find((c): c is Json => isObject(c) && c["uri"] === uri);
  if (content === undefined) throw new AppViewError(`view ${uri}: resources/read returned no content for it`);
  if (content["mimeType"] !== VIEW_MIME)
    throw new AppViewError(`view ${uri}: its mimeType must be ${VIEW_MIME}, not ${String(content["mimeType"])}`);
  const html = decodeHtml(content, uri);
  const ui = metaOf(content)?.["ui"];
  const meta = (isObject(ui) ? ui : ((await listedMeta(client, uri)) ?? {})) as McpUiResourceMeta;
  return { tool, uri, html, meta, csp: viewCsp(meta.csp), allow: viewAllowAttribute(meta.permissions) };
}
