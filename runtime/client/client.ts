/**
 * The MCP client: one client for servers of every revision. The protocol core (negotiation, typed requests,
 * notifications and handlers by method token, extensions, eras) is ClientConnection (connection.ts); this class adds
 * the convenience methods (`callTool`, `listTools`, …). Their results are typed as any built-in revision defines them
 * (the unions of `protocol/builtin-types.ts`, what generated clients and users import); `request(methods["tools/call"],
 * …)` types a result exactly as one revision defines it.
 */
import { RequestCancelledError } from "../jsonrpc/errors.ts";
import type { JsonRpcId } from "../jsonrpc/messages.ts";
import { MetaKey, type LogLevel } from "../protocol/meta.ts";
import type {
  BuiltinParams,
  BuiltinResult,
  BuiltinToken,
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  PromptDefinition,
  ReadResourceResult,
  ResourceDefinition,
  ResourceTemplateDefinition,
  SubscriptionFilter,
  ToolDefinition,
} from "../protocol/builtin-types.ts";

import type { AnyRequestType, CompleteResultOf } from "../protocol/method-type.ts";
import { ClientConnection } from "./connection.ts";
import type { RequestFacts } from "./era.ts";
import { collectPages } from "./pagination.ts";
import { ClientTasks, settledTask, TASKS_EXTENSION_ID, type TaskHandle, type TaskHost } from "./tasks.ts";
import type { CallerParamsOf, CallOptions, RequestArgs } from "./tokens.ts";

export type { ClientOptions } from "./options.ts";
export type { CallOptions } from "./tokens.ts";

export interface PageParams {
  readonly cursor?: string;
}

/** An open `subscriptions/listen` stream. */
export interface Subscription {
  /** The listen request's id; notifications of this stream carry it as `_meta["io.modelcontextprotocol/subscriptionId"]`. */
  readonly id: JsonRpcId;
  /** What the server agreed to send. */
  readonly filter: SubscriptionFilter;
  /** Settles when the stream ends (resolves on a graceful end or `close()`, rejects when the connection drops). */
  readonly ended: Promise<void>;
  /** Cancels the stream. */
  close(): void;
}

/** What each convenience method resolves to: the method's complete result in any built-in revision. */
interface ConvenienceResults {
  readonly ping: unknown;
  readonly "server/discover": BuiltinResult<"server/discover">;
  readonly "tools/list": ListToolsResult;
  readonly "tools/call": CallToolResult;
  readonly "resources/list": ListResourcesResult;
  readonly "resources/templates/list": ListResourceTemplatesResult;
  readonly "resources/read": ReadResourceResult;
  readonly "resources/subscribe": unknown;
  readonly "resources/unsubscribe": unknown;
  readonly "prompts/list": ListPromptsResult;
  readonly "prompts/get": GetPromptResult;
  readonly "completion/complete": CompleteResult;
  readonly "logging/setLevel": unknown;
  readonly "subscriptions/listen": unknown;
}

/**
 * The client, given its revisions as values (`ClientOptions.revisions`, e.g. `builtinRevisions`): code built on it
 * bundles the bindings of those revisions and no others. The protocol core lives in `ClientConnection`, an internal
 * base class; this is the one client class of the public API.
 */
export class McpClient extends ClientConnection {
  /** Tasks extension: the handles of the tasks servers create (client/tasks.ts). */
  private readonly tasks = new ClientTasks(this.taskHost(), this.options.tasks);

  /**
   * A core method by name, params checked against every built-in revision's. The negotiated revision's table has
   * validated the result when it resolves, so it is one member of `BuiltinResult<M>` (for a built-in revision): the
   * one narrowing of this class.
   */
  private call<M extends keyof ConvenienceResults>(
    method: M,
    params: CallerParamsOf<BuiltinToken<M>> | undefined,
    options: CallOptions | undefined,
  ): Promise<ConvenienceResults[M]> {
    return this.request(method, params as Readonly<Record<string, unknown>> | undefined, options) as Promise<
      ConvenienceResults[M]
    >;
  }

