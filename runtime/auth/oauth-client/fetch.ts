/**
 * `oauthFetch(provider)`: a `fetch` for `StreamableHttpClientTransport({ fetch })` that does MCP authorization.
 * It adds the bearer token (only to URLs under the resource the token was issued for), and on 401 runs
 * discovery → client identity → authorization → token, then retries the request; on 403 `insufficient_scope`
 * it re-authorizes with the larger scope (step-up), within a per-request limit. Expired tokens are refreshed.
 */
import type * as oauth from "oauth4webapi";
import {
  canonicalResource,
  discoverAuthorizationServer,
  discoverResource,
  isUnder,
  legacyAuthorizationServer,
  parseBearerChallenge,
  type BearerChallenge,
} from "./discovery.ts";
import { authorizationCodeFlow, clientCredentialsFlow, refreshFlow, tokensKey, type FlowContext } from "./flow.ts";
import { dpopFor, dpopResourceRequest, type Dpop } from "./dpop.ts";
import { jwtBearerFlow } from "./grants.ts";
import { guardedFetch, printable, type HttpLimits } from "./http.ts";
import { memoryStore } from "./stores.ts";
import { OAuthClientError, type OAuthClientProvider, type StoredTokens } from "./types.ts";

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

interface Binding {
  resource: URL;
  as?: oauth.AuthorizationServer;
  tokens?: StoredTokens;
  dpop?: Dpop;
}

/** Consecutive authorizations per server URL that were not followed by an accepted request. */
type Fruitless = Map<string, number>;

function replayable(body: RequestInit["body"]): boolean {
  return body === undefined || body === null || !(body instanceof ReadableStream);
}

function sameUrl(value: unknown, url: URL): boolean {
  try {
    return typeof value === "string" && new URL(value).href === url.href;
  } catch {
    return false;
  }
}

const scopeSet = (...scopes: (string | undefined)[]): string | undefined => {
  const all = new Set(scopes.flatMap((s) => (s ?? "").split(" ").filter(Boolean)));
  return all.size === 0 ? undefined : [...all].join(" ");
};

