/**
 * The client side of Streamable HTTP for every revision, as a `Transport` for the client session. What differs by
 * era (session, headers, cancellation, resumption, recovery, the HTTP+SSE fallback) is the era strategy of each
 * message (era.ts); this class does the HTTP work those rules ask for.
 */
import { ErrorCode } from "../../jsonrpc/errors.ts";
import type { OutgoingOptions, Transport, TransportSink } from "../../transport/transport.ts";
import { HttpError } from "./sse.ts";
import { LegacySseClient } from "./legacy.ts";
import { headerParamsOf, type HeaderParam } from "../mcp-headers.ts";
import {
  errorCode,
  excerpt,
  isHeaderText,
  isStatelessEraError,
  isObject,
  jsonAnswer,
  jsonRpcBody,
  parse,
  type HttpClientOptions,
  type Id,
  type Message,
} from "./options.ts";
import { eraOfMessage, type HttpClientEra } from "./era.ts";
import { isOk, runGetStream, type GetContext } from "./get-stream.ts";
import { requesterFor } from "./pick-requester.ts";
import { RequestAbort, type HttpAnswer, type HttpRequester } from "./requester.ts";
import { readPostStream } from "./post-stream.ts";

export { HttpError };

export type { HttpClientOptions } from "./options.ts";

export class StreamableHttpClientTransport implements Transport {
  /** Every POST gets an HTTP answer: the probe need not guess from silence (versioning.mdx, streamable-http.mdx). */
  readonly answersEveryRequest = true;
  private sink: TransportSink | undefined;
  private readonly url: URL;
  private readonly request: HttpRequester;
  private readonly closeConnections: () => void;
  private readonly life = new AbortController();
  private readonly inFlight = new Map<Id, RequestAbort>();
  /** Every request's abort signal until it settles (requests and notifications alike): closing aborts them all. */
  private readonly open = new Set<RequestAbort>();
  /** The era of each request still in flight (how it is cancelled). */
  private readonly eraOfRequest = new Map<Id, HttpClientEra>();
  private readonly toolParams = new Map<string, readonly HeaderParam[]>();
  private readonly pendingToolLists = new Set<Id>();
  private readonly swallowed = new Map<Id, (message: Message) => void>();
  private initializeRequest: Message | undefined;
  private legacy: LegacySseClient | undefined;
  private getStreamOpen = false;
  private reinitCounter = 0;
  private renewing: Promise<void> | undefined;
  private readonly getContext: GetContext;
  sessionId: string | undefined;
  protocolVersion: string | undefined;

  constructor(
    url: string | URL,
    private readonly options: HttpClientOptions = {},
  ) {
    this.url = new URL(url);
    ({ request: this.request, close: this.closeConnections } = requesterFor(options));
    this.getContext = {
      url: this.url,
      request: this.request,
      signal: this.life.signal,
      reconnect: options.reconnect,
      headers: () => this.headers(undefined),
    };
  }

  async start(sink: TransportSink): Promise<void> {
    this.sink = sink;
  }

  async send(message: object, _options?: OutgoingOptions): Promise<void> {
    if (this.life.signal.aborted) throw new Error("transport closed");
    if (this.legacy) return this.legacy.send(message);
    const m = message as Message;
    const era = eraOfMessage(m);
    if (m["method"] === "notifications/cancelled") {
      const params = m["params"];
      const id = isObject(params) ? params["requestId"] : undefined;
      if (this.isId(id) && (era.cancelsByClosingStream || this.eraOfRequest.get(id)?.cancelsByClosingStream)) {
        this.inFlight.get(id)?.abort();
        return;
      }
    }
    if (m["method"] === "initialize") this.initializeRequest = m;
    if (m["method"] === "tools/list" && era.readsToolHeaders && this.isId(m["id"])) this.pendingToolLists.add(m["id"]);
    await this.post(m, true);
  }

  async close(): Promise<void> {
    await this.closeWith(undefined);
  }

  private async closeWith(error: Error | undefined): Promise<void> {
    if (this.life.signal.aborted) return;
    this.life.abort();
    for (const controller of this.open) controller.abort();
    this.open.clear();
    this.closeConnections();
    await this.legacy?.close();
    this.sink?.closed(error);
  }

  /** End the session on the server (DELETE), then close. */
  async terminateSession(): Promise<void> {
    if (this.sessionId !== undefined && !this.legacy) {
      const response = await this.request(this.url, { method: "DELETE", headers: await this.headers(undefined) }).catch(
        () => undefined,
      );
      await response?.cancel();
      this.sessionId = undefined;
    }
    await this.close();
  }

  private isId(v: unknown): v is Id {
    return typeof v === "string" || typeof v === "number";
  }

  private async headers(message: Message | undefined): Promise<Record<string, string>> {
    const token = this.options.token;
    return this.headersWith(message, typeof token === "function" ? await token() : token);
  }