  /** Handshake era: tells the server the roots changed (needs `roots.listChanged`, declared when a roots handler is set). */
  notifyRootsListChanged(): Promise<void> {
    return this.notify("notifications/roots/list_changed");
  }

  /** Handshake era only (the stateless era has no ping). */
  async ping(options?: CallOptions): Promise<void> {
    await this.call("ping", undefined, options);
  }
  /** Stateless era: the server's versions, capabilities and identity. */
  discover(options?: CallOptions): Promise<BuiltinResult<"server/discover">> {
    return this.call("server/discover", {}, options);
  }
  listTools(params: PageParams = {}, options?: CallOptions): Promise<ListToolsResult> {
    return this.call("tools/list", params, options);
  }
  async listAllTools(options?: CallOptions): Promise<ToolDefinition[]> {
    return collectPages(
      (p) => this.listTools(p, options),
      (r) => r.tools,
    );
  }
  callTool(name: string, args?: Readonly<Record<string, unknown>>, options?: CallOptions): Promise<CallToolResult> {
    return this.call("tools/call", args === undefined ? { name } : { name, arguments: args }, options);
  }
  listResources(params: PageParams = {}, options?: CallOptions): Promise<ListResourcesResult> {
    return this.call("resources/list", params, options);
  }
  listAllResources(options?: CallOptions): Promise<ResourceDefinition[]> {
    return collectPages(
      (p) => this.listResources(p, options),
      (r) => r.resources,
    );
  }
  listResourceTemplates(params: PageParams = {}, options?: CallOptions): Promise<ListResourceTemplatesResult> {
    return this.call("resources/templates/list", params, options);
  }
  listAllResourceTemplates(options?: CallOptions): Promise<ResourceTemplateDefinition[]> {
    return collectPages(
      (p) => this.listResourceTemplates(p, options),
      (r) => r.resourceTemplates,
    );
  }
  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult> {
    return this.call("resources/read", { uri }, options);
  }
  /** Handshake era: `resources/subscribe`; updates arrive as `notifications/resources/updated` (see `on`). */
  async subscribeResource(uri: string, options?: CallOptions): Promise<void> {
    await this.call("resources/subscribe", { uri }, options);
  }
  async unsubscribeResource(uri: string, options?: CallOptions): Promise<void> {
    await this.call("resources/unsubscribe", { uri }, options);
  }
  listPrompts(params: PageParams = {}, options?: CallOptions): Promise<ListPromptsResult> {
    return this.call("prompts/list", params, options);
  }
  listAllPrompts(options?: CallOptions): Promise<PromptDefinition[]> {
    return collectPages(
      (p) => this.listPrompts(p, options),
      (r) => r.prompts,
    );
  }
  getPrompt(name: string, args?: Readonly<Record<string, string>>, options?: CallOptions): Promise<GetPromptResult> {
    return this.call("prompts/get", args === undefined ? { name } : { name, arguments: args }, options);
  }
  complete(
    params: CallerParamsOf<BuiltinToken<"completion/complete">>,
    options?: CallOptions,
  ): Promise<CompleteResult> {
    return this.call("completion/complete", params, options);
  }
  /** Handshake era: `logging/setLevel` (the stateless era uses `ClientOptions.logLevel`). */
  async setLogLevel(level: LogLevel, options?: CallOptions): Promise<void> {
    await this.call("logging/setLevel", { level }, options);
  }

  /**
   * Tasks extension: `tools/call` as a task. Resolves to the task's handle once the server answered, with a task
   * (`taskId` set) or at once; `handle.result()` is the call's result. `options.signal` cancels the task.
   */
  callToolAsTask(
    name: string,
    args?: Readonly<Record<string, unknown>>,
    options?: CallOptions,
  ): Promise<TaskHandle<CallToolResult>> {
    return this.asTask("tools/call", args === undefined ? { name } : { name, arguments: args }, options);
  }

