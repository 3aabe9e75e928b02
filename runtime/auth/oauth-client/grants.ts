/**
 * Grants without a user: the JWT bearer grant (RFC 7523 §2.1) with an assertion the application obtains, as
 * used by workload identity federation (SEP-1933) and by enterprise-managed authorization (SEP-990), whose
 * assertion is an ID-JAG from the enterprise IdP by token exchange (RFC 8693): `enterpriseAssertion()`.
 */
import * as oauth from "oauth4webapi";
import { libStep, type OAuthHttp } from "./discovery.ts";
import { withNonceRetry, type Dpop } from "./dpop.ts";
import { checkIssuedTokens, checkUrl, printable } from "./http.ts";
import {
  OAuthClientError,
  type AssertionContext,
  type JwtBearerOptions,
  type StoredTokens,
  type TokenEndpointAuthMethod,
} from "./types.ts";

const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

function clientAuth(options: {
  client_secret?: string;
  token_endpoint_auth_method?: TokenEndpointAuthMethod;
}): oauth.ClientAuth {
  const secret = options.client_secret;
  const method = options.token_endpoint_auth_method ?? (secret === undefined ? "none" : "client_secret_basic");
  if (method === "none") return oauth.None();
  if (secret === undefined) throw new OAuthClientError(`${method} needs a client secret`, "no_client_identity");
  if (method === "client_secret_post") return oauth.ClientSecretPost(secret);
  // Unreserved characters left as they are (see secretBasic in flow.ts).
  return (_as, client, _body, headers) =>
    void headers.set(
      "authorization",
      `Basic ${btoa(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(secret)}`)}`,
    );
}

const libOptions = (http: OAuthHttp, dpop?: Dpop) => ({
  [oauth.customFetch]: http,
  [oauth.allowInsecureRequests]: true as const,
  ...(dpop && { DPoP: dpop.handle }),
});

export async function jwtBearerFlow(
  http: OAuthHttp,
  options: JwtBearerOptions,
  as: oauth.AuthorizationServer,
  resource: string,
  scope: string | undefined,
  dpop?: Dpop,
): Promise<StoredTokens> {
  const assertion = await options.assertion({ issuer: as.issuer, resource, ...(scope !== undefined && { scope }) });
  const client: oauth.Client = { client_id: options.client_id };
  const parameters: Record<string, string> = { assertion, resource, ...(scope !== undefined && { scope }) };
  const what = `JWT bearer token request to ${printable(String(as.token_endpoint))}`;
  const result = await libStep(what, "token_request_failed", () =>
    withNonceRetry(async () =>
      oauth.processGenericTokenEndpointResponse(
        as,
        client,
        await oauth.genericTokenEndpointRequest(
          as,
          client,
          clientAuth(options),
          JWT_BEARER,
          parameters,
          libOptions(http, dpop),
        ),
      ),
    ),
  );
  const tokens = {
    access_token: result.access_token,
    token_type: result.token_type,
    ...(typeof result.expires_in === "number" && { expires_at: Math.floor(Date.now() / 1000) + result.expires_in }),
    ...((result.scope ?? scope) !== undefined && { scope: (result.scope ?? scope)! }),
    resource,
    issuer: as.issuer,
  };
  return checkIssuedTokens(tokens, what);
}

export interface EnterpriseAssertionOptions {
  /** The enterprise IdP's token endpoint and issuer. */
  readonly idpTokenEndpoint: string;
  readonly idpIssuer: string;
  /** This client's registration at the IdP. */
  readonly idpClientId: string;
  readonly idpClientSecret?: string;
  /** The user's ID token from the IdP (single sign-on). */
  idToken(): Promise<string> | string;
  /** Bounded, https-or-loopback fetch; default global fetch. */
  readonly fetch?: typeof fetch;
}

/**
 * An assertion callback that exchanges the user's IdP ID token for an ID-JAG (RFC 8693 token exchange,
 * `requested_token_type=…:id-jag`, audience = the MCP server's authorization server, resource = the MCP server).
 */
export function enterpriseAssertion(
  options: EnterpriseAssertionOptions,
): (context: AssertionContext) => Promise<string> {
  return async (context) => {
    const idp: oauth.AuthorizationServer = {
      issuer: options.idpIssuer,
      token_endpoint: checkUrl(options.idpTokenEndpoint, "IdP token endpoint").href,
    };
    const client: oauth.Client = { client_id: options.idpClientId };
    const parameters: Record<string, string> = {
      subject_token: await options.idToken(),
      subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
      requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
      audience: context.issuer,
      resource: context.resource,
      ...(context.scope !== undefined && { scope: context.scope }),
    };
    const base = options.fetch ?? fetch;
    const what = `token exchange at ${printable(idp.token_endpoint!)}`;
    const result = await libStep(what, "token_request_failed", async () => {
      const response = await oauth.genericTokenEndpointRequest(
        idp,
        client,
        clientAuth({ ...(options.idpClientSecret !== undefined && { client_secret: options.idpClientSecret }) }),
        "urn:ietf:params:oauth:grant-type:token-exchange",
        parameters,
        {
          [oauth.customFetch]: (url, init) => base(url, init as RequestInit),
          [oauth.allowInsecureRequests]: true,
        },
      );
      // The ID-JAG is not an access token: its token_type is "N_A" (RFC 8693 §2.2.1).
      return oauth.processGenericTokenEndpointResponse(idp, client, response, {
        recognizedTokenTypes: { n_a: () => undefined },
      });
    });
    return result.access_token;
  };
}
