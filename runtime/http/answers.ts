/** Small pieces the HTTP handler shares: JSON-RPC error answers, session ids, message classification, client keys. */
import { randomBytes } from "node:crypto";
import { classify, type Classified } from "../jsonrpc/messages.ts";
import type { AuthInfo } from "../transport/transport.ts";
import type { RequestId } from "./exchange.ts";
import { isJsonContentType } from "./guards.ts";
import { BodyTooLargeError, jsonResponse, type HttpRequestIn, type HttpResponseOut } from "./types.ts";

export type Message = Record<string, unknown>;
export const isObject = (v: unknown): v is Message => typeof v === "object" && v !== null && !Array.isArray(v);
export const isId = (v: unknown): v is RequestId => typeof v === "string" || (typeof v === "number" && Number.isInteger(v));

/** A JSON-RPC error as an HTTP answer. It always carries `id`: the request's when known, else null (JSON-RPC 2.0 §5). */
export function rpcError(status: number, code: number, message: string, id: RequestId | null = null, data?: unknown): HttpResponseOut {
  const error = data === undefined ? { code, message } : { code, message, data };
  return jsonResponse(status, { jsonrpc: "2.0", id, error });
}

/** A session id: 24 bytes (192 bits) from the CSPRNG as base64url, i.e. 32 visible ASCII characters. */
export function mintSessionId(): string {
  return randomBytes(24).toString("base64url");
}

/** One incoming element: the same classification stdio uses (jsonrpc/messages.ts), so both transports agree. */
export type Sorted = { readonly ok: true; readonly message: Message } | { readonly ok: false; readonly error: object };

export function sortMessage(value: unknown): Sorted {
  const c: Classified = classify(value);
  if (c.kind !== "invalid") return { ok: true, message: c.message as unknown as Message };
  return { ok: false, error: invalidRequest(c.id, c.reason) };
}

/** The -32600 answer to an invalid message, as stdio's engine words it. */
export function invalidRequest(id: RequestId | null, reason: string): { jsonrpc: "2.0"; id: RequestId | null; error: { code: number; message: string } } {
  return { jsonrpc: "2.0", id, error: { code: -32600, message: `Invalid Request: ${reason}` } };
}

/** The identity a session is bound to: the token's subject, else its client id. */
export function principalOf(authInfo: AuthInfo | undefined): string | undefined {
  if (!authInfo) return undefined;
  const sub = authInfo.claims?.["sub"];
  return typeof sub === "string" ? `sub:${sub}` : authInfo.clientId !== undefined ? `client:${authInfo.clientId}` : undefined;
}

/** Whom a new session counts against: the authenticated principal, else the remote address (undefined: unknown). */
export function clientKeyOf(authInfo: AuthInfo | undefined, remoteAddress: string | undefined): string | undefined {
  return principalOf(authInfo) ?? (remoteAddress !== undefined ? `addr:${remoteAddress}` : undefined);
}

/** The revision a stateless-era message names in `params._meta`, if any. */
export function metaVersionOf(message: Message): string | undefined {
  const params = message["params"];
  const meta = isObject(params) ? params["_meta"] : undefined;
  const version = isObject(meta) ? meta["io.modelcontextprotocol/protocolVersion"] : undefined;
  return typeof version === "string" ? version : undefined;
}

/** A POST body as JSON: 415 for another media type, 413 beyond `maxBodyBytes` (default 4 MiB), 400/-32700 when unparseable. */
export async function readMessage(request: HttpRequestIn, maxBodyBytes: number | undefined): Promise<{ body: unknown } | { error: HttpResponseOut }> {
  if (!isJsonContentType(request.header("content-type")))
    return { error: rpcError(415, -32000, "Unsupported Media Type: Content-Type must be application/json") };
  let text: string;
  try {
    text = await request.readBody(maxBodyBytes ?? 4 * 1024 * 1024);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return { error: rpcError(413, -32000, `Payload Too Large: ${error.message}`) };
    throw error;
  }
  try {
    return { body: JSON.parse(text) };
  } catch {
    return { error: rpcError(400, -32700, "Parse error: the body is not valid JSON", null) };
  }
}
