/**
 * A ready `verifyToken` for JWT access tokens, built on `jose`: signature against the issuer's JWKS (or a
 * fixed key), `iss`, `aud` = this server's canonical URL (tokens for another audience are rejected, RFC 8707),
 * `exp` (required unless `requireExp: false`, as RFC 9068 §2.2 requires it)/`nbf`, and the scopes from `scope`
 * (RFC 9068) or `scp`.
 */
import { createLocalJWKSet, createRemoteJWKSet, jwtVerify } from "jose";
import type { JSONWebKeySet, JWTPayload, JWTVerifyGetKey, CryptoKey, KeyObject } from "jose";
import type { AuthInfo } from "../transport/transport.ts";
import type { VerifyToken } from "./bearer.ts";

export interface JwtVerifierOptions {
  /** Expected `iss` (exact string). */
  readonly issuer: string | readonly string[];
  /** Expected `aud`: the canonical URL of this MCP server. */
  readonly audience: string | readonly string[];
  /** Where the issuer publishes its keys… */
  readonly jwksUrl?: string | URL;
  /** …or the key set itself… */
  readonly jwks?: JSONWebKeySet;
  /** …or a single verification key. */
  readonly key?: CryptoKey | KeyObject | Uint8Array;
  /** Allowed signing algorithms. Default: the asymmetric JWS algorithms `jose` supports. */
  readonly algorithms?: readonly string[];
  /** Seconds of clock skew tolerated on exp/nbf. Default 5. */
  readonly clockToleranceSec?: number;
  /** Expected JWT `typ` header, e.g. "at+jwt". Default: not checked. */
  readonly typ?: string;
  /**
   * Reject tokens without an `exp` claim (default true: RFC 9068 access tokens always carry one, and a token
   * without it would be valid forever). Set false only for an issuer known to omit it.
   */
  readonly requireExp?: boolean;
}

const ASYMMETRIC = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
];

function scopesOf(payload: JWTPayload): string[] {
  const scope = payload["scope"];
  if (typeof scope === "string") return scope.split(" ").filter(Boolean);
  const scp = payload["scp"];
  if (Array.isArray(scp)) return scp.filter((s): s is string => typeof s === "string");
  if (typeof scp === "string") return scp.split(" ").filter(Boolean);
  return [];
}

function clientIdOf(payload: JWTPayload): string | undefined {
  for (const claim of ["client_id", "azp", "cid"]) {
    const value = payload[claim];
    if (typeof value === "string") return value;
  }
  return undefined;
}

/** A shared secret (HMAC) rather than a public key: only then are the HS algorithms the default. */
function isSecret(key: JwtVerifierOptions["key"]): boolean {
  if (key === undefined) return false;
  return key instanceof Uint8Array || key.type === "secret";
}

export function jwtVerifier(options: JwtVerifierOptions): VerifyToken {
  let keys: JWTVerifyGetKey | CryptoKey | KeyObject | Uint8Array;
  if (options.key) keys = options.key;
  else if (options.jwks) keys = createLocalJWKSet(options.jwks);
  else if (options.jwksUrl) keys = createRemoteJWKSet(new URL(options.jwksUrl));
  else throw new Error("jwtVerifier needs one of jwksUrl, jwks or key");
  const verifyOptions = {
    // jose only reads these lists; the casts drop `readonly` without a copy.
    issuer: options.issuer as string | string[],
    audience: options.audience as string | string[],
    algorithms: [...(options.algorithms ?? (isSecret(options.key) ? ["HS256", "HS384", "HS512"] : ASYMMETRIC))],
    clockTolerance: options.clockToleranceSec ?? 5,
    requiredClaims: options.requireExp === false ? [] : ["exp"],
    ...(options.typ !== undefined ? { typ: options.typ } : {}),
  };
  return async (token) => {
    // jose throws on any failure (signature, iss, aud, exp, nbf, alg); bearer.ts turns that into a 401.
    const { payload } =
      typeof keys === "function"
        ? await jwtVerify(token, keys, verifyOptions)
        : await jwtVerify(token, keys, verifyOptions);
    const clientId = clientIdOf(payload);
    const info: AuthInfo = {
      token,
      scopes: scopesOf(payload),
      claims: payload,
      // jose checked it is one of the configured issuers.
      ...(typeof payload.iss === "string" ? { issuer: payload.iss } : {}),
      ...(clientId !== undefined ? { clientId } : {}),
      ...(payload.exp !== undefined ? { expiresAt: payload.exp } : {}),
    };
    return info;
  };
}
