/**
 * The host side of MCP Apps for one client connection (the AppBridge role, apps.mdx): `AppHost` reads a tool's view
 * and opens a session per rendered view, answering its requests: `ui/initialize` (host info, capabilities and
 * context), `tools/call` proxied to the server only for tools whose visibility includes `"app"` (the spec: a host MUST
 * reject the others), `resources/read` proxied, `ping`, display modes, size changes, teardown, and the optional
 * `ui/open-link`, `ui/message`, `ui/update-model-context`, `ui/download-file` when the host gives a handler (each
 * advertised in `hostCapabilities` only then). Web APIs only: a page bundles it.
 */
import type { McpClient } from "../../client/client.ts";
import { ErrorCode, RpcError } from "../../jsonrpc/errors.ts";
import type { CallToolResult, Implementation, ToolDefinition } from "../../protocol/builtin-types.ts";
import type { Awaitable } from "../../protocol/helper-types.ts";
import { formatIssues } from "../../protocol/validation.ts";
import { McpUiInitializeRequestSchema } from "../../generated/extensions/apps/schemas.ts";
import type {
  McpUiDisplayMode,
  McpUiDownloadFileRequest,
  McpUiHostCapabilities,
  McpUiHostContext,
  McpUiMessageRequest,
  McpUiSizeChangedNotification,
  McpUiUpdateModelContextRequest,
} from "../../generated/extensions/apps/types.ts";
import { readToolView, toolVisibleTo, type ToolView } from "./read-view.ts";
import { ViewConnection, type ViewRequests, type ViewSession } from "./session.ts";
import type { ViewPort } from "./view-port.ts";

/** The MCP Apps protocol version this host speaks (ext-apps 2026-01-26). */
export const APPS_PROTOCOL_VERSION = "2026-01-26";

type Params = Readonly<Record<string, unknown>>;

export interface AppHostOptions {
  /** Sent to views as `hostInfo`. */
  readonly hostInfo: Implementation;
  /** The context every view starts with (theme, locale, `displayMode`, `availableDisplayModes`, …). */
  readonly hostContext?: McpUiHostContext;
  /** `ui/open-link`: open `url` for the user (throw to refuse). Without it, the request is refused. */
  readonly onOpenLink?: (url: string, session: ViewSession) => Awaitable<void>;
  /** `ui/message`: a message for the conversation. */
  readonly onMessage?: (params: McpUiMessageRequest["params"], session: ViewSession) => Awaitable<void>;
  /** `ui/update-model-context`: context for the model's next turns (each replaces the previous). */
  readonly onUpdateModelContext?: (
    params: McpUiUpdateModelContextRequest["params"],
    session: ViewSession,
  ) => Awaitable<void>;
  /** `ui/download-file`: a file the view offers the user. */
  readonly onDownloadFile?: (params: McpUiDownloadFileRequest["params"], session: ViewSession) => Awaitable<void>;
  /** `ui/notifications/size-changed`: resize the view's frame. */
  readonly onSizeChanged?: (size: McpUiSizeChangedNotification["params"], session: ViewSession) => void;
  /**
   * `ui/request-display-mode`, for a mode both the host (`availableDisplayModes`) and the view offer: the mode to
   * switch to (default: the requested one). A mode outside both lists is never chosen.
   */
  readonly onRequestDisplayMode?: (mode: McpUiDisplayMode, session: ViewSession) => Awaitable<McpUiDisplayMode>;
  /** `ui/notifications/request-teardown`: the view asks to be removed (call `session.teardown()` to agree). */
  readonly onRequestTeardown?: (session: ViewSession) => void;
  /** `notifications/message`: the view's log messages. */
  readonly onLog?: (params: Params, session: ViewSession) => void;
}

/** What `open` is told about the view's tool call. */
export interface OpenViewOptions {
  /** The JSON-RPC id of the `tools/call` that rendered the view (`hostContext.toolInfo.id`). */
  readonly toolCallId?: string | number;
  /** Context for this view only, over the host's. */
  readonly hostContext?: McpUiHostContext;
}

/** The host of the views of one server, over `client` (which must declare the extension: `appsClient()`). */
export class AppHost {
  readonly #client: McpClient;
  readonly #options: AppHostOptions;
  #tools: Promise<ToolDefinition[]> | undefined;

