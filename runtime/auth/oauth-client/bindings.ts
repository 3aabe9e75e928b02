/**
 * Tokens per protected resource ("bindings"): found for a URL, loaded from the store an earlier run filled,
 * refreshed before they expire, and obtained anew by discovery and a grant after a challenge.
 */
import type * as oauth from "oauth4webapi";
import {
  canonicalResource,
  discoverAuthorizationServer,
  discoverResource,
  isUnder,
  legacyAuthorizationServer,
  type BearerChallenge,
  type ResourceInfo,
} from "./discovery.ts";
import { dpopFor, type Dpop } from "./dpop.ts";
import { authorizationCodeFlow, clientCredentialsFlow, refreshFlow, tokensKey, type FlowContext } from "./flow.ts";
import { jwtBearerFlow } from "./grants.ts";
import { checkIssuedTokens, printable, type OAuthHttp } from "./http.ts";
import { OAuthClientError, type StoredTokens } from "./types.ts";

/** The tokens of one protected resource, the authorization server that issued them and their DPoP key. */
export interface Binding {
  resource: URL;
  as?: oauth.AuthorizationServer;
  tokens?: StoredTokens;
  dpop?: Dpop;
}

export interface BindingOptions {
  /** Refresh this many seconds before `expires_at`. */
  readonly refreshSkewSec: number;
  /** DPoP-bound tokens: true always (when offered), false never, undefined when the server asks for them. */
  readonly dpop: boolean | undefined;
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

/**
 * The scope to ask for: on step-up the scope held plus the challenged one; otherwise the challenged scope, else
 * every scope the resource lists.
 */
function requestedScope(
  stepUp: boolean,
  held: string | undefined,
  challenge: BearerChallenge | undefined,
  info: ResourceInfo | undefined,
): string | undefined {
  const challenged = challenge?.scope;
  if (stepUp) return scopeSet(held, challenged);
  if (challenged !== undefined) return challenged;
  return info?.scopesSupported && info.scopesSupported.length > 0 ? info.scopesSupported.join(" ") : undefined;
}

/** Discovery for `serverUrl`: its protected resource metadata (when it has any) and its authorization server. */
async function discover(
  ctx: FlowContext,
  serverUrl: URL,
  challenge: BearerChallenge | undefined,
): Promise<{ info: ResourceInfo | undefined; as: oauth.AuthorizationServer }> {
  const info = await discoverResource(ctx.http, serverUrl, challenge?.resourceMetadata);
  if (!info) return { info, as: await legacyAuthorizationServer(ctx.http, serverUrl) };
  // RFC 9728 §7.6 leaves the choice to the client: the first listed authorization server.
  const issuer = info.authorizationServers[0]!;
  const as = await discoverAuthorizationServer(ctx.http, issuer);
  if (!as)
    throw new OAuthClientError(
      `no authorization server metadata found for ${printable(issuer)}`,
      "no_authorization_server",
    );
  return { info, as };
}

/** Tokens from the grant the provider configures (JWT bearer, then client credentials, then authorization code). */
function grant(
  ctx: FlowContext,
  as: oauth.AuthorizationServer,
  resourceId: string,
  scope: string | undefined,
  dpop: Dpop | undefined,
): Promise<StoredTokens> {
  const { provider } = ctx;
  if (provider.jwtBearer) return jwtBearerFlow(ctx.http, provider.jwtBearer, as, resourceId, scope, dpop);
  if (provider.clientCredentials) return clientCredentialsFlow(ctx, as, resourceId, scope, dpop);
  return authorizationCodeFlow(ctx, as, resourceId, scope, dpop);
}

/** What the bindings share: the provider, its store, and the guarded fetch for each MCP server's OAuth traffic. */
export interface BindingContext extends Omit<FlowContext, "http"> {
  /** The OAuth fetch for `server` (loopback endpoints only for a server on loopback). */
  httpFor(server: URL): OAuthHttp;
}

/** The bindings of one `oauthFetch`. */
export class TokenBindings {
  private readonly bindings: Binding[] = [];
  /** Authorizations running, per server URL and kind: concurrent 401s share one. */
  private readonly pending = new Map<string, Promise<Binding>>();

  constructor(
    private readonly shared: BindingContext,
    private readonly options: BindingOptions,
  ) {}

  /** The flow context of the MCP server at `server`. */
  private ctx(server: URL): FlowContext {
    return { provider: this.shared.provider, store: this.shared.store, http: this.shared.httpFor(server) };
  }

