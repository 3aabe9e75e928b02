// The view side of MCP Apps, copied verbatim into a manifest's output folder as app-view.ts (by mcp-gen generate).

/**
 * The view side of MCP Apps (ext-apps 2026-01-26) for a view in the host's sandboxed iframe: JSON-RPC over
 * `postMessage` with the host (`ui/initialize`, then `ui/notifications/initialized`), the tool's input and result,
 * host context changes, display modes, size changes and teardown, and `tools/call` through the host. A browser module:
 * no Node import, no validator library; typed per view by the `view-<name>.ts` modules beside it. A view written on
 * ext-apps' `App` class instead gets the same types through `typedApp` (the class stays the user's import).
 */

/** The MCP Apps protocol version this module speaks. */
export const APPS_PROTOCOL_VERSION = "2026-01-26";

export type DisplayMode = "inline" | "fullscreen" | "pip";

/** What the host tells the view about where it runs (`McpUiHostContext`); unknown fields are kept. */
export interface HostContext {
  readonly [key: string]: unknown;
  readonly toolInfo?: { readonly id?: string | number; readonly tool: { readonly name: string } };
  readonly theme?: "light" | "dark";
  readonly displayMode?: DisplayMode;
  readonly availableDisplayModes?: readonly DisplayMode[];
  readonly locale?: string;
  readonly timeZone?: string;
  readonly platform?: "web" | "desktop" | "mobile";
}

export interface ContentBlock {
  readonly type: string;
  readonly [key: string]: unknown;
}

/** A tool's result as the view gets it: `structuredContent` is the tool's output type unless the call failed. */
export type ViewToolResult<Output> =
  | {
      readonly isError?: false;
      readonly content: readonly ContentBlock[];
      readonly structuredContent: Output;
      readonly _meta?: Readonly<Record<string, unknown>>;
    }
  | {
      readonly isError: true;
      readonly content: readonly ContentBlock[];
      readonly structuredContent?: unknown;
      readonly _meta?: Readonly<Record<string, unknown>>;
    };

/** One tool as a view knows it: its input and output types (`undefined`: no output schema). */
export interface ViewTool {
  readonly input: object;
  readonly output: unknown;
}
export type ViewTools = { readonly [name: string]: ViewTool };

export type InputOf<Tools extends ViewTools> = Tools[keyof Tools]["input"];
export type ResultOf<Tools extends ViewTools> = ViewToolResult<Tools[keyof Tools]["output"]>;

export interface ViewOptions {
  /** The view's name and version, sent as `appInfo`. */
  readonly name: string;
  readonly version: string;
  /** Reports the document's size to the host whenever it changes (default true). */
  readonly autoResize?: boolean;
  /** The display modes the view supports (sent in `appCapabilities`). */
  readonly availableDisplayModes?: readonly DisplayMode[];
  /** The window the host listens on (default `window.parent`). */
  readonly host?: Window;
}

/** A JSON-RPC error answer of the host. */
export class ViewRequestError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = "ViewRequestError";
  }
}

/**
 * A view's connection to its host, typed by the tools the host renders it for (`Rendered`: linked, visible to the
 * model) and the tools it may call (`Callable`: linked, visible to apps). Register handlers, then `connect()`; a
 * handler registered after the input or result arrived gets the latest at once.
 */
export interface AppView<Rendered extends ViewTools, Callable extends ViewTools> {
  connect(): Promise<HostContext>;
  readonly hostContext: HostContext;
  onToolInput(handler: (input: InputOf<Rendered>) => void): () => void;
  onToolInputPartial(handler: (input: Partial<InputOf<Rendered>>) => void): () => void;
  onToolResult(handler: (result: ResultOf<Rendered>) => void): () => void;
  onToolCancelled(handler: (reason: string | undefined) => void): () => void;
  onHostContextChanged(handler: (context: HostContext) => void): () => void;
  /** The host is about to remove the view: the answer waits for the handlers. */
  onTeardown(handler: () => void | Promise<void>): () => void;
  callTool<Name extends keyof Callable & string>(
    name: Name,
    args: Callable[Name]["input"],
  ): Promise<ViewToolResult<Callable[Name]["output"]>>;
  requestDisplayMode(mode: DisplayMode): Promise<DisplayMode>;
  sendSizeChanged(size: { readonly width?: number; readonly height?: number }): void;
  openLink(url: string): Promise<void>;
  /** Asks the host to remove the view. */
  requestTeardown(): void;
  /** Stops listening and reporting sizes; pending requests reject. */
  close(): void;
}

