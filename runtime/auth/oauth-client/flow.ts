/**
 * Getting tokens from an authorization server: client identity (pre-registered → Client ID Metadata Document →
 * Dynamic Client Registration), the authorization code grant with PKCE S256, `resource` (RFC 8707) and `iss`
 * checks (RFC 9207), refresh, and the client credentials grant (the OAuth client credentials extension).
 * The protocol mechanics are oauth4webapi's; this file decides what to send.
 */
import * as oauth from "oauth4webapi";
import { importPKCS8 } from "jose";
import { libStep, type OAuthHttp } from "./discovery.ts";
import { withNonceRetry, type Dpop } from "./dpop.ts";
import { checkIssuedTokens, isLoopback, printable } from "./http.ts";
import {
  OAuthClientError,
  type ClientInformation,
  type ClientPrivateKey,
  type OAuthClientProvider,
  type OAuthStore,
  type StoredTokens,
  type TokenEndpointAuthMethod,
} from "./types.ts";

export interface FlowContext {
  readonly provider: OAuthClientProvider;
  readonly store: OAuthStore;
  readonly http: OAuthHttp;
}

/** Options for every oauth4webapi request: our guarded fetch (it also enforces https-or-loopback). */
function libOptions(
  ctx: FlowContext,
  dpop?: Dpop,
): { [oauth.customFetch]: OAuthHttp; [oauth.allowInsecureRequests]: true; DPoP?: oauth.DPoPHandle } {
  return { [oauth.customFetch]: ctx.http, [oauth.allowInsecureRequests]: true, ...(dpop && { DPoP: dpop.handle }) };
}

export const clientKey = (issuer: string): string => `client ${issuer}`;
export const tokensKey = (resource: string): string => `tokens ${resource}`;

export interface ClientIdentity {
  readonly client: oauth.Client;
  readonly auth: oauth.ClientAuth;
}

const SECRET_METHODS: readonly TokenEndpointAuthMethod[] = ["client_secret_basic", "client_secret_post"];

/** The method to use for a client: what it registered with, else what the AS offers and the client can do. */
function chooseMethod(
  as: oauth.AuthorizationServer,
  info: ClientInformation,
  hasKey: boolean,
): TokenEndpointAuthMethod {
  if (info.token_endpoint_auth_method) return info.token_endpoint_auth_method;
  const offered = as.token_endpoint_auth_methods_supported;
  if (hasKey && (!offered || offered.includes("private_key_jwt"))) return "private_key_jwt";
  if (info.client_secret === undefined) return "none";
  if (!offered) return "client_secret_basic"; // RFC 8414's default
  return SECRET_METHODS.find((m) => offered.includes(m)) ?? (offered.includes("none") ? "none" : "client_secret_basic");
}

/**
 * `client_secret_basic` whose id and secret are URL-encoded leaving RFC 3986 unreserved characters as they are.
 * oauth4webapi's own also encodes `-`, `.`, `_`, `~`; every form decoder reads both the same, but servers that
 * compare the raw decoded header (the MCP conformance suite's mock AS among them) only accept this form.
 */
