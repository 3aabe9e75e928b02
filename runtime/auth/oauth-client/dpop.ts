/**
 * DPoP (RFC 9449, MCP SEP-1932): sender-constrained tokens when the authorization server advertises
 * `dpop_signing_alg_values_supported`. Proofs, nonces and the `DPoP` authorization scheme are oauth4webapi's;
 * the key pair lives in memory only (a DPoP-bound token stored by an earlier process is not used without it).
 */
import * as oauth from "oauth4webapi";

/**
 * Algorithms we can sign proofs with, in order of preference. Not "EdDSA": oauth4webapi labels every Ed25519 proof
 * "Ed25519" (RFC 9864), so an AS that lists only "EdDSA" would get proofs in an algorithm it did not offer.
 */
const ALGS = ["ES256", "Ed25519", "PS256", "RS256"] as const;

export interface Dpop {
  readonly handle: oauth.DPoPHandle;
  readonly alg: string;
}

/** A DPoP key and handle when the AS supports one of our algorithms (undefined otherwise). */
export async function dpopFor(as: oauth.AuthorizationServer): Promise<Dpop | undefined> {
  const offered = as.dpop_signing_alg_values_supported;
  if (!Array.isArray(offered)) return undefined;
  const alg = ALGS.find((a) => offered.includes(a));
  if (!alg) return undefined;
  const keyPair = await oauth.generateKeyPair(alg);
  return { handle: oauth.DPoP({}, keyPair), alg };
}

/** Run a token request + processing once more when the server asks for a DPoP nonce (the handle cached it). */
export async function withNonceRetry<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (oauth.isDPoPNonceError(error)) return step();
    throw error;
  }
}

/**
 * An MCP request with a DPoP-bound token: `Authorization: DPoP …` plus a fresh proof (with `ath`), retried once
 * with the server's nonce on `use_dpop_nonce`. Answers with a challenge are returned, not thrown.
 */
export async function dpopResourceRequest(
  base: typeof fetch,
  dpop: Dpop,
  token: string,
  url: URL,
  init: RequestInit,
  headers: Headers,
): Promise<Response> {
  headers.delete("authorization");
  const body = (init.body ?? null) as string | null;
  const options: oauth.ProtectedResourceRequestOptions = {
    DPoP: dpop.handle,
    [oauth.allowInsecureRequests]: true,
    [oauth.customFetch]: (href, o) =>
      base(href, { ...(o as RequestInit), ...(init.signal ? { signal: init.signal } : {}) }),
  };
  for (let attempt = 0; ; attempt++) {
    try {
      return await oauth.protectedResourceRequest(
        token,
        init.method ?? "GET",
        url,
        new Headers(headers),
        body,
        options,
      );
    } catch (error) {
      if (!(error instanceof oauth.WWWAuthenticateChallengeError)) throw error;
      if (attempt === 0 && oauth.isDPoPNonceError(error)) {
        await error.response.body?.cancel().catch(() => undefined);
        continue;
      }
      return error.response;
    }
  }
}