  /** The binding whose resource `url` is under (the longest), else tokens an earlier run stored. */
  async find(url: URL): Promise<Binding | undefined> {
    const known = this.bindings
      .filter((b) => isUnder(url, b.resource))
      .sort((a, b) => b.resource.href.length - a.resource.href.length)[0];
    return known ?? (await this.loadStored(url));
  }

  /** Tokens stored by an earlier run for this URL or a parent path (a file store survives restarts). */
  private async loadStored(url: URL): Promise<Binding | undefined> {
    const canonical = canonicalResource(url);
    canonical.search = "";
    const parts = canonical.pathname.split("/").filter(Boolean);
    for (let n = parts.length; n >= 0; n--) {
      const candidate = new URL(`/${parts.slice(0, n).join("/")}`, canonical.origin);
      const stored = await this.shared.store.get(tokensKey(candidate.href));
      if (stored && sendable(stored) && sameUrl(stored["resource"], candidate)) {
        const binding: Binding = { resource: candidate, tokens: stored as unknown as StoredTokens };
        this.bindings.push(binding);
        return binding;
      }
    }
    return undefined;
  }

  private async save(binding: Binding, tokens: StoredTokens): Promise<void> {
    binding.tokens = tokens;
    await this.shared.store.set(tokensKey(binding.resource.href), { ...tokens });
  }

  /** The binding's tokens, refreshed first when they expire within the skew; undefined when none are usable. */
  async freshTokens(binding: Binding | undefined): Promise<StoredTokens | undefined> {
    const tokens = binding?.tokens;
    if (!binding || !tokens) return undefined;
    const expired =
      tokens.expires_at !== undefined && tokens.expires_at - this.options.refreshSkewSec <= Date.now() / 1000;
    if (!expired) return tokens;
    const refreshed = await this.refresh(binding);
    return refreshed ? binding.tokens : undefined;
  }

  /** Refreshes the binding's tokens with its refresh token; false when there is none or the AS refused. */
  async refresh(binding: Binding): Promise<boolean> {
    const tokens = binding.tokens;
    if (!tokens?.refresh_token) return false;
    const ctx = this.ctx(binding.resource);
    const as = binding.as ?? (await discoverAuthorizationServer(ctx.http, tokens.issuer));
    if (!as) return false;
    binding.as = as;
    const next = await refreshFlow(ctx, as, tokens, binding.dpop);
    if (!next) return false;
    await this.save(binding, next);
    return true;
  }

  /** Discovery and a new token for `url` after a challenge; one at a time per server URL. */
  authorize(url: URL, challenge: BearerChallenge | undefined, stepUp: boolean): Promise<Binding> {
    const key = `${canonicalResource(url).href} ${stepUp}`;
    let running = this.pending.get(key);
    if (!running) {
      running = this.authorizeNow(url, challenge, stepUp).finally(() => this.pending.delete(key));
      this.pending.set(key, running);
    }
    return running;
  }

  private async authorizeNow(url: URL, challenge: BearerChallenge | undefined, stepUp: boolean): Promise<Binding> {
    const serverUrl = canonicalResource(url);
    const ctx = this.ctx(serverUrl);
    const { info, as } = await discover(ctx, serverUrl, challenge);
    const binding = await this.bindingAt(info?.resource ?? serverUrl, as);
    const wantDpop = this.options.dpop ?? (challenge?.dpop === true || info?.dpopRequired === true);
    if (binding.as?.issuer !== as.issuer || !binding.dpop) {
      const dpop = wantDpop ? await dpopFor(as) : undefined;
      if (dpop) binding.dpop = dpop;
      else delete binding.dpop;
    }
    binding.as = as;
    const scope = requestedScope(stepUp, binding.tokens?.scope, challenge, info);
    await this.save(binding, await grant(ctx, as, info?.resourceId ?? serverUrl.href, scope, binding.dpop));
    return binding;
  }

  /** The binding for `resource` (created when new); tokens of another AS than `as` are dropped, never sent again. */
  private async bindingAt(resource: URL, as: oauth.AuthorizationServer): Promise<Binding> {
    let binding = this.bindings.find((b) => b.resource.href === resource.href);
    if (!binding) this.bindings.push((binding = { resource }));
    if (binding.tokens && binding.tokens.issuer !== as.issuer) {
      delete binding.tokens;
      await this.shared.store.delete(tokensKey(resource.href));
    }
    return binding;
  }
}
