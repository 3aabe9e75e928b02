/**
 * The apps example's host page: what a chat client does with an MCP Apps tool, in a few lines, on the official
 * ext-apps `AppBridge`. It connects to the server (Streamable HTTP, same origin: /mcp) declaring MCP Apps, finds the
 * view get_forecast links to (`_meta.ui.resourceUri`), reads it, renders it in a sandboxed iframe under the spec's
 * default (deny-all) CSP, sends it the call's input, calls the tool and sends it the result. The view's own calls
 * (tools/call) go to the server only for tools visible to apps; a model-only tool is refused, as the spec requires.
 */
import { Client, StreamableHTTPClientTransport, type CallToolResult, type Tool } from "@modelcontextprotocol/client";
import {
  AppBridge,
  PostMessageTransport,
  RESOURCE_MIME_TYPE,
  getToolUiResourceUri,
} from "@modelcontextprotocol/ext-apps/app-bridge";

const HOST_INFO = { name: "mcp-gen apps example host", version: "1.0.0" };
/** The spec's default CSP for a view that declares no domains: inline script and style, nothing from the network. */
const DEFAULT_CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; media-src data:; connect-src 'none'";

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const status = (text: string) => (byId("host-status").textContent = text);

const client = new Client(HOST_INFO, {
  capabilities: { extensions: { "io.modelcontextprotocol/ui": { mimeTypes: [RESOURCE_MIME_TYPE] } } },
});
await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", location.href)));
const { tools } = await client.listTools();

let shown: { readonly bridge: AppBridge; readonly frame: HTMLIFrameElement } | undefined;

/** Whether apps may call `tool`: its `_meta.ui.visibility` holds "app" (absent: model and app, the default). */
function visibleToApps(tool: Tool): boolean {
  const ui = tool._meta?.["ui"];
  const visibility = typeof ui === "object" && ui !== null ? (ui as { visibility?: unknown }).visibility : undefined;
  return !Array.isArray(visibility) || visibility.includes("app");
}

/** A view's tools/call: only for a tool the server lists and apps may see. */
async function callForView(name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
  const tool = tools.find((t) => t.name === name);
  if (!tool || !visibleToApps(tool)) throw new Error(`Tool ${name} is not available to views`);
  return (await client.callTool({ name, arguments: args ?? {} })) as CallToolResult;
}

/** The view's HTML with the CSP the host enforces in front of everything it holds. */
async function viewDocument(tool: Tool): Promise<string> {
  const uri = getToolUiResourceUri(tool);
  if (uri === undefined) throw new Error(`${tool.name} has no view`);
  const { contents } = await client.readResource({ uri });
  const html = contents.find((c) => c.mimeType === RESOURCE_MIME_TYPE && "text" in c);
  if (!html || !("text" in html)) throw new Error(`${uri} holds no ${RESOURCE_MIME_TYPE} text`);
  const csp = `<meta http-equiv="Content-Security-Policy" content="${DEFAULT_CSP}">`;
  // First thing in <head>, so it governs every script and style of the document.
  return /<head[^>]*>/i.test(html.text) ? html.text.replace(/<head[^>]*>/i, (head) => head + csp) : csp + html.text;
}

/** Runs get_forecast for the form's input the way a chat client would, with its view. */
async function showForecast(args: { city: string; days: number }): Promise<void> {
  const tool = tools.find((t) => t.name === "get_forecast");
  if (!tool) throw new Error("the server lists no get_forecast");
  if (shown) {
    await shown.bridge.teardownResource({});
    await shown.bridge.close();
    shown.frame.remove();
  }
  const frame = document.createElement("iframe");
  frame.sandbox.add("allow-scripts");
  frame.title = "get_forecast view";
  byId("views").append(frame);
  const bridge = new AppBridge(
    null,
    HOST_INFO,
    { serverTools: {}, openLinks: {}, logging: {} },
    {
      hostContext: { theme: "light", displayMode: "inline", platform: "web", toolInfo: { tool } },
    },
  );
  bridge.oncalltool = (params) => callForView(params.name, params.arguments);
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) frame.style.height = `${height}px`;
  };
  const initialized = new Promise<void>((resolve) => (bridge.oninitialized = () => resolve()));
  await bridge.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  shown = { bridge, frame };
  frame.srcdoc = await viewDocument(tool);
  await initialized;
  status("view initialized");
  await bridge.sendToolInput({ arguments: args });
  const result = await client.callTool({ name: tool.name, arguments: args });
  await bridge.sendToolResult(result as CallToolResult);
  status(`get_forecast(${args.city}) shown`);
}

byId<HTMLFormElement>("ask").addEventListener("submit", (event) => {
  event.preventDefault();
  const city = byId<HTMLInputElement>("city").value;
  const days = Number(byId<HTMLSelectElement>("days").value);
  showForecast({ city, days }).catch((error: unknown) => status(`failed: ${String(error)}`));
});
status("connected");