/** An OAuth-aware fetch. One instance per MCP server connection (or share it: bindings are per resource). */
export function oauthFetch(provider: OAuthClientProvider, options: OAuthFetchOptions = {}): typeof fetch {
  const base = options.fetch ?? globalThis.fetch;
  const ctx: FlowContext = { provider, store: provider.store ?? memoryStore(), http: guardedFetch(base, options) };
  const maxAuthorizations = options.maxAuthorizations ?? 2;
  const maxFruitless = options.maxFruitlessAuthorizations ?? 3;
  const fruitless: Fruitless = new Map();
  const skew = options.refreshSkewSec ?? 30;
  const bindings: Binding[] = [];
  const pending = new Map<string, Promise<Binding>>();

  const bindingFor = (url: URL): Binding | undefined =>
    bindings.filter((b) => isUnder(url, b.resource)).sort((a, b) => b.resource.href.length - a.resource.href.length)[0];

  /** Tokens stored by an earlier run for this URL or a parent path (a file store survives restarts). */
  async function loadStored(url: URL): Promise<Binding | undefined> {
    const canonical = canonicalResource(url);
    canonical.search = "";
    const parts = canonical.pathname.split("/").filter(Boolean);
    for (let n = parts.length; n >= 0; n--) {
      const candidate = new URL(`/${parts.slice(0, n).join("/")}`, canonical.origin);
      const stored = await ctx.store.get(tokensKey(candidate.href));
      if (stored && typeof stored["access_token"] === "string" && sameUrl(stored["resource"], candidate)) {
        const binding: Binding = { resource: candidate, tokens: stored as unknown as StoredTokens };
        bindings.push(binding);
        return binding;
      }
    }
    return undefined;
  }

  async function save(binding: Binding, tokens: StoredTokens): Promise<void> {
    binding.tokens = tokens;
    await ctx.store.set(tokensKey(binding.resource.href), { ...tokens });
  }

  async function freshToken(binding: Binding | undefined): Promise<StoredTokens | undefined> {
    const tokens = binding?.tokens;
    if (!binding || !tokens) return undefined;
    const expired = tokens.expires_at !== undefined && tokens.expires_at - skew <= Date.now() / 1000;
    if (!expired) return tokens;
    const refreshed = await refresh(binding);
    return refreshed ? binding.tokens : undefined;
  }

  async function refresh(binding: Binding): Promise<boolean> {
    const tokens = binding.tokens;
    if (!tokens?.refresh_token) return false;
    const as = binding.as ?? (await discoverAuthorizationServer(ctx.http, tokens.issuer));
    if (!as) return false;
    binding.as = as;
    const next = await refreshFlow(ctx, as, tokens, binding.dpop);
    if (!next) return false;
    await save(binding, next);
    return true;
  }

  /** Discovery and a new token for `url`, after a challenge. */
  async function authorize(url: URL, challenge: BearerChallenge | undefined, stepUp: boolean): Promise<Binding> {
    const serverUrl = canonicalResource(url);
    const info = await discoverResource(ctx.http, serverUrl, challenge?.resourceMetadata);
    let as: oauth.AuthorizationServer;
    if (info) {
      // RFC 9728 §7.6 leaves the choice to the client: the first listed authorization server.
      const issuer = info.authorizationServers[0]!;
      const found = await discoverAuthorizationServer(ctx.http, issuer);
      if (!found)
        throw new OAuthClientError(
          `no authorization server metadata found for ${printable(issuer)}`,
          "no_authorization_server",
        );
      as = found;
    } else {
      as = await legacyAuthorizationServer(ctx.http, serverUrl);
    }
    const resource = info?.resource ?? serverUrl;
    const resourceId = info?.resourceId ?? serverUrl.href;
    let binding = bindings.find((b) => b.resource.href === resource.href);
    if (!binding) bindings.push((binding = { resource }));
    // The AS changed (PRM now names another one): tokens of the old AS are dropped, never sent again.
    if (binding.tokens && binding.tokens.issuer !== as.issuer) {
      delete binding.tokens;
      await ctx.store.delete(tokensKey(resource.href));
    }
    const wantDpop = options.dpop ?? (challenge?.dpop === true || info?.dpopRequired === true);
    if (binding.as?.issuer !== as.issuer || !binding.dpop) {
      const dpop = wantDpop ? await dpopFor(as) : undefined;
      if (dpop) binding.dpop = dpop;
      else delete binding.dpop;
    }
    binding.as = as;
    const challenged = challenge?.scope;
    const scope = stepUp
      ? scopeSet(binding.tokens?.scope, challenged)
      : (challenged ??
        (info?.scopesSupported && info.scopesSupported.length > 0 ? info.scopesSupported.join(" ") : undefined));
    const tokens = provider.jwtBearer
      ? await jwtBearerFlow(ctx.http, provider.jwtBearer, as, resourceId, scope, binding.dpop)
      : provider.clientCredentials
        ? await clientCredentialsFlow(ctx, as, resourceId, scope, binding.dpop)
        : await authorizationCodeFlow(ctx, as, resourceId, scope, binding.dpop);
    await save(binding, tokens);
    return binding;
  }

  /** One authorization at a time per server URL: concurrent 401s share it. */
  function authorizeOnce(url: URL, challenge: BearerChallenge | undefined, stepUp: boolean): Promise<Binding> {
    const key = `${canonicalResource(url).href} ${stepUp}`;
    let running = pending.get(key);
    if (!running) {
      running = authorize(url, challenge, stepUp).finally(() => pending.delete(key));
      pending.set(key, running);
    }
    return running;
  }

  return async function fetchWithOAuth(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const request = input instanceof Request ? new Request(input, init) : undefined;
    const url = new URL(request ? request.url : input instanceof URL ? input.href : (input as string));
    const canReplay = request ? request.body === null : replayable(init?.body);
    let binding = bindingFor(url) ?? (await loadStored(url));
    let authorizations = 0;
    let refreshed = false;
    for (;;) {
      const tokens = await freshToken(binding);
      const headers = new Headers(request ? request.headers : init?.headers);
      headers.delete("authorization");
      // A token goes only to URLs under the resource it was issued for; anything else goes without one.
      const usable = tokens && isUnder(url, new URL(tokens.resource)) ? tokens : undefined;
      const isDpop = usable?.token_type.toLowerCase() === "dpop";
      let response: Response;
      if (usable && isDpop && binding?.dpop && !request) {
        response = await dpopResourceRequest(base, binding.dpop, usable.access_token, url, init ?? {}, headers);
      } else {
        // A DPoP-bound token without its key (stored by another process) is useless: none is sent.
        if (usable && !isDpop) headers.set("authorization", `Bearer ${usable.access_token}`);
        response = request
          ? await base(new Request(request.clone(), { headers }))
          : await base(url, { ...init, headers });
      }
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
        if (await refresh(binding)) continue;
      }
      authorizations++;
      fruitless.set(key, (fruitless.get(key) ?? 0) + 1);
      binding = await authorizeOnce(url, challenge, stepUp);
    }
  } as typeof fetch;
}