function secretBasic(secret: string): oauth.ClientAuth {
  return (_as, client, _body, headers) => {
    headers.set(
      "authorization",
      `Basic ${btoa(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(secret)}`)}`,
    );
  };
}

async function cryptoKey(privateKey: ClientPrivateKey): Promise<oauth.PrivateKey> {
  const key = typeof privateKey.key === "string" ? await importPKCS8(privateKey.key, privateKey.alg) : privateKey.key;
  return { key, ...(privateKey.kid !== undefined && { kid: privateKey.kid }) };
}

async function identity(
  as: oauth.AuthorizationServer,
  info: ClientInformation,
  privateKey: ClientPrivateKey | undefined,
): Promise<ClientIdentity> {
  const method = chooseMethod(as, info, privateKey !== undefined);
  const client: oauth.Client = { client_id: info.client_id, token_endpoint_auth_method: method };
  const secret = info.client_secret;
  switch (method) {
    case "none":
      return { client, auth: oauth.None() };
    case "private_key_jwt":
      if (!privateKey)
        throw new OAuthClientError("private_key_jwt needs a private key in the provider", "no_client_identity");
      return { client, auth: oauth.PrivateKeyJwt(await cryptoKey(privateKey)) };
    case "client_secret_basic":
    case "client_secret_post":
      if (secret === undefined) throw new OAuthClientError(`${method} needs a client secret`, "no_client_identity");
      return { client, auth: method === "client_secret_basic" ? secretBasic(secret) : oauth.ClientSecretPost(secret) };
  }
}

function redirectOf(provider: OAuthClientProvider): string {
  if (provider.redirectUrl === undefined || !provider.authorize)
    throw new OAuthClientError(
      "the server needs user authorization but the provider has no redirectUrl/authorize",
      "no_interactive_flow",
    );
  return String(provider.redirectUrl);
}

/**
 * RFC 7591 requires `client_secret_expires_at` next to a `client_secret`; some servers (the conformance mocks
 * among them) omit it. Read its absence as 0, "does not expire", instead of refusing the registration.
 */
async function lenientRegistration(response: Response): Promise<Response> {
  if (response.status !== 201 && response.status !== 200) return response;
  let body: unknown;
  try {
    body = await response.clone().json();
  } catch {
    return response; // not JSON: oauth4webapi reports it
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return response;
  const record = body as Record<string, unknown>;
  if (record["client_secret"] === undefined || record["client_secret_expires_at"] !== undefined) return response;
  return new Response(JSON.stringify({ ...record, client_secret_expires_at: 0 }), {
    status: response.status,
    headers: response.headers,
  });
}

/** Register at the AS (RFC 7591), persisting the result keyed by its issuer. */
async function register(ctx: FlowContext, as: oauth.AuthorizationServer): Promise<ClientInformation> {
  const redirect = redirectOf(ctx.provider);
  const offered = as.token_endpoint_auth_methods_supported;
  const method: TokenEndpointAuthMethod = !offered
    ? "client_secret_basic"
    : (SECRET_METHODS.find((m) => offered.includes(m)) ?? (offered.includes("none") ? "none" : "client_secret_basic"));
  const metadata = {
    client_name: "MCP client",
    ...ctx.provider.clientMetadata,
    redirect_uris: [redirect],
    grant_types: ["authorization_code", "refresh_token"],
    response_types: ["code"],
    token_endpoint_auth_method: method,
    application_type: isLoopback(new URL(redirect)) ? "native" : "web",
    // No `scope`: an AS may then limit the client to it, and step-up to more scopes would be refused.
  };
  const what = `client registration at ${printable(String(as.registration_endpoint))}`;
  const response = await libStep(what, "registration_failed", () =>
    oauth.dynamicClientRegistrationRequest(as, metadata, libOptions(ctx)),
  );
  const registered = await libStep(what, "registration_failed", async () =>
    oauth.processDynamicClientRegistrationResponse(await lenientRegistration(response)),
  );
  const info: ClientInformation = {
    client_id: registered.client_id,
    ...(typeof registered.client_secret === "string" && { client_secret: registered.client_secret }),
    // The AS's answer wins; without one, a client given no secret can only be a public client.
    token_endpoint_auth_method:
      (registered.token_endpoint_auth_method as TokenEndpointAuthMethod | undefined) ??
      (typeof registered.client_secret === "string" ? method : "none"),
  };
  await ctx.store.set(clientKey(as.issuer), { ...info });
  return info;
}

/** Client identity for the authorization code flow, in the spec's priority order. */
export async function clientFor(ctx: FlowContext, as: oauth.AuthorizationServer): Promise<ClientIdentity> {
  const { provider } = ctx;
  const pre = provider.clientInformation;
  if (pre) {
    // Credentials are bound to the AS that issued them; another AS means an error, not a silent retry.
    if (pre.issuer !== undefined && pre.issuer !== as.issuer)
      throw new OAuthClientError(
        `the pre-registered client belongs to ${printable(pre.issuer)}, but the server now uses ${printable(as.issuer)}`,
        "no_client_identity",
      );
    return identity(as, pre, provider.privateKey);
  }
  if (provider.clientMetadataUrl !== undefined && as.client_id_metadata_document_supported === true)
    return identity(
      as,
      {
        client_id: provider.clientMetadataUrl,
        token_endpoint_auth_method: provider.privateKey ? "private_key_jwt" : "none",
      },
      provider.privateKey,
    );
  const stored = await ctx.store.get(clientKey(as.issuer));
  if (stored && typeof stored["client_id"] === "string")
    return identity(as, stored as unknown as ClientInformation, undefined);
  if (as.registration_endpoint !== undefined) return identity(as, await register(ctx, as), undefined);
  throw new OAuthClientError(
    `no way to identify this client to ${printable(as.issuer)}: no pre-registration, CIMD or registration endpoint`,
    "no_client_identity",
  );
}

function toTokens(
  result: oauth.TokenEndpointResponse,
  resource: string,
  issuer: string,
  requested: string | undefined,
  previous?: StoredTokens,
): StoredTokens {
  const scope = result.scope ?? requested;
  const refresh = result.refresh_token ?? previous?.refresh_token;
  const tokens = {
    access_token: result.access_token,
    token_type: result.token_type,
    ...(refresh !== undefined && { refresh_token: refresh }),
    ...(typeof result.expires_in === "number" && { expires_at: Math.floor(Date.now() / 1000) + result.expires_in }),
    ...(scope !== undefined && { scope }),
    resource,
    issuer,
  };
  return checkIssuedTokens(tokens, `token response of ${printable(issuer)}`);
}

function callbackParams(value: URL | URLSearchParams | string): URLSearchParams {
  if (value instanceof URLSearchParams) return value;
  if (value instanceof URL) return value.searchParams;
  const text = value.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(text)) return new URL(text).searchParams;
  return new URLSearchParams(text.startsWith("?") ? text.slice(1) : text);
}

/** The authorization code grant with PKCE S256 and `resource`, `iss` validated before the code is used. */
export async function authorizationCodeFlow(
  ctx: FlowContext,
  as: oauth.AuthorizationServer,
  resource: string,
  scope: string | undefined,
  dpop?: Dpop,
): Promise<StoredTokens> {
  const redirect = redirectOf(ctx.provider);
  const methods = as.code_challenge_methods_supported;
  // The spec requires refusing an AS that does not advertise S256 (PKCE cannot be relied on otherwise).
  if (!Array.isArray(methods) || !methods.includes("S256"))
    throw new OAuthClientError(
      `${printable(as.issuer)} does not advertise PKCE S256 (code_challenge_methods_supported)`,
      "authorization_failed",
    );
  if (as.authorization_endpoint === undefined)
    throw new OAuthClientError(`${printable(as.issuer)} has no authorization_endpoint`, "invalid_metadata");
  if (
    scope !== undefined &&
    as.scopes_supported?.includes("offline_access") &&
    !scope.split(" ").includes("offline_access")
  )
    scope = `${scope} offline_access`;
  const { client, auth } = await clientFor(ctx, as);
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", client.client_id);
  url.searchParams.set("redirect_uri", redirect);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("state", state);
  url.searchParams.set("resource", resource);
  if (scope !== undefined) url.searchParams.set("scope", scope);
  const callback = callbackParams(await ctx.provider.authorize!(url));
  // iss (RFC 9207, compared as plain strings with the recorded issuer), state, then the AS's error if any.
  const params = await libStep("authorization response", "authorization_failed", () =>
    oauth.validateAuthResponse(as, client, callback, state),
  );
  const what = `token request to ${printable(String(as.token_endpoint))}`;
  const result = await libStep(what, "token_request_failed", () =>
    withNonceRetry(async () => {
      const options = { ...libOptions(ctx, dpop), additionalParameters: { resource } };
      const response = await oauth.authorizationCodeGrantRequest(as, client, auth, params, redirect, verifier, options);
      return oauth.processAuthorizationCodeResponse(as, client, response);
    }),
  );
  return toTokens(result, resource, as.issuer, scope);
}

/** A new access token from the refresh token; undefined when the AS refuses (then the caller re-authorizes). */
export async function refreshFlow(
  ctx: FlowContext,
  as: oauth.AuthorizationServer,
  tokens: StoredTokens,
  dpop?: Dpop,
): Promise<StoredTokens | undefined> {
  // The JWT bearer grant is simply run again (its assertion is the credential), never a registration.
  if (tokens.refresh_token === undefined || ctx.provider.jwtBearer) return undefined;
  const refreshToken = tokens.refresh_token;
  try {
    const { client, auth } = ctx.provider.clientCredentials
      ? await credentialsClient(ctx, as)
      : await clientFor(ctx, as);
    const result = await withNonceRetry(async () => {
      const options = { ...libOptions(ctx, dpop), additionalParameters: { resource: tokens.resource } };
      return oauth.processRefreshTokenResponse(
        as,
        client,
        await oauth.refreshTokenGrantRequest(as, client, auth, refreshToken, options),
      );
    });
    return toTokens(result, tokens.resource, as.issuer, tokens.scope, tokens);
  } catch (error) {
    if (error instanceof OAuthClientError && (error.code === "insecure_url" || error.code === "response_too_large"))
      throw error;
    return undefined;
  }
}

async function credentialsClient(ctx: FlowContext, as: oauth.AuthorizationServer): Promise<ClientIdentity> {
  const creds = ctx.provider.clientCredentials!;
  const info: ClientInformation = {
    client_id: creds.client_id,
    ...(creds.client_secret !== undefined && { client_secret: creds.client_secret }),
    ...(creds.token_endpoint_auth_method !== undefined && {
      token_endpoint_auth_method: creds.token_endpoint_auth_method,
    }),
  };
  return identity(as, info, creds.privateKey);
}

/** The client credentials grant (machine-to-machine, no user). */
export async function clientCredentialsFlow(
  ctx: FlowContext,
  as: oauth.AuthorizationServer,
  resource: string,
  scope: string | undefined,
  dpop?: Dpop,
): Promise<StoredTokens> {
  const { client, auth } = await credentialsClient(ctx, as);
  const parameters: Record<string, string> = { resource, ...(scope !== undefined && { scope }) };
  const what = `client credentials token request to ${printable(String(as.token_endpoint))}`;
  const result = await libStep(what, "token_request_failed", () =>
    withNonceRetry(async () =>
      oauth.processClientCredentialsResponse(
        as,
        client,
        await oauth.clientCredentialsGrantRequest(as, client, auth, parameters, libOptions(ctx, dpop)),
      ),
    ),
  );
  return toTokens(result, resource, as.issuer, scope);
}
