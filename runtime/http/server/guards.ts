/**
 * Guard rails every MCP HTTP endpoint applies before it looks at a message: DNS-rebinding protection
 * (Host and Origin allow-lists → 403), media types (415/406) and body size (413).
 */
import type { HttpRequestIn } from "./types.ts";

/** Host names a loopback server answers to. A DNS-rebinding page comes in with its own host name instead. */
export const LOOPBACK_HOSTS: readonly string[] = ["localhost", "127.0.0.1", "[::1]"];

export interface HostGuardOptions {
  /**
   * Host names (without port) accepted in the `Host` header. Default: loopback names only, which is right
   * for a local server; a deployed server lists its public names, or passes "any" behind a trusted proxy.
   */
  readonly allowedHosts?: readonly string[] | "any";
  /** Origins (`scheme://host[:port]`) accepted in an `Origin` header besides the server's own. */
  readonly allowedOrigins?: readonly string[];
}

/** RFC 9110 §7.2 `Host = uri-host [ ":" port ]`: an IP-literal or a reg-name (RFC 3986 characters, so no `@` or `/`). */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9._~%!$&'()*+,;=-]+)(:[0-9]*)?$/;

/** The host name of a Host header, or undefined when it is not a valid authority (e.g. `localhost:1@evil.com`). */
function hostName(hostHeader: string): string | undefined {
  const match = HOST_HEADER.exec(hostHeader.trim().toLowerCase());
  return match ? match[1] : undefined;
}

/** Returns a reason when the request must be refused with 403, else undefined. */
export function checkHostAndOrigin(request: HttpRequestIn, options: HostGuardOptions): string | undefined {
  const host = request.header("host");
  const allowedHosts = options.allowedHosts ?? LOOPBACK_HOSTS;
  if (allowedHosts !== "any") {
    const name = host === undefined ? undefined : hostName(host);
    if (name === undefined || !allowedHosts.includes(name)) return `Host not allowed: ${host ?? "(none)"}`;
  }
  const origin = request.header("origin");
  if (origin === undefined) return undefined;
  if (options.allowedOrigins?.includes(origin)) return undefined;
  // Same-origin requests are fine: the Origin's authority must be the Host we were reached at.
  let authority: string;
  try {
    authority = new URL(origin).host;
  } catch {
    return `Origin not allowed: ${origin}`;
  }
  if (host !== undefined && authority === host.trim().toLowerCase()) return undefined;
  return `Origin not allowed: ${origin}`;
}

/** The media type of one Accept/Content-Type list entry (`start`..`end`): parameters cut, trimmed, lower-case. */
function mediaTypeAt(header: string, start: number, end: number): string {
  const semicolon = header.indexOf(";", start);
  return header
    .slice(start, semicolon === -1 || semicolon > end ? end : semicolon)
    .trim()
    .toLowerCase();
}

/** Does an Accept header admit `type` (e.g. "text/event-stream")? Wildcards count. Scanned in place (per request). */
export function accepts(acceptHeader: string | undefined, type: string): boolean {
  if (!acceptHeader) return false;
  const wildcard = `${type.slice(0, type.indexOf("/"))}/*`;
  let start = 0;
  while (start <= acceptHeader.length) {
    const comma = acceptHeader.indexOf(",", start);
    const end = comma === -1 ? acceptHeader.length : comma;
    const t = mediaTypeAt(acceptHeader, start, end);
    if (t === type || t === "*/*" || t === wildcard) return true;
    start = end + 1;
  }
  return false;
}

/** The last Accept header checked by `acceptsJsonAndSse` and the answer: clients send the same one on every POST. */
let lastPostAccept: { readonly header: string; readonly ok: boolean } | undefined;

/** Does an Accept header admit both `application/json` and `text/event-stream` (what a Streamable HTTP POST needs)? */
export function acceptsJsonAndSse(acceptHeader: string | undefined): boolean {
  if (acceptHeader === undefined) return false;
  if (lastPostAccept?.header === acceptHeader) return lastPostAccept.ok;
  const ok = accepts(acceptHeader, "application/json") && accepts(acceptHeader, "text/event-stream");
  lastPostAccept = { header: acceptHeader, ok };
  return ok;
}

export function isJsonContentType(header: string | undefined): boolean {
  if (!header) return false;
  const comma = header.indexOf(",");
  return mediaTypeAt(header, 0, comma === -1 ? header.length : comma) === "application/json";
}
