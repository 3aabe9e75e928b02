/**
 * One view's JSON-RPC session with its host (the AppBridge role of apps.mdx, "Communication Protocol"): the view's
 * requests are answered by `ViewRequests` (host.ts), the host's notifications to the view wait until the view sent
 * `ui/notifications/initialized` (the spec forbids sending anything before), and the host's own requests
 * (`ui/resource-teardown`, `ping`) are matched with their answers. Malformed messages get JSON-RPC errors, never a throw.
 */
import { ErrorCode, RpcError } from "../../jsonrpc/errors.ts";
import { classify, type JsonRpcId } from "../../jsonrpc/messages.ts";
import type { CallToolResult } from "../../protocol/builtin-types.ts";
import type {
  McpUiAppCapabilities,
  McpUiHostContext,
  McpUiToolInputNotification,
} from "../../generated/extensions/apps/types.ts";
import type { ViewPort } from "./view-port.ts";

/** What answers a session's incoming requests and notifications (the host, bound to this session). */
export interface ViewRequests {
  request(method: string, params: Readonly<Record<string, unknown>>): Promise<object>;
  notification(method: string, params: Readonly<Record<string, unknown>>): void;
}

interface Pending {
  resolve(result: unknown): void;
  reject(error: Error): void;
}

type Params = Readonly<Record<string, unknown>>;

/** The host's side of the session with one view (`AppHost.open`). */
export interface ViewSession {
  /** Settles once the view sent `ui/notifications/initialized`. */
  readonly initialized: Promise<void>;
  /** What the view said of itself in `ui/initialize` (undefined before). */
  readonly appInfo: { readonly name: string; readonly version: string } | undefined;
  readonly appCapabilities: McpUiAppCapabilities | undefined;
  /** The host context as the view knows it (what `ui/initialize` returned, with every change since). */
  readonly hostContext: McpUiHostContext;
  readonly closed: boolean;
  /** The tool's complete arguments (`ui/notifications/tool-input`); held until the view initialized, as all below. */
  sendToolInput(args: ToolArguments): void;
  /** Arguments still streaming in (`ui/notifications/tool-input-partial`), before the complete ones. */
  sendToolInputPartial(args: ToolArguments): void;
  sendToolResult(result: CallToolResult): void;
  sendToolCancelled(reason?: string): void;
  setHostContext(changes: McpUiHostContext): void;
  /**
   * Asks the view to tear down (`ui/resource-teardown`), waits for its answer (at most `timeoutMs`, default 10 s),
   * then closes the session. A view that never initialized is closed at once.
   */
  teardown(options?: { readonly timeoutMs?: number }): Promise<void>;
  /** Stops listening; the host's pending requests reject. */
  close(): void;
}

type ToolArguments = NonNullable<McpUiToolInputNotification["params"]["arguments"]>;

/** The session's implementation: the JSON-RPC of one view. */
export class ViewConnection implements ViewSession {
  #answers: ViewRequests | undefined;
  readonly #port: ViewPort;
  readonly #stop: () => void;
  readonly #pending = new Map<JsonRpcId, Pending>();
  #queue: object[] | undefined = [];
  #nextId = 1;
  #closed = false;
  #markInitialized!: () => void;
  #context: McpUiHostContext;

  readonly initialized: Promise<void>;
  appInfo: { readonly name: string; readonly version: string } | undefined;
  appCapabilities: McpUiAppCapabilities | undefined;