/**
 * What `typedApp` needs of ext-apps' `App` class (`new App(…)` of `@modelcontextprotocol/ext-apps`): structural, so
 * this module imports nothing of ext-apps and a view that does not use the class never loads it.
 */
export interface AppLike {
  ontoolinput: ((params: never) => void) | undefined;
  ontoolinputpartial: ((params: never) => void) | undefined;
  ontoolresult: ((params: never) => void) | undefined;
  callServerTool(params: { name: string; arguments?: Record<string, unknown> }, options?: never): Promise<object>;
}

/**
 * An ext-apps `App` typed by a view's tools: `ontoolinput` gets the input type of the tools the host renders the view
 * for, `ontoolresult` their result (`structuredContent` the output type unless `isError`), `callServerTool` takes
 * only the tools the view may call, each with its arguments. Everything else is the `App`'s own.
 */
export type TypedApp<A extends AppLike, Rendered extends ViewTools, Callable extends ViewTools> = Omit<
  A,
  "ontoolinput" | "ontoolinputpartial" | "ontoolresult" | "callServerTool"
> & {
  ontoolinput: ((params: { readonly arguments: InputOf<Rendered> }) => void) | undefined;
  ontoolinputpartial: ((params: { readonly arguments?: Partial<InputOf<Rendered>> }) => void) | undefined;
  ontoolresult: ((result: ResultOf<Rendered>) => void) | undefined;
  callServerTool<Name extends keyof Callable & string>(
    params: { readonly name: Name; readonly arguments: Callable[Name]["input"] },
    options?: Parameters<A["callServerTool"]>[1],
  ): Promise<ViewToolResult<Callable[Name]["output"]>>;
};

/** The same `App` object, typed (no wrapper at run time: the class does the protocol). */
export function typedApp<Rendered extends ViewTools, Callable extends ViewTools, A extends AppLike>(
  app: A,
): TypedApp<A, Rendered, Callable> {
  return app as unknown as TypedApp<A, Rendered, Callable>;
}

type Json = Readonly<Record<string, unknown>>;
type Handler = (value: never) => unknown;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null;

/** The JSON-RPC side of a view: requests and their answers, the host's notifications, the handlers. */
class Channel {
  readonly pending = new Map<number, { resolve: (v: Json) => void; reject: (e: Error) => void }>();
  readonly handlers = new Map<string, Set<Handler>>();
  readonly latest = new Map<string, unknown>();
  nextId = 1;
  context: HostContext = {};
  readonly listener = (event: MessageEvent) => this.receive(event);

  constructor(readonly host: Window) {}

  post(message: Json): void {
    this.host.postMessage({ jsonrpc: "2.0", ...message }, "*");
  }