  /** Tasks extension: a request (by token) that may run as a task; resolves to its handle (see `callToolAsTask`). */
  requestTask<T extends AnyRequestType>(type: T, ...args: RequestArgs<T>): Promise<TaskHandle<CompleteResultOf<T>>> {
    return this.asTask(type.method, args[0], args[1]);
  }

  /** Tasks extension: the handle of a task a `type` request created earlier, from its persisted `taskId`. */
  resumeTask<T extends AnyRequestType>(
    type: T,
    taskId: string,
    options: { readonly signal?: AbortSignal } = {},
  ): Promise<TaskHandle<CompleteResultOf<T>>> {
    return this.tasks.resume(taskId, this.clientRequest(type.method), options.signal);
  }

  private async asTask<R>(method: string, params: unknown, options: CallOptions = {}): Promise<TaskHandle<R>> {
    this.tasks.requireDeclared(method);
    const { raw, facts } = await this.exchange(method, params, options);
    return this.tasks.created<R>(raw, facts, options.signal) ?? settledTask(this.completeResult(raw, facts) as R);
  }

  /** A created task is followed to its end: a direct call resolves to its result (the signal cancels the task). */
  protected override settle(raw: unknown, facts: RequestFacts, options: CallOptions): unknown {
    const task = this.tasks.created(raw, facts, options.signal);
    return task ? task.result() : super.settle(raw, facts, options);
  }

  private taskHost(): TaskHost {
    const client = this; // eslint-disable-line @typescript-eslint/no-this-alias -- read by the getter below
    return {
      declared: (this.options.extensions ?? []).some((e) => e.id === TASKS_EXTENSION_ID),
      get stateless() {
        return client.era === "stateless";
      },
      request: (method, params, signal) => this.request(method, params, signal ? { signal } : {}),
      answer: (requests, signal, method) => this.fulfil(requests, signal, method),
      complete: (result, facts) => this.completeResult(result, facts),
      on: (method, listener) => this.on(method, listener),
      listen: async (taskIds, signal) => {
        // `taskIds` is the extension's field of the filter and of the acknowledgement (TaskSubscriptionNotifications).
        const subscription = await this.listen({ taskIds } as SubscriptionFilter, { signal });
        const agreed = (subscription.filter as { taskIds?: unknown }).taskIds;
        return { agreed: Array.isArray(agreed) ? (agreed as string[]) : [], ended: subscription.ended };
      },
    };
  }

  /**
   * Stateless era: opens a `subscriptions/listen` stream and resolves once the server acknowledged it. The stream's
   * notifications reach `on(method, …)` listeners and carry `_meta["io.modelcontextprotocol/subscriptionId"]`.
   */
  listen(filter: SubscriptionFilter, options: { readonly signal?: AbortSignal } = {}): Promise<Subscription> {
    const controller = new AbortController();
    options.signal?.addEventListener("abort", () => controller.abort(options.signal?.reason), { once: true });
    let subscriptionId: JsonRpcId | undefined;
    return new Promise<Subscription>((resolve, reject) => {
      const stop = this.on("notifications/subscriptions/acknowledged", (params) => {
        // Parsed by the negotiated revision's token of this notification (its params type in a built-in revision).
        const p = params as BuiltinParams<"notifications/subscriptions/acknowledged">;
        if (subscriptionId === undefined || p._meta?.[MetaKey.subscriptionId] !== subscriptionId) return;
        stop();
        resolve({ id: subscriptionId, filter: p.notifications, ended, close: () => controller.abort("unsubscribed") });
      });
      const ended = this.call(
        "subscriptions/listen",
        { notifications: filter },
        {
          timeoutMs: 0,
          signal: controller.signal,
          onRequestId: (id) => (subscriptionId = id),
        },
      ).then(
        () => undefined,
        (error: unknown) => {
          stop();
          reject(error);
          // Ended by us (close) or by the server (notifications/cancelled): an ordinary end of the stream.
          if (!controller.signal.aborted && !(error instanceof RequestCancelledError)) throw error;
        },
      );
      ended.catch(() => undefined);
    });
  }
}