  constructor(port: ViewPort, context: McpUiHostContext) {
    this.#port = port;
    this.#context = context;
    this.initialized = new Promise((resolve) => (this.#markInitialized = resolve));
    this.#stop = port.listen((message) => this.#receive(message));
  }

  /** The host binds its answers once (host.ts). */
  bind(answers: ViewRequests): void {
    this.#answers = answers;
  }

  get hostContext(): McpUiHostContext {
    return this.#context;
  }
  get closed(): boolean {
    return this.#closed;
  }

  sendToolInput(args: ToolArguments): void {
    this.#notify("ui/notifications/tool-input", { arguments: args });
  }
  sendToolInputPartial(args: ToolArguments): void {
    this.#notify("ui/notifications/tool-input-partial", { arguments: args });
  }
  sendToolResult(result: CallToolResult): void {
    this.#notify("ui/notifications/tool-result", result as unknown as Params);
  }
  sendToolCancelled(reason?: string): void {
    this.#notify("ui/notifications/tool-cancelled", reason === undefined ? {} : { reason });
  }

  setHostContext(changes: McpUiHostContext): void {
    const changed: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(changes))
      if (JSON.stringify(this.#context[key]) !== JSON.stringify(value)) changed[key] = value;
    if (Object.keys(changed).length === 0) return;
    this.#context = { ...this.#context, ...changed };
    this.#notify("ui/notifications/host-context-changed", changed);
  }

  async teardown(options: { readonly timeoutMs?: number } = {}): Promise<void> {
    if (this.#closed) return;
    if (this.#queue === undefined) {
      const answered = this.request("ui/resource-teardown", {});
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, options.timeoutMs ?? 10_000)));
      await Promise.race([answered.catch(() => undefined), late]).finally(() => clearTimeout(timer));
    }
    this.close();
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#stop();
    for (const pending of this.#pending.values()) pending.reject(new Error("the view's session is closed"));
    this.#pending.clear();
  }

  /** Sends a request to the view (after it initialized) and resolves to its result. */
  request(method: string, params: Params): Promise<unknown> {
    if (this.#closed) return Promise.reject(new Error("the view's session is closed"));
    const id = `host-${this.#nextId++}`;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#send({ jsonrpc: "2.0", id, method, params });
    });
  }

  #notify(method: string, params: Params): void {
    if (!this.#closed) this.#send({ jsonrpc: "2.0", method, params });
  }

  #send(message: object): void {
    if (this.#queue) this.#queue.push(message);
    else this.#port.post(message);
  }

  #post(message: object): void {
    if (!this.#closed) this.#port.post(message);
  }

  #receive(value: unknown): void {
    if (this.#closed) return;
    const classified = classify(value);
    switch (classified.kind) {
      case "invalid":
        if (classified.id !== null)
          this.#post({ jsonrpc: "2.0", id: classified.id, error: { code: -32600, message: classified.reason } });
        return;
      case "response": {
        const { id } = classified.message;
        const pending = id === null ? undefined : this.#pending.get(id);
        if (pending === undefined) return;
        this.#pending.delete(id!);
        const message = classified.message;
        if ("error" in message) pending.reject(RpcError.from(message.error));
        else pending.resolve(message.result);
        return;
      }
      case "notification": {
        const { method, params } = classified.message;
        if (method === "ui/notifications/initialized") return this.#initialized();
        this.#answers?.notification(method, asParams(params));
        return;
      }
      case "request":
        return this.#answer(classified.message.id, classified.message.method, asParams(classified.message.params));
    }
  }

  #initialized(): void {
    const queued = this.#queue;
    if (queued === undefined) return;
    this.#queue = undefined;
    for (const message of queued) this.#port.post(message);
    this.#markInitialized();
  }

  #answer(id: JsonRpcId, method: string, params: Params): void {
    const answers = this.#answers;
    const work = answers
      ? Promise.resolve().then(() => answers.request(method, params))
      : Promise.reject(new RpcError(ErrorCode.InternalError, "the host is not ready"));
    work.then(
      (result) => this.#post({ jsonrpc: "2.0", id, result }),
      (error: unknown) => this.#post({ jsonrpc: "2.0", id, error: errorObject(error) }),
    );
  }
}

function asParams(params: unknown): Params {
  return typeof params === "object" && params !== null && !Array.isArray(params) ? (params as Params) : {};
}

/** An `RpcError` as it is; anything else as an internal error with its message (no stack). */
function errorObject(error: unknown): { code: number; message: string; data?: unknown } {
  if (error instanceof RpcError) return error.toJSON();
  return { code: ErrorCode.InternalError, message: error instanceof Error ? error.message : String(error) };
}