  request(method: string, params: Json): Promise<Json> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      this.pending.set(id, { resolve, reject });
      this.post({ id, method, params });
    });
  }

  emit(kind: string, value: unknown, keep: boolean): Promise<unknown[]> {
    if (keep) this.latest.set(kind, value);
    return Promise.all([...(this.handlers.get(kind) ?? [])].map((h) => (h as (v: unknown) => unknown)(value)));
  }

  on(kind: string, handler: Handler, replay: boolean): () => void {
    const set = this.handlers.get(kind) ?? new Set<Handler>();
    this.handlers.set(kind, set.add(handler));
    if (replay && this.latest.has(kind)) (handler as (v: unknown) => unknown)(this.latest.get(kind));
    return () => void set.delete(handler);
  }

  answer(id: unknown, work: () => Promise<Json> | Json): void {
    Promise.resolve()
      .then(work)
      .then(
        (result) => this.post({ id, result }),
        (error: unknown) => this.post({ id, error: { code: -32603, message: String(error) } }),
      );
  }

  respond(message: Json): void {
    const id = message["id"];
    const waiting = typeof id === "number" ? this.pending.get(id) : undefined;
    if (!waiting) return;
    this.pending.delete(id as number);
    const error = message["error"];
    if (isObject(error))
      waiting.reject(new ViewRequestError(Number(error["code"]), String(error["message"]), error["data"]));
    else waiting.resolve(isObject(message["result"]) ? message["result"] : {});
  }

  receive(event: MessageEvent): void {
    if (event.source !== this.host || !isObject(event.data) || event.data["jsonrpc"] !== "2.0") return;
    const message = event.data;
    const method = message["method"];
    if (typeof method !== "string") return this.respond(message);
    const params = isObject(message["params"]) ? message["params"] : {};
    switch (method) {
      case "ui/notifications/tool-input":
        return void this.emit("input", params["arguments"] ?? {}, true);
      case "ui/notifications/tool-input-partial":
        return void this.emit("partial", params["arguments"] ?? {}, false);
      case "ui/notifications/tool-result":
        return void this.emit("result", params, true);
      case "ui/notifications/tool-cancelled":
        return void this.emit("cancelled", typeof params["reason"] === "string" ? params["reason"] : undefined, false);
      case "ui/notifications/host-context-changed":
        this.context = { ...this.context, ...params };
        return void this.emit("context", this.context, false);
      case "ui/resource-teardown":
        return this.answer(message["id"], () => this.emit("teardown", undefined, false).then(() => ({})));
      case "ping":
        return this.answer(message["id"], () => ({}));
      default:
        if (message["id"] !== undefined)
          this.post({ id: message["id"], error: { code: -32601, message: "Method not found: " + method } });
    }
  }
}

/** Sends `ui/initialize`, keeps the host context, confirms with `ui/notifications/initialized`. */
async function initialize(channel: Channel, options: ViewOptions): Promise<HostContext> {
  window.addEventListener("message", channel.listener);
  const modes = options.availableDisplayModes;
  const result = await channel.request("ui/initialize", {
    appInfo: { name: options.name, version: options.version },
    appCapabilities: modes ? { availableDisplayModes: modes } : {},
    protocolVersion: APPS_PROTOCOL_VERSION,
  });
  channel.context = isObject(result["hostContext"]) ? result["hostContext"] : {};
  channel.post({ method: "ui/notifications/initialized", params: {} });
  return channel.context;
}

/** The untyped connection every typed view wraps (`view-<name>.ts`). */
export function createAppView<Rendered extends ViewTools, Callable extends ViewTools>(
  options: ViewOptions,
): AppView<Rendered, Callable> {
  const channel = new Channel(options.host ?? window.parent);
  let resize: ResizeObserver | undefined;
  const sendSizeChanged = (size: { readonly width?: number; readonly height?: number }) =>
    channel.post({ method: "ui/notifications/size-changed", params: size });
  return {
    async connect() {
      const context = await initialize(channel, options);
      if (options.autoResize !== false && typeof ResizeObserver === "function") {
        const root = document.documentElement;
        resize = new ResizeObserver(() => sendSizeChanged({ width: root.scrollWidth, height: root.scrollHeight }));
        resize.observe(root);
      }
      return context;
    },
    get hostContext() {
      return channel.context;
    },
    onToolInput: (handler) => channel.on("input", handler, true),
    onToolInputPartial: (handler) => channel.on("partial", handler, false),
    onToolResult: (handler) => channel.on("result", handler, true),
    onToolCancelled: (handler) => channel.on("cancelled", handler, false),
    onHostContextChanged: (handler) => channel.on("context", handler, false),
    onTeardown: (handler) => channel.on("teardown", handler, false),
    callTool: (name, args) => channel.request("tools/call", { name, arguments: args }) as Promise<never>,
    requestDisplayMode: (mode) =>
      channel.request("ui/request-display-mode", { mode }).then((r) => (r["mode"] as DisplayMode | undefined) ?? mode),
    sendSizeChanged,
    openLink: (url) => channel.request("ui/open-link", { url }).then(() => undefined),
    requestTeardown: () => channel.post({ method: "ui/notifications/request-teardown", params: {} }),
    close() {
      window.removeEventListener("message", channel.listener);
      resize?.disconnect();
      for (const waiting of channel.pending.values()) waiting.reject(new Error("the view's connection is closed"));
      channel.pending.clear();
    },
  };
}
