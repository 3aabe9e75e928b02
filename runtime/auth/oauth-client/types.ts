/** The pieces a user of the OAuth client supplies (provider, storage) and the records it keeps. */

/** A JSON value as stored by a token store. */
export type StoredValue = { readonly [key: string]: unknown };

/**
 * Where client registrations and tokens are kept. Keys are opaque strings built by the client
 * (`client <issuer>`, `tokens <resource>`); values are plain JSON objects.
 */
export interface OAuthStore {
  get(key: string): Promise<StoredValue | undefined> | StoredValue | undefined;
  set(key: string, value: StoredValue): Promise<void> | void;
  delete(key: string): Promise<void> | void;
}

/** Tokens for one resource, issued by one authorization server. */
export interface StoredTokens {
  readonly access_token: string;
  readonly token_type: string;
  readonly refresh_token?: string;
  /** Epoch seconds; absent when the AS did not say. */
  readonly expires_at?: number;
  /** The scopes requested (or granted, when the AS said), space separated. */
  readonly scope?: string;
  /** The canonical resource the token was issued for: it is only ever sent to URLs under it. */
  readonly resource: string;
  /** The `issuer` of the authorization server that issued it. */
  readonly issuer: string;
}

/** How the client authenticates at the token endpoint. */
export type TokenEndpointAuthMethod = "none" | "client_secret_basic" | "client_secret_post" | "private_key_jwt";

/** A client registration at one authorization server (pre-registered, CIMD or DCR). */
export interface ClientInformation {
  readonly client_id: string;
  readonly client_secret?: string;
  readonly token_endpoint_auth_method?: TokenEndpointAuthMethod;
  /** Only for pre-registered clients: the issuer these credentials belong to (checked when present). */
  readonly issuer?: string;
}

/** A private key for `private_key_jwt` (PKCS#8 PEM or a WebCrypto key) and its JWS algorithm. */
export interface ClientPrivateKey {
  readonly key: CryptoKey | string;
  /** JWS algorithm, e.g. "ES256" or "RS256". */
  readonly alg: string;
  readonly kid?: string;
}

/** What the assertion callback learns about the grant it is for. */
export interface AssertionContext {
  readonly issuer: string;
  readonly resource: string;
  readonly scope?: string;
}

/** The JWT bearer grant (RFC 7523) with an assertion the application obtains (`OAuthClientProvider.jwtBearer`). */
export interface JwtBearerOptions {
  /** The assertion for this AS and resource: a workload identity token, or `enterpriseAssertion(...)`. */
  assertion(context: AssertionContext): Promise<string> | string;
  readonly client_id: string;
  readonly client_secret?: string;
  /** Default: client_secret_basic with a secret, else none. */
  readonly token_endpoint_auth_method?: Extract<
    TokenEndpointAuthMethod,
    "none" | "client_secret_basic" | "client_secret_post"
  >;
}

/**
 * What the application supplies. Either interactive (`redirectUrl` + `authorize`) for the authorization code
 * flow, or `clientCredentials` for machine-to-machine access (the client-credentials extension), or both.
 */
export interface OAuthClientProvider {
  /** Registration metadata for Dynamic Client Registration (client_name, …); redirect_uris are filled in. */
  readonly clientMetadata?: {
    readonly client_name?: string;
    readonly client_uri?: string;
    readonly logo_uri?: string;
    readonly software_id?: string;
    readonly software_version?: string;
    readonly [extra: string]: unknown;
  };
  /** A pre-registered client (priority 1). Bind it to its AS with `issuer`. */
  readonly clientInformation?: ClientInformation;
  /** An HTTPS URL of this client's Client ID Metadata Document (priority 2, when the AS supports CIMD). */
  readonly clientMetadataUrl?: string;
  /** Where the authorization server sends the user back (loopback or app URL). */
  readonly redirectUrl?: string | URL;
  /**
   * Send the user to `url` and resolve with the redirect they came back with (the full callback URL or its
   * query parameters). `loopbackAuthorizer()` implements this for CLI apps.
   */
  authorize?(url: URL): Promise<URL | URLSearchParams | string>;
  /** Client credentials grant instead of user authorization (when set, it is used and `authorize` is not). */
  readonly clientCredentials?: {
    readonly client_id: string;
    readonly client_secret?: string;
    readonly privateKey?: ClientPrivateKey;
    /** Default: client_secret_basic with a secret, private_key_jwt with a key. */
    readonly token_endpoint_auth_method?: TokenEndpointAuthMethod;
  };
  /**
   * The JWT bearer grant (RFC 7523) with an assertion the application obtains: workload identity federation, or
   * enterprise-managed authorization with `enterpriseAssertion()`. Takes precedence over the other grants.
   */
  readonly jwtBearer?: JwtBearerOptions;
  /** Private key for `private_key_jwt` of a pre-registered client. */
  readonly privateKey?: ClientPrivateKey;
  /** Storage for registrations and tokens (default: in memory, per `oauthFetch`). */
  readonly store?: OAuthStore;
}

/** Everything the OAuth client refuses or fails at: a clear message, never a token in it. */
export class OAuthClientError extends Error {
  override readonly name = "OAuthClientError";
  constructor(
    message: string,
    readonly code: OAuthClientErrorCode,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export type OAuthClientErrorCode =
  | "insecure_url"
  | "response_too_large"
  | "invalid_metadata"
  | "resource_mismatch"
  | "issuer_mismatch"
  | "no_authorization_server"
  | "no_client_identity"
  | "authorization_failed"
  | "token_request_failed"
  | "registration_failed"
  | "no_interactive_flow";
