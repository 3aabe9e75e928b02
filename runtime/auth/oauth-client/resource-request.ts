/**
 * Requests to the protected resource: the token goes only where it belongs, and redirects are followed here rather
 * than by fetch (which keeps `Authorization` on a same-origin redirect), so each hop is checked on its own.
 */
import { isUnder } from "./discovery.ts";
import { dpopResourceRequest, type Dpop } from "./dpop.ts";
import type { StoredTokens } from "./types.ts";

/** Redirects followed for one request (fetch's own limit); past it the redirect response is returned. */
const MAX_REDIRECTS = 20;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers describing a request body, dropped with the body when a redirect turns a request into a GET (Fetch). */
const BODY_HEADERS = ["content-type", "content-encoding", "content-language", "content-location", "content-length"];

/** Whether a body can be sent again (after a challenge or a 307): anything but a stream. */
export function replayable(body: RequestInit["body"]): boolean {
  return body === undefined || body === null || !(body instanceof ReadableStream);
}

/** A `Request` as plain init. Its body stays a stream (sent once: not replayed after a challenge or a 307). */
export function initOf(request: Request): RequestInit {
  const init: RequestInit & { duplex?: "half" } = {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
    ...(request.body !== null && { body: request.body, duplex: "half" }),
  };
  return init;
}

/**
 * One request to `url` with the tokens where they belong (`init` describes the request). The caller's own
 * `Authorization` (a personal access token in a host config's headers) is sent until this client holds a token of
 * its own for the resource, and only to the origin the caller addressed (`callerOrigin`), as fetch does on redirects.
 */
async function sendOnce(
  base: typeof fetch,
  url: URL,
  init: RequestInit,
  tokens: StoredTokens | undefined,
  dpop: Dpop | undefined,
  callerOrigin: string,
): Promise<Response> {
  const headers = new Headers(init.headers);
  if (tokens || url.origin !== callerOrigin) headers.delete("authorization");
  // A token goes only to URLs under the resource it was issued for; anything else goes without one.
  const usable = tokens && isUnder(url, new URL(tokens.resource)) ? tokens : undefined;
  const isDpop = usable?.token_type.toLowerCase() === "dpop";
  if (usable && isDpop && dpop) return dpopResourceRequest(base, dpop, usable.access_token, url, init, headers);
  // A DPoP-bound token without its key (stored by another process) is useless: none is sent.
  if (usable && !isDpop) headers.set("authorization", `Bearer ${usable.access_token}`);
  return base(url, { ...init, headers, redirect: "manual" });
}

/** The request a redirect leads to: a 303 (and a 301/302 of a POST) turns it into a GET without its body. */
function redirected(status: number, init: RequestInit): RequestInit {
  const method = (init.method ?? "GET").toUpperCase();
  const keepsBody = status === 307 || status === 308;
  if (!((status === 303 && method !== "HEAD") || (!keepsBody && method === "POST"))) return init;
  const headers = new Headers(init.headers);
  for (const name of BODY_HEADERS) headers.delete(name);
  const { body: _body, ...rest } = init;
  return { ...rest, method: "GET", headers };
}

/** Sends the request and follows its redirects, each hop getting the token only if it is under the token's resource. */
export async function sendToResource(
  base: typeof fetch,
  url: URL,
  init: RequestInit,
  tokens: StoredTokens | undefined,
  dpop: Dpop | undefined,
): Promise<Response> {
  let [current, hop] = [url, init];
  for (let hops = 0; ; hops++) {
    const response = await sendOnce(base, current, hop, tokens, dpop, url.origin);
    const location = response.headers.get("location");
    if (!REDIRECTS.has(response.status) || location === null || hops >= MAX_REDIRECTS) return response;
    const keepsBody = response.status === 307 || response.status === 308;
    if (keepsBody && !replayable(hop.body)) return response;
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      return response;
    }
    await response.body?.cancel().catch(() => undefined);
    hop = redirected(response.status, hop);
    current = next;
  }
}
