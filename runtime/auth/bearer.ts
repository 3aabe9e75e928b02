/**
 * The MCP server as an OAuth 2.1 resource server: read the bearer token, verify it with a pluggable
 * `verifyToken`, answer 401/403 with a `WWW-Authenticate` challenge that points at the Protected Resource
 * Metadata (RFC 9728), and check scopes (globally and per tool).
 */
import type { AuthInfo } from "../transport/transport.ts";
import type { ProtectedResourceMetadata } from "./metadata.ts";

/** What a verifier may look at besides the token. */
export interface TokenRequest {
  header(name: string): string | undefined;
}

/**
 * Verify a bearer token. Return its identity, or undefined (or throw) when it is invalid, expired or
 * issued for another audience; the server then answers 401.
 */
export type VerifyToken = (
  token: string,
  request: TokenRequest,
) => Promise<AuthInfo | undefined> | AuthInfo | undefined;

export interface BearerAuthOptions {
  readonly verifyToken: VerifyToken;
  /**
   * This server's metadata document (RFC 9728). `resource` is the canonical URL of the MCP endpoint (the
   * audience tokens must be issued for); `authorization_servers` lists at least one issuer.
   */
  readonly resourceMetadata: ProtectedResourceMetadata;
  /** Scopes every request needs. */
  readonly requiredScopes?: readonly string[];
  /** Extra scopes per tool name, from the manifest; a `tools/call` without them gets 403 insufficient_scope. */
  readonly toolScopes?: Readonly<Record<string, readonly string[]>>;
  /** Does a granted scope cover a required one? Default: equality. Supply this for scope hierarchies. */
  readonly scopeCovers?: (granted: string, required: string) => boolean;
}

export interface Challenge {
  readonly error?: "invalid_request" | "invalid_token" | "insufficient_scope";
  readonly description?: string;
  readonly scope?: readonly string[];
}

/** The longest `error_description` we send; verifier messages can be long (or an attacker's payload). */
const MAX_DESCRIPTION = 200;

/**
 * `text` reduced to what RFC 6750 §3 allows in an auth-param value (%x20-21 / %x23-5B / %x5D-7E): every other
 * character (CR, LF, `"`, `\`, anything beyond ASCII such as an en dash) becomes `?`, so the value can never break
 * or inject a header and Node's `writeHead` never throws on it. Verifier messages can quote the token itself.
 */
export function headerSafe(text: string, max = MAX_DESCRIPTION): string {
  const cut = text.length > max ? `${text.slice(0, max - 3)}...` : text;
  return cut.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, "?");
}

function quoted(value: string): string {
  return `"${headerSafe(value, 2048)}"`;
}

/** `Bearer resource_metadata="…", scope="…", error="…", error_description="…"` (RFC 6750 §3, RFC 9728 §5.1). */
export function wwwAuthenticate(metadataUrl: string, challenge: Challenge = {}): string {
  const parts = [`resource_metadata=${quoted(metadataUrl)}`];
  if (challenge.scope && challenge.scope.length > 0) parts.push(`scope=${quoted(challenge.scope.join(" "))}`);
  if (challenge.error) parts.push(`error=${quoted(challenge.error)}`);
  if (challenge.description) parts.push(`error_description=${quoted(challenge.description)}`);
  return `Bearer ${parts.join(", ")}`;
}

/** The token from `Authorization: Bearer …`, undefined when absent, "" when the header is malformed. */
export function bearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(authorization);
  return match?.[1] ?? "";
}

export type AuthOutcome =
  | { readonly ok: true; readonly authInfo: AuthInfo }
  | { readonly ok: false; readonly status: 401 | 403; readonly challenge: Challenge };

/** Authenticate one HTTP request. */
export async function authenticate(request: TokenRequest, options: BearerAuthOptions): Promise<AuthOutcome> {
  const token = bearerToken(request.header("authorization"));
  const required = options.requiredScopes ?? [];
  const scopeHint = required.length > 0 ? { scope: required } : {};
  if (token === undefined) return { ok: false, status: 401, challenge: scopeHint };
  if (token === "")
    return {
      ok: false,
      status: 401,
      challenge: { error: "invalid_request", description: "malformed Authorization header" },
    };
  let authInfo: AuthInfo | undefined;
  try {
    authInfo = await options.verifyToken(token, request);
  } catch (error) {
    const description = headerSafe(error instanceof Error ? String(error.message) : "token verification failed");
    return { ok: false, status: 401, challenge: { error: "invalid_token", description } };
  }
  if (!authInfo) return { ok: false, status: 401, challenge: { error: "invalid_token", description: "invalid token" } };
  if (authInfo.expiresAt !== undefined && authInfo.expiresAt * 1000 <= Date.now())
    return { ok: false, status: 401, challenge: { error: "invalid_token", description: "token expired" } };
  const missing = missingScopes(authInfo, required, options.scopeCovers);
  if (missing.length > 0)
    return {
      ok: false,
      status: 403,
      challenge: { error: "insufficient_scope", scope: required, description: "insufficient scope" },
    };
  return { ok: true, authInfo: withIssuer(authInfo, options.resourceMetadata.authorization_servers) };
}

/**
 * The identity with its issuer named (`AuthInfo.issuer`), so principals of two authorization servers never meet:
 * the verifier's word or the `iss` claim, else the one authorization server this resource names. With several and
 * neither, the verifier must say which issued the token; the principal is unqualified otherwise (docs/auth.md).
 */
function withIssuer(authInfo: AuthInfo, servers: readonly string[]): AuthInfo {
  if (authInfo.issuer !== undefined || typeof authInfo.claims?.["iss"] === "string") return authInfo;
  const only = servers.length === 1 ? servers[0] : undefined;
  return only === undefined ? authInfo : { ...authInfo, issuer: only };
}

export function missingScopes(
  authInfo: AuthInfo,
  required: readonly string[],
  covers: (granted: string, required: string) => boolean = (g, r) => g === r,
): string[] {
  return required.filter((scope) => !authInfo.scopes.some((granted) => covers(granted, scope)));
}

/** The scopes a `tools/call` of `toolName` needs beyond what the token has, or [] when it may proceed. */
export function toolScopeChallenge(
  authInfo: AuthInfo,
  toolName: string,
  options: BearerAuthOptions,
): Challenge | undefined {
  // Own properties only: a tool named "constructor" or "__proto__" must not find Object.prototype's members.
  const table = options.toolScopes;
  const needed = table && Object.hasOwn(table, toolName) ? table[toolName] : undefined;
  if (!Array.isArray(needed) || needed.length === 0) return undefined;
  if (missingScopes(authInfo, needed, options.scopeCovers).length === 0) return undefined;
  // Name every scope this operation needs in one challenge, so the client re-authorizes once.
  const scope = [...new Set([...(options.requiredScopes ?? []), ...needed])];
  return { error: "insufficient_scope", scope, description: `tool '${toolName}' needs scope ${needed.join(" ")}` };
}
