/**
 * The contract between the JSON-RPC layer and a transport (stdio, in-memory, Streamable HTTP, legacy HTTP+SSE).
 * Transports move frames; they never interpret JSON-RPC beyond what routing needs. Parsing (and the -32700
 * answer to unparseable input) happens once, in the jsonrpc layer — or, where a transport must read the messages
 * to route them (HTTP), once there, handing the engine the result (`receiveClassified`).
 */
import type { Classified } from "../jsonrpc/messages.ts";

/** A message the jsonrpc layer's `classify` found valid: a request, a notification or a response. */
export type ClassifiedMessage = Exclude<Classified, { readonly kind: "invalid" }>;

/** A verified bearer-token identity, filled in by HTTP transports and visible to every handler. */
export interface AuthInfo {
  readonly token: string;
  readonly clientId?: string;
  /**
   * The authorization server that issued the token (its `iss`): the caller's subject or client id is unique only
   * within it (`principalOf`). Absent: the `iss` claim, else none.
   */
  readonly issuer?: string;
  readonly scopes: readonly string[];
  /** Seconds since the epoch. */
  readonly expiresAt?: number;
  readonly claims?: Readonly<Record<string, unknown>>;
}

/** What a transport knows about an incoming frame beyond its bytes. */
export interface IncomingContext {
  readonly authInfo?: AuthInfo;
  /** Allow-listed request headers (lower-case names), for HTTP transports. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Aborted when the carrier of this message goes away (e.g. an HTTP response stream is closed). */
  readonly signal?: AbortSignal;
  /**
   * Streamable HTTP with resumable streams: ends the connection carrying this request's answer early; the client
   * reconnects with Last-Event-ID (SSE polling). Returns false where the transport cannot.
   */
  readonly closeStream?: () => boolean;
  /**
   * `false`: nothing can carry a request to the client and its answer back while this message is served (e.g. a
   * handshake-era POST without a session), so the server must not send one. Absent: requests to the client work.
   */
  readonly serverRequests?: false;
}

/** Routing hints for outgoing frames. */
export interface OutgoingOptions {
  /** The request this message answers or relates to (so HTTP can put it on that request's stream). */
  readonly relatedRequestId?: string | number;
}

/** Where a transport delivers what it receives. Provided by the session when it starts the transport. */
export interface TransportSink {
  /** A frame: raw text (stdio, HTTP bodies) or an already-parsed value (in-memory). */
  receive(frame: string | object, context?: IncomingContext): void;
  /**
   * Optional: one message the transport already classified (HTTP reads each POSTed message to route it), taken
   * without classifying it again. Transports hand such messages over with `deliverClassified`.
   */
  receiveClassified?(message: ClassifiedMessage, context?: IncomingContext): void;
  /** The transport is gone; `error` says why when it did not close cleanly. */
  closed(error?: Error): void;
  /** Optional: the transport dropped unreadable input (e.g. a line over its size cap); answered with -32700. */
  malformed?(reason: string): void;
}

export interface Transport {
  /**
   * Optional: the carrier itself answers every request (HTTP: a status and a body), so silence is never how a server
   * says "I don't know this method" — the `server/discover` probe then waits as long as any request instead of
   * treating a slow answer as a legacy server.
   */
  readonly answersEveryRequest?: boolean;
  start(sink: TransportSink): Promise<void>;
  send(message: object, options?: OutgoingOptions): Promise<void>;
  close(): Promise<void>;
}

/** Optional: a client transport that can start over on a fresh connection (stdio: spawn the server again). */
export interface ReopenableTransport extends Transport {
  reopen(): Transport;
}

/** Hands a classified message to `sink`: as is where the sink takes classified messages, else as a parsed frame. */
export function deliverClassified(sink: TransportSink, message: ClassifiedMessage, context?: IncomingContext): void {
  if (sink.receiveClassified) sink.receiveClassified(message, context);
  else sink.receive(message.message, context);
}
