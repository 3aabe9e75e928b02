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

function hostName(hostHeader: string): string {
  const value = hostHeader.trim().toLowerCase();
  if (value.startsWith("[")) return value.slice(0, value.indexOf("]") + 1);
  const colon = value.indexOf(":");
  return colon === -1 ? value : value.slice(0, colon);
}

/** Returns a reason when the request must be refused with 403, else undefined. */
export function checkHostAndOrigin(request: HttpRequestIn, options: HostGuardOptions): string | undefined {
  const host = request.header("host");
  const allowedHosts = options.allowedHosts ?? LOOPBACK_HOSTS;
  if (allowedHosts !== "any") {
    if (host === undefined || !allowedHosts.includes(hostName(host))) return `Host not allowed: ${host ?? "(none)"}`;
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

function mediaTypes(header: string | undefined): string[] {
  if (!header) return [];
  return header.split(",").map((part) => (part.split(";")[0] ?? "").trim().toLowerCase());
}

/** Does an Accept header admit `type` (e.g. "text/event-stream")? Wildcards count. */
export function accepts(acceptHeader: string | undefined, type: string): boolean {
  const wanted = type.slice(0, type.indexOf("/"));
  return mediaTypes(acceptHeader).some((t) => t === type || t === "*/*" || t === `${wanted}/*`);
}

export function isJsonContentType(header: string | undefined): boolean {
  return mediaTypes(header)[0] === "application/json";
}
