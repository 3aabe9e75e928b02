/**
 * Finding who issues tokens for an MCP server: the `WWW-Authenticate` challenge, Protected Resource Metadata
 * (RFC 9728) in the spec's order, and authorization server metadata (RFC 8414 / OpenID Discovery, with the
 * path-insertion and path-appending forms), plus the 2025-03-26 fallbacks for servers without PRM.
 * Validation of the documents themselves (status, JSON, `resource`/`issuer` equality) is oauth4webapi's.
 */
import * as oauth from "oauth4webapi";
import { checkUrl, jsonBody, printable, type OAuthHttp } from "./http.ts";
import { OAuthClientError, type OAuthClientErrorCode } from "./types.ts";

export type { OAuthHttp };

/** The Bearer (or DPoP) challenge of a 401/403, parsed by oauth4webapi's RFC 9110 challenge parser. */
export interface BearerChallenge {
  readonly error?: string;
  readonly scope?: string;
  readonly resourceMetadata?: string;
  /** The server challenged with the DPoP scheme (RFC 9449 §7.1): it accepts DPoP-bound tokens. */
  readonly dpop?: boolean;
}

export async function parseBearerChallenge(header: string | null): Promise<BearerChallenge | undefined> {
  if (header === null) return undefined;
  let challenges: oauth.WWWAuthenticateChallenge[] = [];
  try {
    // oauth4webapi parses challenges only from a protected-resource response; hand it one holding this header.
    const response = new Response(null, { status: 401, headers: { "www-authenticate": header } });
    await oauth.protectedResourceRequest("-", "GET", new URL("https://challenge.invalid/"), undefined, undefined, {
      [oauth.customFetch]: async () => response,
    });
  } catch (error) {
    if (error instanceof oauth.WWWAuthenticateChallengeError) challenges = error.cause;
  }
  const dpop = challenges.some((c) => c.scheme === "dpop");
  const bearer = challenges.find((c) => c.scheme === "bearer") ?? challenges.find((c) => c.scheme === "dpop");
  if (!bearer) return undefined;
  const p = bearer.parameters;
  return {
    ...(dpop && { dpop }),
    ...(p.error !== undefined && { error: p.error }),
    ...(p.scope !== undefined && { scope: p.scope }),
    ...(p.resource_metadata !== undefined && { resourceMetadata: p.resource_metadata }),
  };
}

/** Run an oauth4webapi step; its errors become OAuthClientErrors with a printable message. */
export async function libStep<T>(what: string, code: OAuthClientErrorCode, step: () => Promise<T> | T): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof OAuthClientError) throw error;
    let detail = error instanceof Error ? error.message : String(error);
    if (error instanceof oauth.ResponseBodyError || error instanceof oauth.AuthorizationResponseError) {
      detail = `${error.error}${error.error_description ? `: ${error.error_description}` : ""}`;
    }
    const mismatch = error instanceof oauth.OperationProcessingError && error.code === oauth.JSON_ATTRIBUTE_COMPARISON;
    const finalCode =
      mismatch && /issuer/.test(detail)
        ? "issuer_mismatch"
        : mismatch && /resource/.test(detail)
          ? "resource_mismatch"
          : code;
    throw new OAuthClientError(`${what}: ${printable(detail, 200)}`, finalCode, { cause: error });
  }
}

/** The canonical URI of an MCP server (RFC 8707 §2): the URL without its fragment. */
export function canonicalResource(url: URL): URL {
  const out = new URL(url.href);
  out.hash = "";
  return out;
}

/** True when `target` lies under `resource`: same origin and the path is the resource's or below it. */
export function isUnder(target: URL, resource: URL): boolean {
  if (target.origin !== resource.origin) return false;
  const base = resource.pathname.replace(/\/+$/, "");
  return base === "" || target.pathname === base || target.pathname.startsWith(`${base}/`);
}

export interface ResourceInfo {
  /** The resource to request tokens for (the PRM `resource`, or the server URL without PRM). */
  readonly resource: URL;
  /** The PRM `resource` exactly as published: sent as the `resource` parameter unchanged (no added "/"). */
  readonly resourceId: string;
  /** Issuer identifiers from PRM; empty when the server has no PRM (2025-03-26 era). */
  readonly authorizationServers: readonly string[];
  readonly scopesSupported?: readonly string[];
  /** PRM `dpop_bound_access_tokens_required`. */
  readonly dpopRequired?: boolean;
}

async function fetchPrm(http: OAuthHttp, url: URL, serverUrl: URL): Promise<ResourceInfo | undefined> {
  const response = await http(url, { headers: { accept: "application/json" } });
  if (response.status !== 200) return undefined;
  const what = `protected resource metadata at ${printable(url.href)}`;
  const claimed = (await jsonBody(response.clone(), what))["resource"];
  if (typeof claimed !== "string") throw new OAuthClientError(`${what}: no "resource"`, "invalid_metadata");
  let resource: URL;
  try {
    resource = new URL(claimed);
  } catch {
    throw new OAuthClientError(`${what}: "resource" is not a URL`, "invalid_metadata");
  }
  // The document must describe this server: its resource is the server's URL or a prefix of it (same origin).
  if (!isUnder(serverUrl, resource) || resource.hash !== "")
    throw new OAuthClientError(
      `${what}: resource ${printable(claimed)} does not match the server ${printable(serverUrl.href)}`,
      "resource_mismatch",
    );
  const prm = await libStep(what, "invalid_metadata", () => oauth.processResourceDiscoveryResponse(resource, response));
  const servers = prm.authorization_servers;
  if (!Array.isArray(servers) || servers.length === 0 || !servers.every((s) => typeof s === "string"))
    throw new OAuthClientError(`${what}: no authorization_servers`, "invalid_metadata");
  const scopes = prm.scopes_supported;
  return {
    resource,
    resourceId: claimed,
    authorizationServers: servers,
    ...(Array.isArray(scopes) && scopes.every((s) => typeof s === "string") && { scopesSupported: scopes }),
    ...(prm.dpop_bound_access_tokens_required === true && { dpopRequired: true }),
  };
}

