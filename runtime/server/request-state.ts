/**
 * Integrity-protected `requestState` for multi round-trip requests (basic/patterns/mrtr.mdx): the state is
 * attacker-controlled input, so it is HMAC-SHA256 signed and bound to the method, a digest of the request's
 * salient params, the principal, and an expiry. Anything that fails verification is rejected with -32602.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { ErrorCode, RpcError } from "../jsonrpc/errors.ts";

export interface StatePayload {
  /** Answers to input requests of earlier rounds, by input key. */
  readonly answers: Readonly<Record<string, unknown>>;
}

interface Sealed extends StatePayload {
  readonly v: 1;
  readonly method: string;
  readonly digest: string;
  readonly principal: string;
  readonly expires: number;
}

export interface RequestBinding {
  readonly method: string;
  readonly params: unknown;
  /** Who made the request (e.g. an OAuth client id or token digest); empty when unauthenticated. */
  readonly principal: string;
}

export class RequestStateSealer {
  private readonly key: Buffer;

  constructor(
    key: string | Uint8Array | undefined,
    private readonly ttlMs: number,
  ) {
    this.key = key === undefined ? randomBytes(32) : Buffer.from(key);
  }

  seal(binding: RequestBinding, payload: StatePayload): string {
    const sealed: Sealed = {
      v: 1,
      method: binding.method,
      digest: digestParams(binding.params),
      principal: binding.principal,
      expires: Date.now() + this.ttlMs,
      answers: payload.answers,
    };
    const body = Buffer.from(JSON.stringify(sealed)).toString("base64url");
    return `${body}.${this.mac(body)}`;
  }

  /** Verifies and decodes a state the client echoed; throws -32602 when it was tampered with or does not fit. */
  open(binding: RequestBinding, state: string): StatePayload {
    const dot = state.indexOf(".");
    const body = dot > 0 ? state.slice(0, dot) : "";
    const mac = Buffer.from(dot > 0 ? state.slice(dot + 1) : "", "base64url");
    const expected = Buffer.from(this.mac(body), "base64url");
    if (!body || mac.length !== expected.length || !timingSafeEqual(mac, expected)) {
      throw invalidState("integrity check failed");
    }
    let sealed: Sealed;
    try {
      sealed = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Sealed;
    } catch {
      throw invalidState("unreadable");
    }
    if (sealed.v !== 1) throw invalidState("unknown format");
    if (sealed.expires < Date.now()) throw invalidState("expired");
    if (sealed.method !== binding.method || sealed.digest !== digestParams(binding.params)) {
      throw invalidState("issued for a different request");
    }
    if (sealed.principal !== binding.principal) throw invalidState("issued to a different principal");
    return { answers: sealed.answers ?? {} };
  }

  private mac(body: string): string {
    return createHmac("sha256", this.key).update(body).digest("base64url");
  }
}

function invalidState(why: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, `Invalid params: requestState rejected (${why})`);
}

const UNSALIENT = new Set(["_meta", "inputResponses", "requestState"]);

/** SHA-256 of the params that identify the request (everything but `_meta` and the MRTR fields), key-order independent. */
export function digestParams(params: unknown): string {
  const salient: Record<string, unknown> = {};
  if (typeof params === "object" && params !== null) {
    for (const [k, v] of Object.entries(params)) if (!UNSALIENT.has(k)) salient[k] = v;
  }
  return createHash("sha256").update(stableStringify(salient)).digest("base64url");
}

/** JSON with object keys sorted, so equal values give equal strings. */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableStringify((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** A principal string for `AuthInfo`-like identities: the client id, else a digest of the token. */
export function principalOf(auth: { readonly clientId?: string; readonly token: string } | undefined): string {
  if (!auth) return "";
  return auth.clientId ?? createHash("sha256").update(auth.token).digest("base64url");
}
