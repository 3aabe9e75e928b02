/**
 * Integrity-protected `requestState` for multi round-trip requests (basic/patterns/mrtr.mdx): the state is
 * attacker-controlled input, so it is HMAC-SHA256 signed and bound to the method, a digest of the request's
 * salient params, the principal, and an expiry. Anything that fails verification is rejected with -32602.
 *
 * Web crypto only (`crypto.subtle`, `crypto.getRandomValues`), so the server path imports no `node:` module. The
 * default key is drawn on first use, not at construction: a server that never seals a state draws no randomness.
 */
import { ErrorCode, RpcError } from "../jsonrpc/errors.ts";
import { base64urlFromBytes, bytesFromBase64url } from "../transport/base64.ts";
import { principalOf as callerOf } from "../transport/principal.ts";

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
  /** Who made the request (see `transport/principal.ts`); empty when unauthenticated. */
  readonly principal: string;
}

const utf8 = new TextEncoder();

export class RequestStateSealer {
  private key: Promise<CryptoKey> | undefined;

  constructor(
    private readonly secret: string | Uint8Array | undefined,
    private readonly ttlMs: number,
  ) {}

  async seal(binding: RequestBinding, payload: StatePayload): Promise<string> {
    const sealed: Sealed = {
      v: 1,
      method: binding.method,
      digest: await digestParams(binding.params),
      principal: binding.principal,
      expires: Date.now() + this.ttlMs,
      answers: payload.answers,
    };
    const body = base64urlFromBytes(utf8.encode(JSON.stringify(sealed)));
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await this.hmacKey(), utf8.encode(body)));
    return `${body}.${base64urlFromBytes(mac)}`;
  }

  /** Verifies and decodes a state the client echoed; rejects with -32602 when it was tampered with or does not fit. */
  async open(binding: RequestBinding, state: string): Promise<StatePayload> {
    const dot = state.indexOf(".");
    const body = dot > 0 ? state.slice(0, dot) : "";
    const mac = dot > 0 ? bytesFromBase64url(state.slice(dot + 1)) : undefined;
    // `verify` compares in constant time.
    if (!body || !mac || !(await crypto.subtle.verify("HMAC", await this.hmacKey(), mac, utf8.encode(body)))) {
      throw invalidState("integrity check failed");
    }
    let sealed: Sealed;
    try {
      sealed = JSON.parse(new TextDecoder().decode(bytesFromBase64url(body))) as Sealed;
    } catch {
      throw invalidState("unreadable");
    }
    if (sealed.v !== 1) throw invalidState("unknown format");
    if (sealed.expires < Date.now()) throw invalidState("expired");
    if (sealed.method !== binding.method || sealed.digest !== (await digestParams(binding.params))) {
      throw invalidState("issued for a different request");
    }
    if (sealed.principal !== binding.principal) throw invalidState("issued to a different principal");
    return { answers: sealed.answers ?? {} };
  }

  private hmacKey(): Promise<CryptoKey> {
    if (!this.key) {
      const secret = this.secret === undefined ? crypto.getRandomValues(new Uint8Array(32)) : this.secret;
      const bytes = typeof secret === "string" ? utf8.encode(secret) : new Uint8Array(secret);
      this.key = crypto.subtle.importKey("raw", bytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    }
    return this.key;
  }
}

function invalidState(why: string): RpcError {
  return new RpcError(ErrorCode.InvalidParams, `Invalid params: requestState rejected (${why})`);
}

const UNSALIENT = new Set(["_meta", "inputResponses", "requestState"]);

/** SHA-256 of the params that identify the request (everything but `_meta` and the MRTR fields), key-order independent. */
export async function digestParams(params: unknown): Promise<string> {
  // No prototype: a param named "__proto__" is a key like any other, not the object's prototype.
  const salient = Object.create(null) as Record<string, unknown>;
  if (typeof params === "object" && params !== null) {
    for (const [k, v] of Object.entries(params)) if (!UNSALIENT.has(k)) salient[k] = v;
  }
  return base64urlFromBytes(
    new Uint8Array(await crypto.subtle.digest("SHA-256", utf8.encode(stableStringify(salient)))),
  );
}

/**
 * JSON with object keys sorted, so equal values give equal strings. Iterative (an explicit stack of what is left to
 * write): params nested 200,000 deep, which JSON.parse accepts, must not overflow the call stack.
 */
export function stableStringify(value: unknown): string {
  const out: string[] = [];
  const todo: Array<{ readonly text: string } | { readonly value: unknown }> = [{ value }];
  for (let item = todo.pop(); item !== undefined; item = todo.pop()) {
    if ("text" in item) {
      out.push(item.text);
      continue;
    }
    const v = item.value;
    if (typeof v !== "object" || v === null) {
      out.push(JSON.stringify(v) ?? "null");
      continue;
    }
    const isArray = Array.isArray(v);
    const keys = isArray ? [] : Object.keys(v).sort();
    const members: unknown[] = isArray ? v : keys.map((k) => (v as Record<string, unknown>)[k]);
    // Pushed in reverse: the closing bracket first, the first member last (popped next).
    todo.push({ text: isArray ? "]" : "}" });
    for (let i = members.length - 1; i >= 0; i--) {
      todo.push({ value: members[i] });
      todo.push({ text: (i > 0 ? "," : "") + (isArray ? "" : `${JSON.stringify(keys[i])}:`) });
    }
    out.push(isArray ? "[" : "{");
  }
  return out.join("");
}

/** The caller a state is bound to: the one rule of transport/principal.ts, "" when unauthenticated. */
export function principalOf(auth: Parameters<typeof callerOf>[0]): string {
  return callerOf(auth) ?? "";
}