  /** The headers of a request carrying `message` (none: GET, DELETE) with bearer `token`. */
  private headersWith(message: Message | undefined, token: string | undefined): Record<string, string> {
    const headers: Record<string, string> = { ...this.options.headers };
    if (token) headers["authorization"] = `Bearer ${token}`;
    const state = { sessionId: this.sessionId, protocolVersion: this.protocolVersion, toolParams: this.toolParams };
    return Object.assign(headers, eraOfMessage(message).headers(message, state));
  }

  /** POSTs one message and hands its answer (JSON, an SSE stream, or an HTTP error) to the session. */
  private async post(message: Message, mayRecover: boolean): Promise<void> {
    const id = "method" in message && this.isId(message["id"]) ? message["id"] : undefined;
    const era = eraOfMessage(message);
    const controller = this.track(id, era);
    let response: HttpAnswer;
    const sentSession = this.sessionId;
    try {
      // A static token needs no await: one microtask less per request.
      const token = this.options.token;
      const headers = typeof token === "function" ? await this.headers(message) : this.headersWith(message, token);
      headers["content-type"] = "application/json";
      headers["accept"] = "application/json, text/event-stream";
      const body = JSON.stringify(message);
      response = await this.request(this.url, { method: "POST", headers, body, signal: controller });
    } catch (error) {
      this.release(controller, id);
      if (controller.aborted) return; // cancelled by the session, or the transport closed
      throw error;
    }
    const sessionId = response.header("mcp-session-id");
    // A session id is visible ASCII (0x21-0x7E); anything else is not echoed back in a header.
    if (sessionId !== null && sessionId !== this.sessionId && era.keepsSession && /^[\x21-\x7e]+$/.test(sessionId))
      this.sessionId = sessionId;
    if (response.status === 202) {
      this.release(controller, id);
      await response.cancel();
      if (message["method"] === "notifications/initialized") this.openGetStream();
      return;
    }
    if (!isOk(response)) {
      this.release(controller, id);
      return this.refused(message, response, { id, era, sentSession, mayRecover });
    }
    if ((response.header("content-type") ?? "").includes("text/event-stream")) {
      const receiver = {
        deliver: (m: Message) => this.deliver(m),
        fail: (failed: Id, reason: string) => this.failRequest(failed, reason),
        malformed: (reason: string) => this.sink?.malformed?.(reason),
      };
      void readPostStream(this.getContext, response, id, era, controller, receiver).finally(() =>
        this.release(controller, id),
      );
      return;
    }
    this.release(controller, id);
    await this.answeredWithJson(response, id);
  }

  /** Marks a request in flight (the session cancels it by aborting its signal) until `release`. */
  private track(id: Id | undefined, era: HttpClientEra): RequestAbort {
    // One signal per request, aborted by the session (cancel) or by close(); none listens on a shared signal.
    const controller = new RequestAbort();
    this.open.add(controller);
    if (id !== undefined) {
      this.inFlight.set(id, controller);
      this.eraOfRequest.set(id, era);
    }
    return controller;
  }

  /** The request `track` returned `controller` for is settled. (A method, not a closure per request.) */
  private release(controller: RequestAbort, id: Id | undefined): void {
    this.open.delete(controller);
    if (id !== undefined && this.inFlight.get(id) === controller) {
      this.inFlight.delete(id);
      this.eraOfRequest.delete(id);
    }
  }

  /**
   * An HTTP error answering a POST: a new session after 404 on an ended one, a JSON-RPC error for the session (after
   * re-listing the tools once on -32020), the HTTP+SSE fallback for a refused first initialize, else an HttpError.
   */
  private async refused(
    message: Message,
    response: HttpAnswer,
    sent: { id: Id | undefined; era: HttpClientEra; sentSession: string | undefined; mayRecover: boolean },
  ): Promise<void> {
    const { id, era, sentSession, mayRecover } = sent;
    const text = await response.text();
    const method = message["method"];
    const renews = response.status === 404 && era.renewsSessionOn404 && method !== "initialize";
    if (renews && mayRecover && sentSession !== undefined) {
      // Several requests may hit the ended session at once: one re-initialization serves them all.
      if (this.sessionId === sentSession)
        this.renewing ??= this.newSession().finally(() => (this.renewing = undefined));
      await this.renewing;
      return this.post(message, false);
    }
    const body = jsonRpcBody(text, response.header("content-type") ?? "");
    // A JSON-RPC error answering this request (stateless era: 400/404 with -32020, -32601…): the session gets it.
    if (body && id !== undefined && body["id"] === id && "error" in body) {
      // -32020 on a call: our x-mcp-header knowledge is stale. Re-list the tools and retry once (spec SHOULD).
      if (mayRecover && era.relistsOnHeaderMismatch && method === "tools/call" && errorCode(body) === -32020) {
        await this.relistTools(message);
        return this.post(message, false);
      }
      return this.deliver(body);
    }
    const legacy = era.fallsBackToLegacySse && method === "initialize" && [400, 404, 405].includes(response.status);
    if (legacy && this.options.legacyFallback !== false && !isStatelessEraError(body)) {
      return this.fallBackToLegacy(message, new HttpError(response.status, text, response.headers()));
    }
    throw new HttpError(response.status, text, response.headers());
  }