  constructor(client: McpClient, options: AppHostOptions) {
    this.#client = client;
    this.#options = options;
    client.on("notifications/tools/list_changed", () => (this.#tools = undefined));
  }

  /** The server's tools as this connection sees them (listed once, again after `tools/list_changed`). */
  tools(): Promise<ToolDefinition[]> {
    const listed = (this.#tools ??= this.#client.listAllTools());
    listed.catch(() => (this.#tools = undefined));
    return listed;
  }

  async #tool(name: string): Promise<ToolDefinition | undefined> {
    const found = (await this.tools()).find((t) => t.name === name);
    if (found) return found;
    this.#tools = undefined;
    return (await this.tools()).find((t) => t.name === name);
  }

  /** The view of a tool (by name or definition): its HTML, `_meta.ui`, CSP and `allow` attribute. */
  async readView(tool: string | ToolDefinition): Promise<ToolView> {
    const definition = typeof tool === "string" ? await this.#tool(tool) : tool;
    if (definition === undefined) throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: ${String(tool)}`);
    return readToolView(this.#client, definition);
  }

  /** Opens the session with a view of `tool` rendered behind `port`; it answers the view's requests at once. */
  open(port: ViewPort, tool: ToolDefinition, options: OpenViewOptions = {}): ViewSession {
    // The definition as the server listed it, whichever revision's shape it has.
    const listed = tool as unknown as NonNullable<McpUiHostContext["toolInfo"]>["tool"];
    const context: McpUiHostContext = {
      ...this.#options.hostContext,
      ...options.hostContext,
      toolInfo: { ...(options.toolCallId === undefined ? {} : { id: options.toolCallId }), tool: listed },
    };
    const session = new ViewConnection(port, context);
    session.bind(this.#answers(session));
    return session;
  }

  /**
   * Runs the tool call a view renders: sends the view the arguments, calls the tool on the server and sends the
   * result (an error answer as a result with `isError`). Resolves to the server's result.
   */
  async run(session: ViewSession, args: Params): Promise<CallToolResult> {
    const tool = session.hostContext.toolInfo?.tool.name;
    if (tool === undefined) throw new Error("the session has no tool");
    session.sendToolInput(args);
    let result: CallToolResult;
    try {
      result = await this.#client.callTool(tool, args);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      result = { isError: true, content: [{ type: "text", text: message }] };
    }
    session.sendToolResult(result);
    return result;
  }

  #capabilities(): McpUiHostCapabilities {
    const o = this.#options;
    return {
      serverTools: {},
      serverResources: {},
      ...(o.onOpenLink ? { openLinks: {} } : {}),
      ...(o.onDownloadFile ? { downloadFile: {} } : {}),
      ...(o.onLog ? { logging: {} } : {}),
      ...(o.onMessage ? { message: { text: {} } } : {}),
      ...(o.onUpdateModelContext ? { updateModelContext: { text: {}, structuredContent: {} } } : {}),
    };
  }

  #answers(session: ViewConnection): ViewRequests {
    const o = this.#options;
    const optional = <P>(handler: ((params: P, session: ViewSession) => Awaitable<void>) | undefined) =>
      handler ? async (params: Params) => (await handler(params as P, session), {}) : undefined;
    const requests: Readonly<Record<string, ((params: Params) => Promise<object>) | undefined>> = {
      "ui/initialize": async (params) => this.#initialize(session, params),
      ping: async () => ({}),
      "tools/call": (params) => this.#callTool(params),
      "resources/read": (params) => this.#readResource(params),
      "ui/request-display-mode": (params) => this.#displayMode(session, params),
      "ui/open-link": o.onOpenLink ? async (params) => (await o.onOpenLink!(url(params), session), {}) : undefined,
      "ui/message": optional(o.onMessage),
      "ui/update-model-context": optional(o.onUpdateModelContext),
      "ui/download-file": optional(o.onDownloadFile),
    };
    return {
      request: async (method, params) => {
        const answer = Object.hasOwn(requests, method) ? requests[method] : undefined;
        if (answer === undefined) throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);
        return answer(params);
      },
      notification: (method, params) => {
        if (method === "ui/notifications/size-changed") o.onSizeChanged?.(size(params), session);
        else if (method === "ui/notifications/request-teardown") o.onRequestTeardown?.(session);
        else if (method === "notifications/message") o.onLog?.(params, session);
      },
    };
  }

  #initialize(session: ViewConnection, params: Params): object {
    const parsed = McpUiInitializeRequestSchema.safeParse({ method: "ui/initialize", params });
    if (!parsed.success)
      throw new RpcError(
        ErrorCode.InvalidParams,
        `Invalid ui/initialize: ${formatIssues(parsed.error.issues, "request")}`,
      );
    session.appInfo = parsed.data.params.appInfo;
    session.appCapabilities = parsed.data.params.appCapabilities;
    return {
      protocolVersion: APPS_PROTOCOL_VERSION,
      hostInfo: this.#options.hostInfo,
      hostCapabilities: this.#capabilities(),
      hostContext: session.hostContext,
    };
  }

  async #callTool(params: Params): Promise<object> {
    const { name, arguments: args } = params;
    if (typeof name !== "string") throw new RpcError(ErrorCode.InvalidParams, "tools/call: name must be a string");
    if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args)))
      throw new RpcError(ErrorCode.InvalidParams, "tools/call: arguments must be an object");
    const tool = await this.#tool(name);
    if (tool === undefined || !toolVisibleTo(tool, "app"))
      throw new RpcError(
        ErrorCode.InvalidParams,
        tool === undefined
          ? `Unknown tool: ${name}`
          : `Tool ${name} is not callable from a view: its visibility has no "app"`,
      );
    return this.#client.callTool(name, args as Params | undefined);
  }

  async #readResource(params: Params): Promise<object> {
    if (typeof params["uri"] !== "string")
      throw new RpcError(ErrorCode.InvalidParams, "resources/read: uri must be a string");
    return this.#client.readResource(params["uri"]);
  }

  async #displayMode(session: ViewSession, params: Params): Promise<object> {
    const current = session.hostContext.displayMode ?? "inline";
    const mode = params["mode"];
    const hostModes = session.hostContext.availableDisplayModes ?? ["inline"];
    const viewModes = session.appCapabilities?.availableDisplayModes;
    const offered = (m: unknown): m is McpUiDisplayMode =>
      hostModes.includes(m as McpUiDisplayMode) && (viewModes === undefined || viewModes.includes(m as never));
    if (!offered(mode)) return { mode: current };
    const chosen = this.#options.onRequestDisplayMode ? await this.#options.onRequestDisplayMode(mode, session) : mode;
    if (!offered(chosen)) return { mode: current };
    session.setHostContext({ displayMode: chosen });
    return { mode: chosen };
  }
}

function url(params: Params): string {
  if (typeof params["url"] !== "string")
    throw new RpcError(ErrorCode.InvalidParams, "ui/open-link: url must be a string");
  return params["url"];
}

function size(params: Params): McpUiSizeChangedNotification["params"] {
  const pick = (key: "width" | "height") =>
    typeof params[key] === "number" && Number.isFinite(params[key]) ? { [key]: params[key] } : {};
  return { ...pick("width"), ...pick("height") };
}
