/**
 * Who is the caller: the one rule every layer uses to name the identity behind a verified bearer token. HTTP binds
 * sessions to it and counts per-client session limits by it; the server binds multi round-trip `requestState` and
 * task ownership to it. It sits here, next to `AuthInfo`, rather than in `auth/`, because `server/` sits below
 * `auth/` and must use it too (`auth/principal.ts` re-exports it for the auth-facing API).
 *
 * The rule, most specific first: the token's subject (the end user), else its client id (a client acting for
 * itself), each qualified by the token's issuer, since both are unique per authorization server only: client "app"
 * of one issuer is not client "app" of another. Else a SHA-256 digest of the token itself (a token that names
 * nobody identifies only its own bearer). The token never appears in clear: the principal is sealed into
 * `requestState`, which the client can read. Synchronous and web-only (no `node:crypto`), so the web-standard HTTP
 * path can use it.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { base64urlFromBytes } from "./base64.ts";
import type { AuthInfo } from "./transport.ts";

/** The identity fields the rule reads. */
type PrincipalSource = Pick<AuthInfo, "token" | "clientId" | "claims" | "issuer">;

/** The issuer a token's subject or client id is unique within: the verifier's word first, then the `iss` claim. */
function issuerOf(authInfo: PrincipalSource): string | null {
  if (authInfo.issuer !== undefined) return authInfo.issuer;
  const iss = authInfo.claims?.["iss"];
  return typeof iss === "string" ? iss : null;
}

/** The caller of a request with this identity, or undefined when the request is unauthenticated. */
export function principalOf(
  authInfo: Pick<AuthInfo, "token" | "clientId" | "claims" | "issuer"> | undefined,
): string | undefined {
  if (!authInfo) return undefined;
  const sub = authInfo.claims?.["sub"];
  // JSON, so no choice of issuer and subject (or client id) text can spell another pair.
  if (typeof sub === "string") return `sub:${JSON.stringify([issuerOf(authInfo), sub])}`;
  if (authInfo.clientId !== undefined) return `client:${JSON.stringify([issuerOf(authInfo), authInfo.clientId])}`;
  return `token:${base64urlFromBytes(sha256(new TextEncoder().encode(authInfo.token)))}`;
}
