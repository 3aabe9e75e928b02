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
import { checkIssuedTokens, guardedFetch, printable, type HttpLimits } from "./http.ts";
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

/** Redirects followed for one request (fetch's own limit); past it the redirect response is returned. */
const MAX_REDIRECTS = 20;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers describing a request body, dropped with the body when a redirect turns a request into a GET (Fetch). */
const BODY_HEADERS = ["content-type", "content-encoding", "content-language", "content-location", "content-length"];

/** A `Request` as plain init. Its body stays a stream (sent once: not replayed after a challenge or a 307). */
function initOf(request: Request): RequestInit {
  const init: RequestInit & { duplex?: "half" } = {
    method: request.method,
    headers: request.headers,
    signal: request.signal,
    ...(request.body !== null && { body: request.body, duplex: "half" }),
  };
  return init;
}

/** Whether a stored entry holds tokens this client can send (an older version may have stored anything). */
function sendable(stored: Record<string, unknown>): boolean {
  try {
    const { access_token, token_type, refresh_token } = stored;
    if (typeof access_token !== "string" || typeof token_type !== "string") return false;
    if (refresh_token !== undefined && typeof refresh_token !== "string") return false;
    checkIssuedTokens({ access_token, token_type, ...(refresh_token !== undefined && { refresh_token }) }, "stored");
    return true;
  } catch {
    return false;
  }
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
      if (stored && sendable(stored) && sameUrl(stored["resource"], candidate)) {
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

  /** One request to `url` with the tokens where they belong (`init` describes the request). */
  async function sendOnce(url: URL, init: RequestInit, tokens: StoredTokens | undefined, binding?: Binding) {
    const headers = new Headers(init.headers);
    headers.delete("authorization");
    // A token goes only to URLs under the resource it was issued for; anything else goes without one.
    const usable = tokens && isUnder(url, new URL(tokens.resource)) ? tokens : undefined;
    const isDpop = usable?.token_type.toLowerCase() === "dpop";
    if (usable && isDpop && binding?.dpop)
      return dpopResourceRequest(base, binding.dpop, usable.access_token, url, init, headers);
    // A DPoP-bound token without its key (stored by another process) is useless: none is sent.
    if (usable && !isDpop) headers.set("authorization", `Bearer ${usable.access_token}`);
    return base(url, { ...init, headers, redirect: "manual" });
  }

  /**
   * Sends the request, following redirects here rather than in fetch (which keeps `Authorization` on a same-origin
   * redirect): each hop gets the token only if it is under the token's resource.
   */
  async function send(url: URL, init: RequestInit, tokens: StoredTokens | undefined, binding?: Binding) {
    let [current, hop] = [url, init];
    for (let hops = 0; ; hops++) {
      const response = await sendOnce(current, hop, tokens, binding);
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
      const method = (hop.method ?? "GET").toUpperCase();
      if ((response.status === 303 && method !== "HEAD") || (!keepsBody && method === "POST")) {
        const headers = new Headers(hop.headers);
        for (const name of BODY_HEADERS) headers.delete(name);
        const { body: _body, ...rest } = hop;
        hop = { ...rest, method: "GET", headers };
      }
      current = next;
    }
  }

  return async function fetchWithOAuth(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    const request = input instanceof Request ? new Request(input, init) : undefined;
    const url = new URL(request ? request.url : input instanceof URL ? input.href : (input as string));
    const plain = request ? initOf(request) : { ...init };
    const canReplay = replayable(plain.body);
    let binding = bindingFor(url) ?? (await loadStored(url));
    let authorizations = 0;
    let refreshed = false;
    for (;;) {
      const tokens = await freshToken(binding);
      const response = await send(url, plain, tokens, binding);
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
