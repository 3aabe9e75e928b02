/**
 * An in-memory network for the OAuth client's unit tests: `oauthFetch(provider, { fetch: net.fetch })` talks to
 * scripted routes keyed `"METHOD https://host/path"` (query ignored) instead of sockets, so https origins work without
 * TLS and every request the client makes (URL, headers, body, fetch options) is recorded as the oracle.
 */
import { OAuthClientError, type OAuthClientProvider } from "../../../../runtime/auth/index.ts";

export interface Sent {
  readonly method: string;
  readonly url: URL;
  readonly headers: Headers;
  readonly body: string;
  readonly redirect: RequestRedirect | undefined;
  /** The request's signal (follows the caller's). */
  readonly signal: AbortSignal;
}

export type StubRoute = (req: Sent) => Response | Promise<Response>;

export interface Net {
  readonly fetch: typeof fetch;
  readonly sent: Sent[];
  routes: Record<string, StubRoute>;
  /** `METHOD href-without-query` of every request, in order. */
  calls(): string[];
  /** The form body of the first request to `key` (e.g. "POST https://as.example/token"). */
  form(key: string, nth?: number): URLSearchParams;
}

const keyOf = (method: string, url: URL) => `${method} ${url.origin}${url.pathname}`;

export function stubNet(routes: Record<string, StubRoute> = {}): Net {
  const sent: Sent[] = [];
  const net: Net = {
    sent,
    routes,
    calls: () => sent.map((s) => keyOf(s.method, s.url)),
    form(key, nth = 0) {
      const match = sent.filter((s) => keyOf(s.method, s.url) === key)[nth];
      if (!match) throw new Error(`no request ${key} #${nth}; saw ${net.calls().join(", ")}`);
      return new URLSearchParams(match.body);
    },
    fetch: (async (input: string | URL | Request, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      const body = request.body === null ? "" : await request.text();
      const seen: Sent = {
        method: request.method,
        url: new URL(request.url),
        headers: new Headers(request.headers),
        body,
        redirect: init?.redirect,
        signal: request.signal,
      };
      sent.push(seen);
      const route = net.routes[keyOf(seen.method, seen.url)];
      return route ? route(seen) : new Response("not found", { status: 404 });
    }) as typeof fetch,
  };
  return net;
}

export const jsonReply = (body: unknown, status = 200, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

export const challenge = (value: string, status = 401): Response =>
  new Response(null, { status, headers: { "www-authenticate": value } });

/** AS metadata at `issuer` with endpoints under it. */
export function asDoc(issuer: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    registration_endpoint: `${issuer}/register`,
    code_challenge_methods_supported: ["S256"],
    response_types_supported: ["code"],
    ...extra,
  };
}

export const RS = "https://rs.example";
export const AS = "https://as.example";

/** Route keys (`METHOD url`) of the standard network, for tests that override one route or count requests. */
export const MCP = `POST ${RS}/mcp`;
export const TOKEN = `POST ${AS}/token`;
export const PRM_PATH = `GET ${RS}/.well-known/oauth-protected-resource/mcp`;
export const PRM_ROOT = `GET ${RS}/.well-known/oauth-protected-resource`;
export const AS_META = `GET ${AS}/.well-known/oauth-authorization-server`;

/**
 * An MCP server at `${RS}/mcp` that accepts `Bearer <token>` (default "tok-1") and challenges otherwise, its PRM
 * naming `${AS}`, and an AS with DCR and a token endpoint issuing "tok-1".
 */
export function standardRoutes(
  options: { token?: string; prm?: Record<string, unknown>; as?: Record<string, unknown> } = {},
): Record<string, StubRoute> {
  const token = options.token ?? "tok-1";
  return {
    [MCP]: (req) =>
      req.headers.get("authorization") === `Bearer ${token}` ? jsonReply({ ok: true }) : challenge("Bearer"),
    [PRM_PATH]: () => jsonReply({ resource: `${RS}/mcp`, authorization_servers: [AS], ...options.prm }),
    [AS_META]: () => jsonReply(asDoc(AS, options.as)),
    [`POST ${AS}/register`]: () => jsonReply({ client_id: "dcr-client" }, 201),
    [TOKEN]: () => jsonReply({ access_token: token, token_type: "Bearer", expires_in: 3600 }),
  };
}

/** A provider whose "browser" approves at once, echoing `state` (and `iss` when given). */
export function approver(
  extra: Partial<OAuthClientProvider> = {},
  iss?: string,
): OAuthClientProvider & { readonly urls: URL[] } {
  const urls: URL[] = [];
  return {
    urls,
    redirectUrl: "http://127.0.0.1:9/cb",
    authorize(url) {
      urls.push(url);
      const params = new URLSearchParams({ code: "the-code", state: url.searchParams.get("state") ?? "" });
      if (iss !== undefined) params.set("iss", iss);
      return Promise.resolve(params);
    },
    ...extra,
  };
}

/** The OAuthClientError a call rejects with (any other outcome fails the test). */
export async function clientError(call: Promise<unknown>): Promise<OAuthClientError> {
  const outcome = await call.then(
    (value) => new Error(`expected an OAuthClientError, got ${String(value)}`),
    (error: unknown) => error,
  );
  if (!(outcome instanceof OAuthClientError)) throw outcome;
  return outcome;
}

export const post = (f: typeof fetch, url = `${RS}/mcp`): Promise<Response> => f(url, { method: "POST", body: "{}" });
