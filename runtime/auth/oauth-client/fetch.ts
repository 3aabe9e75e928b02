/**
 * `oauthFetch(provider)`: a `fetch` for `StreamableHttpClientTransport({ fetch })` that does MCP authorization.
 * It adds the bearer token (only to URLs under the resource the token was issued for), and on 401 runs
 * discovery → client identity → authorization → token, then retries the request; on 403 `insufficient_scope`
 * it re-authorizes with the larger scope (step-up), within a per-request limit. Expired tokens are refreshed.
 */
import { TokenBindings } from "./bindings.ts";
import { canonicalResource, parseBearerChallenge } from "./discovery.ts";
import { guardedFetch, isLocalHost, type HttpLimits } from "./http.ts";
import { initOf, replayable, sendToResource } from "./resource-request.ts";
import { memoryStore } from "./stores.ts";
import type { OAuthClientProvider } from "./types.ts";

export interface OAuthFetchOptions extends HttpLimits {
  /** The fetch used for everything (MCP and OAuth requests). Default: global fetch. */
  readonly fetch?: typeof fetch;
  /** Authorizations one request may trigger (401 then 403 step-up counts two). Default 2. */
  readonly maxAuthorizations?: number;
  /**
   * Authorizations in a row, across requests, that did not make the server accept a request (a server that
   * keeps answering 403 whatever was granted). Beyond it the 401/403 is returned as is. Default 3.
   */
  readonly maxFruitlessAuthorizations?: number;
  /** Refresh this many seconds before `expires_at` (default 30). */
  readonly refreshSkewSec?: number;
  /**
   * DPoP-bound tokens (RFC 9449) when the authorization server offers DPoP. Default: only when the server asks
   * for them (a `DPoP` challenge, or PRM `dpop_bound_access_tokens_required`), as a server that knows only
   * Bearer rejects them; true: whenever the AS offers DPoP; false: never.
   */
  readonly dpop?: boolean;
}

/** An OAuth-aware fetch. One instance per MCP server connection (or share it: bindings are per resource). */
export function oauthFetch(provider: OAuthClientProvider, options: OAuthFetchOptions = {}): typeof fetch {
  const base = options.fetch ?? globalThis.fetch;
  const store = provider.store ?? memoryStore();
  // Loopback (and plain-http loopback) endpoints only for an MCP server on loopback itself.
  const local = guardedFetch(base, options, true);
  const remote = guardedFetch(base, options, false);
  const bindings = new TokenBindings(
    { provider, store, httpFor: (server) => (isLocalHost(server) ? local : remote) },
    { refreshSkewSec: options.refreshSkewSec ?? 30, dpop: options.dpop },
  );
  const maxAuthorizations = options.maxAuthorizations ?? 2;
  const maxFruitless = options.maxFruitlessAuthorizations ?? 3;
  /** Consecutive authorizations per server URL that were not followed by an accepted request. */
  const fruitless = new Map<string, number>();

  return async function fetchWithOAuth(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const request = input instanceof Request ? new Request(input, init) : undefined;
    const url = new URL(request ? request.url : input instanceof URL ? input.href : (input as string));
    const plain = request ? initOf(request) : { ...init };
    const canReplay = replayable(plain.body);
    let binding = await bindings.find(url);
    let authorizations = 0;
    let refreshed = false;
    for (;;) {
      const tokens = await bindings.freshTokens(binding);
      const response = await sendToResource(base, url, plain, tokens, binding?.dpop);
      const key = canonicalResource(url).href;
      if (response.status !== 401 && response.status !== 403) {
        fruitless.delete(key);
        return response;
      }
      const challenge = await parseBearerChallenge(response.headers.get("www-authenticate"));
      const stepUp = response.status === 403;
      if (stepUp && challenge?.error !== "insufficient_scope") return response;
      if (!canReplay || authorizations >= maxAuthorizations || (fruitless.get(key) ?? 0) >= maxFruitless)
        return response;
      await response.body?.cancel().catch(() => undefined);
      // A rejected token with a refresh token: try refreshing once before a full authorization.
      if (!stepUp && tokens?.refresh_token && binding && !refreshed) {
        refreshed = true;
        if (await bindings.refresh(binding)) continue;
      }
      authorizations++;
      fruitless.set(key, (fruitless.get(key) ?? 0) + 1);
      binding = await bindings.authorize(url, challenge, stepUp);
    }
  } as typeof fetch;
}