  /** A POST answered with JSON: its messages go to the session; an unusable answer fails the request. */
  private async answeredWithJson(response: HttpAnswer, id: Id | undefined): Promise<void> {
    const text = await response.text();
    if (id === undefined && text.trim() === "") return; // a notification or response: nothing to read
    const { messages, problem } = jsonAnswer(text, response.header("content-type") ?? "", response.status, id);
    for (const message of messages) this.deliver(message);
    if (problem === undefined) return;
    if (id === undefined) throw new Error(`HTTP transport: ${problem}`);
    this.failRequest(id, problem);
  }

  /** Fetch every page of tools/list (answers kept off the session) to refresh the tools' header annotations. */
  private async relistTools(like: Message): Promise<void> {
    const params = isObject(like["params"]) ? like["params"] : {};
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const id = `mcp-gen-relist-${++this.reinitCounter}`;
      const answered = new Promise<Message>((resolve) => this.swallowed.set(id, resolve));
      const listParams = { _meta: params["_meta"], ...(cursor !== undefined ? { cursor } : {}) };
      await this.post({ jsonrpc: "2.0", id, method: "tools/list", params: listParams }, false);
      const result = (await answered)["result"];
      if (!isObject(result) || !Array.isArray(result["tools"])) return;
      this.acceptTools(result["tools"]);
      cursor = typeof result["nextCursor"] === "string" ? result["nextCursor"] : undefined;
      if (cursor === undefined) return;
    }
  }

  /** The standalone GET stream for server-initiated messages, kept open with reconnects. */
  private openGetStream(): void {
    if (this.options.openGetStream === false || this.getStreamOpen || this.sessionId === undefined) return;
    this.getStreamOpen = true;
    const onMessage = (data: string) => {
      const messages = parse(data);
      if (messages) for (const m of messages) this.deliver(m);
      else this.sink?.malformed?.(`SSE data is not a JSON-RPC message: ${excerpt(data)}`);
    };
    void runGetStream(this.getContext, onMessage).finally(() => (this.getStreamOpen = false));
  }

  /** 404 on a session: start a new one by replaying the initialize request, then continue. */
  private async newSession(): Promise<void> {
    this.sessionId = undefined;
    const init = this.initializeRequest;
    if (!init) throw new Error("session expired and no initialize request to replay");
    const id = `mcp-gen-reinit-${++this.reinitCounter}`;
    const answered = new Promise<Message>((resolve) => this.swallowed.set(id, resolve));
    await this.post({ ...init, id }, false);
    const result = await answered;
    if ("error" in result) throw new Error("re-initialization failed");
    await this.post({ jsonrpc: "2.0", method: "notifications/initialized" }, false);
  }

  /** Settles a pending request with an error of this transport's own (the server's answer was unusable). */
  private failRequest(id: Id, reason: string): void {
    this.deliver({ jsonrpc: "2.0", id, error: { code: ErrorCode.ParseError, message: `Parse error: ${reason}` } });
  }

  private deliver(message: Message): void {
    const id = message["id"];
    if (!("method" in message) && this.isId(id)) {
      const swallow = this.swallowed.get(id);
      if (swallow) {
        this.swallowed.delete(id);
        swallow(message);
        return;
      }
      const result = message["result"];
      const version = isObject(result) ? result["protocolVersion"] : undefined;
      // It becomes the MCP-Protocol-Version header of every later request: only header-safe text is taken.
      if (typeof version === "string" && isHeaderText(version) && this.initializeRequest?.["id"] === id)
        this.protocolVersion = version;
      if (this.pendingToolLists.delete(id) && isObject(result) && Array.isArray(result["tools"]))
        message = { ...message, result: { ...result, tools: this.acceptTools(result["tools"]) } };
    }
    this.sink?.receive(message);
  }

  /** Record each tool's `x-mcp-header` annotations; tools whose annotations are invalid are dropped. */
  private acceptTools(tools: unknown[]): unknown[] {
    return tools.filter((tool) => {
      if (!isObject(tool) || typeof tool["name"] !== "string") return true;
      const result = headerParamsOf(tool["inputSchema"]);
      if (!result.ok) return false;
      this.toolParams.set(tool["name"], result.params);
      return true;
    });
  }

  private async fallBackToLegacy(message: Message, original: HttpError): Promise<void> {
    const legacy = new LegacySseClient(this.url, this.request, () => this.headers(undefined), this.life.signal);
    try {
      await legacy.connect(
        (m) => this.deliver(m as Message),
        (error) => void this.closeWith(error),
        (data) => this.sink?.malformed?.(`SSE data is not a JSON-RPC message: ${excerpt(data)}`),
      );
    } catch {
      throw original;
    }
    this.legacy = legacy;
    await legacy.send(message);
  }
}
