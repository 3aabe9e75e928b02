/** Small pieces the HTTP handler shares: JSON-RPC error answers, session ids, message classification, client keys. */
import { classify, type Classified } from "../../jsonrpc/messages.ts";
import { MetaKey } from "../../protocol/meta.ts";
import { base64urlFromBytes } from "../../transport/base64.ts";
import { principalOf } from "../../transport/principal.ts";
import type { AuthInfo, ClassifiedMessage } from "../../transport/transport.ts";
import type { RequestId } from "./exchange.ts";
import { isJsonContentType } from "./guards.ts";
import { BodyTooLargeError, jsonResponse, type HttpRequestIn, type HttpResponseOut } from "./types.ts";

export type Message = Record<string, unknown>;
export const isObject = (v: unknown): v is Message => typeof v === "object" && v !== null && !Array.isArray(v);

/** A JSON-RPC error as an HTTP answer. It always carries `id`: the request's when known, else null (JSON-RPC 2.0 §5). */
export function rpcError(
  status: number,
  code: number,
  message: string,
  id: RequestId | null = null,
  data?: unknown,
): HttpResponseOut {
  const error = data === undefined ? { code, message } : { code, message, data };
  return jsonResponse(status, { jsonrpc: "2.0", id, error });
}

/** A session id: 24 bytes (192 bits) from the web CSPRNG as base64url, i.e. 32 visible ASCII characters. */
export function mintSessionId(): string {
  return base64urlFromBytes(crypto.getRandomValues(new Uint8Array(24)));
}

/**
 * One POSTed JSON-RPC message, interpreted once (the same classification stdio uses, jsonrpc/messages.ts): every
 * later step of the HTTP path (era choice, header rules, scopes, serving) reads these fields, never the raw value.
 */
export interface Posted {
  /** The classification itself, handed to the engine as is (`TransportSink.receiveClassified`). */
  readonly classified: ClassifiedMessage;
  readonly message: Message;
  readonly kind: "request" | "notification" | "response";
  /** The method of a request or notification. */
  readonly method: string | undefined;
  /** The id of a request (undefined for notifications and responses). */
  readonly id: RequestId | undefined;
  /** The params object, when there is one. */
  readonly params: Message | undefined;
  /** The revision the message names in `params._meta` (stateless era), if any. */
  readonly metaVersion: string | undefined;
}

/** A POSTed request: its id is known. */
export type PostedRequest = Posted & { readonly kind: "request"; readonly id: RequestId };

export function isPostedRequest(posted: Posted): posted is PostedRequest {
  return posted.kind === "request";
}

export type Sorted = { readonly ok: true; readonly posted: Posted } | { readonly ok: false; readonly error: object };

export function sortMessage(value: unknown): Sorted {
  const c: Classified = classify(value);
  if (c.kind === "invalid") return { ok: false, error: invalidRequest(c.id, c.reason) };
  const message = c.message as unknown as Message;
  const params = isObject(message["params"]) ? message["params"] : undefined;
  const meta = params?.["_meta"];
  const version = isObject(meta) ? meta[MetaKey.protocolVersion] : undefined;
  return {
    ok: true,
    posted: {
      classified: c,
      message,
      kind: c.kind,
      method: c.kind === "response" ? undefined : c.message.method,
      id: c.kind === "request" ? c.message.id : undefined,
      params,
      metaVersion: typeof version === "string" ? version : undefined,
    },
  };
}

/** The -32600 answer to an invalid message, as stdio's engine words it. */
export function invalidRequest(
  id: RequestId | null,
  reason: string,
): { jsonrpc: "2.0"; id: RequestId | null; error: { code: number; message: string } } {
  return { jsonrpc: "2.0", id, error: { code: -32600, message: `Invalid Request: ${reason}` } };
}

/** Whom a new session counts against: the authenticated principal, else the remote address (undefined: unknown). */
export function clientKeyOf(authInfo: AuthInfo | undefined, remoteAddress: string | undefined): string | undefined {
  return principalOf(authInfo) ?? (remoteAddress !== undefined ? `addr:${remoteAddress}` : undefined);
}

/** A POST body as JSON (`body`), or the answer refusing it (`error`). */
export type ReadMessage = { readonly body: unknown } | { readonly error: HttpResponseOut };

/**
 * A POST body as JSON: 415 for another media type, 413 beyond `maxBodyBytes` (default 4 MiB), 400/-32700 when
 * unparseable. Not async: one `then` on the body (this is per request).
 */
export function readMessage(request: HttpRequestIn, maxBodyBytes: number | undefined): Promise<ReadMessage> {
  if (!isJsonContentType(request.header("content-type")))
    return Promise.resolve({
      error: rpcError(415, -32000, "Unsupported Media Type: Content-Type must be application/json"),
    });
  return request.readBody(maxBodyBytes ?? 4 * 1024 * 1024).then(parseMessage, refusedBody);
}

function parseMessage(text: string): ReadMessage {
  try {
    return { body: JSON.parse(text) };
  } catch {
    // RFC 8259 §8.1: JSON sent over a network carries no byte-order mark; every transport here refuses one.
    const why = text.startsWith("\uFEFF") ? "the body starts with a byte-order mark" : "the body is not valid JSON";
    return { error: rpcError(400, -32700, `Parse error: ${why}`, null) };
  }
}

function refusedBody(error: unknown): ReadMessage {
  if (error instanceof BodyTooLargeError)
    return { error: rpcError(413, -32000, `Payload Too Large: ${error.message}`) };
  throw error;
}