/**
 * Protected Resource Metadata: `resource_metadata` from the challenge when present, else the path-based
 * well-known URI, then the root one. Undefined when the server publishes none (2025-03-26 servers).
 */
export async function discoverResource(
  http: OAuthHttp,
  serverUrl: URL,
  resourceMetadata: string | undefined,
): Promise<ResourceInfo | undefined> {
  if (resourceMetadata !== undefined) {
    const url = checkUrl(resourceMetadata, "resource_metadata in WWW-Authenticate", http.allowsLoopback);
    const found = await fetchPrm(http, url, serverUrl);
    if (found) return found;
  }
  const path = serverUrl.pathname.replace(/\/+$/, "");
  const candidates = path === "" ? [] : [new URL(`/.well-known/oauth-protected-resource${path}`, serverUrl.origin)];
  candidates.push(new URL("/.well-known/oauth-protected-resource", serverUrl.origin));
  for (const url of candidates) {
    const found = await fetchPrm(http, url, serverUrl);
    if (found) return found;
  }
  return undefined;
}

/** Well-known metadata URLs for an issuer, in the spec's priority order. */
export function metadataCandidates(issuer: URL): URL[] {
  const path = issuer.pathname.replace(/\/+$/, "");
  if (path === "") {
    return [
      new URL("/.well-known/oauth-authorization-server", issuer.origin),
      new URL("/.well-known/openid-configuration", issuer.origin),
    ];
  }
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, issuer.origin),
    new URL(`/.well-known/openid-configuration${path}`, issuer.origin),
    new URL(`${path}/.well-known/openid-configuration`, issuer.origin),
  ];
}

/**
 * Authorization server metadata for `issuer`. The first well-known URL that answers 200 must hold a valid
 * document whose `issuer` is this issuer; a wrong document is an error, not a reason to try the next URL.
 */
export async function discoverAuthorizationServer(
  http: OAuthHttp,
  issuer: string,
): Promise<oauth.AuthorizationServer | undefined> {
  const issuerUrl = checkUrl(issuer, "authorization server", http.allowsLoopback);
  for (const url of metadataCandidates(issuerUrl)) {
    const response = await http(url, { headers: { accept: "application/json" } });
    if (response.status !== 200) continue;
    const what = `authorization server metadata at ${printable(url.href)}`;
    await jsonBody(response.clone(), what);
    return checkEndpoints(
      await libStep(what, "invalid_metadata", () => oauth.processDiscoveryResponse(issuerUrl, response)),
      what,
      http.allowsLoopback,
    );
  }
  return undefined;
}

/** Endpoints of validated metadata must themselves be safe URLs. */
function checkEndpoints(
  as: oauth.AuthorizationServer,
  what: string,
  allowsLoopback: boolean,
): oauth.AuthorizationServer {
  for (const endpoint of ["authorization_endpoint", "token_endpoint", "registration_endpoint"] as const) {
    const value = as[endpoint];
    if (value !== undefined) checkUrl(value, `${what}: ${endpoint}`, allowsLoopback);
  }
  return as;
}

/**
 * 2025-03-26: no PRM, the authorization base URL is the MCP server's origin. Its RFC 8414 metadata if it has
 * some, else the default endpoints `/authorize`, `/token`, `/register`. That revision names no issuer to
 * compare with, so the document's own `issuer` is taken, but only on the server's origin: the document comes
 * from the server itself, and cannot point the client at another host's identity.
 */
export async function legacyAuthorizationServer(http: OAuthHttp, serverUrl: URL): Promise<oauth.AuthorizationServer> {
  const origin = new URL(serverUrl.origin);
  const url = new URL("/.well-known/oauth-authorization-server", origin);
  const response = await http(url, { headers: { accept: "application/json" } });
  if (response.status === 200) {
    const what = `authorization server metadata at ${printable(url.href)}`;
    const claimed = (await jsonBody(response.clone(), what))["issuer"];
    const issuer = checkUrl(
      typeof claimed === "string" ? claimed : origin.href,
      `${what}: issuer`,
      http.allowsLoopback,
    );
    if (issuer.origin !== origin.origin)
      throw new OAuthClientError(
        `${what}: issuer ${printable(issuer.href)} is not on the server's origin`,
        "issuer_mismatch",
      );
    return checkEndpoints(
      await libStep(what, "invalid_metadata", () => oauth.processDiscoveryResponse(issuer, response)),
      what,
      http.allowsLoopback,
    );
  }
  return {
    issuer: origin.href,
    authorization_endpoint: new URL("/authorize", origin).href,
    token_endpoint: new URL("/token", origin).href,
    registration_endpoint: new URL("/register", origin).href,
    code_challenge_methods_supported: ["S256"],
  };
}
