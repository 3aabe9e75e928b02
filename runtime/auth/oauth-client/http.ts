/**
 * The one door every OAuth request goes through: https only (plain http only to loopback hosts), loopback hosts only
 * for an MCP server that is itself on loopback, redirects never followed, a timeout, and response bodies read up to
 * a bound, so a hostile or broken server gets a clear error instead of a hang, a memory blow-up or a request sent
 * somewhere unexpected (a remote server's metadata naming `http://127.0.0.1:<port>/…` on the user's machine).
 */
import { OAuthClientError } from "./types.ts";

export interface HttpLimits {
  /** Largest response body read from a metadata, registration or token endpoint (default 256 KiB). */
  readonly maxResponseBytes?: number;
  /** Per-request timeout in ms (default 30 s). */
  readonly timeoutMs?: number;
}

/** The guarded fetch of one MCP server's OAuth traffic; `allowsLoopback` when that server is on loopback itself. */
export interface OAuthHttp {
  (url: string | URL, init?: RequestInit): Promise<Response>;
  readonly allowsLoopback: boolean;
}

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** A host name without the trailing dot of a fully qualified name (`localhost.` is `localhost`). */
const hostOf = (url: URL): string => url.hostname.replace(/\.$/, "");

export function isLoopback(url: URL): boolean {
  const host = hostOf(url);
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host) || host.endsWith(".localhost");
}

/**
 * A host that reaches this machine: loopback, the unspecified addresses (a connection to `0.0.0.0` or `[::]` lands
 * on the local host) and IPv4-mapped IPv6 forms of them (the URL parser writes `[::ffff:127.0.0.1]` as
 * `[::ffff:7f00:1]`).
 */
export function isLocalHost(url: URL): boolean {
  const host = hostOf(url);
  return (
    isLoopback(url) ||
    host === "0.0.0.0" ||
    host === "[::]" ||
    /^\[::ffff:(7f[0-9a-f]{2}:[0-9a-f]{1,4}|0:0)\]$/.test(host)
  );
}

/**
 * A URL safe to talk OAuth to: https, or http to a loopback host; a local host only when `allowsLoopback` (the MCP
 * server is on loopback: a remote one must not steer the client at services of the user's machine); no credentials.
 */
export function checkUrl(raw: string | URL, what: string, allowsLoopback = true): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OAuthClientError(`${what}: not a valid URL: ${printable(String(raw))}`, "invalid_metadata");
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopback(url)))
    throw new OAuthClientError(
      `${what}: refusing ${printable(url.href)} (OAuth needs https; plain http only for loopback hosts)`,
      "insecure_url",
    );
  if (!allowsLoopback && isLocalHost(url))
    throw new OAuthClientError(
      `${what}: refusing ${printable(url.href)} (a loopback address, allowed only for an MCP server on loopback)`,
      "insecure_url",
    );
  if (url.username !== "" || url.password !== "")
    throw new OAuthClientError(`${what}: URL must not carry credentials`, "invalid_metadata");
  return url;
}

/** RFC 6749 appendix A.12: an access token is visible ASCII; it is sent as one `Authorization` credential, so no space. */
const ACCESS_TOKEN = /^[\x21-\x7e]+$/;
/** An RFC 9110 token: the scheme of `Authorization: <token_type> <access_token>`. */
const TOKEN_TYPE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** RFC 6749 appendix A.17: a refresh token is visible ASCII or space. */
const REFRESH_TOKEN = /^[\x20-\x7e]+$/;

/**
 * Tokens an authorization server issued, checked before they are stored or used: one that a `Headers` object would
 * refuse (CR/LF, characters past Latin-1) would otherwise be stored and make every later request throw.
 */
export function checkIssuedTokens<T extends { access_token: string; token_type: string; refresh_token?: string }>(
  tokens: T,
  what: string,
): T {
  const bad = !ACCESS_TOKEN.test(tokens.access_token)
    ? "access_token"
    : !TOKEN_TYPE.test(tokens.token_type)
      ? "token_type"
      : tokens.refresh_token !== undefined && !REFRESH_TOKEN.test(tokens.refresh_token)
        ? "refresh_token"
        : undefined;
  if (bad)
    throw new OAuthClientError(
      `${what}: the authorization server issued a ${bad} that is not visible ASCII (RFC 6749); it was not stored`,
      "token_request_failed",
    );
  return tokens;
}

/** Text from the network made safe for an error message: control characters dropped, length capped. */
export function printable(text: string, max = 120): string {
  const clean = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
}

/** Read a body up to `max` bytes; more is an error (the rest is cancelled, never buffered). */
export async function readBounded(response: Response, max: number, what: string): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > max) {
    await response.body?.cancel().catch(() => undefined);
    throw new OAuthClientError(`${what}: response too large (${declared} bytes, limit ${max})`, "response_too_large");
  }
  if (!response.body) return new Uint8Array(new ArrayBuffer(0));
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => undefined);
      throw new OAuthClientError(`${what}: response too large (over ${max} bytes)`, "response_too_large");
    }
    chunks.push(value);
  }
  const out = new Uint8Array(new ArrayBuffer(total));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/**
 * A fetch for OAuth traffic (also given to oauth4webapi as its `customFetch`): checks the URL (local hosts only when
 * `allowsLoopback`), never follows redirects, and returns a response whose body is already read within the bound.
 */
export function guardedFetch(base: typeof fetch, limits: HttpLimits = {}, allowsLoopback = true): OAuthHttp {
  const max = limits.maxResponseBytes ?? 256 * 1024;
  const timeoutMs = limits.timeoutMs ?? 30_000;
  const guarded = async (raw: string | URL, init: RequestInit = {}): Promise<Response> => {
    const url = checkUrl(raw, "OAuth request", allowsLoopback);
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    let response: Response;
    try {
      response = await base(url.href, { ...init, redirect: "manual", signal });
    } catch (error) {
      const reason = timeout.aborted
        ? `timed out after ${timeoutMs} ms`
        : error instanceof Error
          ? error.message
          : String(error);
      throw new OAuthClientError(
        `${init.method ?? "GET"} ${printable(url.href)} failed: ${reason}`,
        "authorization_failed",
        { cause: error },
      );
    }
    const body = await readBounded(response, max, `${printable(url.href)}`);
    // Rebuild the response around the buffered body (status 1xx/204/304 carry none).
    const nullBody = response.status === 204 || response.status === 304 || response.status < 200;
    return new Response(nullBody ? null : body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
  return Object.assign(guarded, { allowsLoopback });
}

/** JSON from a buffered response, or a clear error naming what came instead (HTML, garbage). */
export async function jsonBody(response: Response, what: string): Promise<Record<string, unknown>> {
  const text = await response.text();
  const type = response.headers.get("content-type") ?? "";
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const kind =
      /html/i.test(type) || /^\s*</.test(text) ? "HTML" : `non-JSON (${printable(type || "no content-type", 40)})`;
    throw new OAuthClientError(
      `${what}: expected JSON, got ${kind}: ${JSON.stringify(printable(text, 60))}`,
      "invalid_metadata",
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new OAuthClientError(`${what}: expected a JSON object`, "invalid_metadata");
  return value as Record<string, unknown>;
}
