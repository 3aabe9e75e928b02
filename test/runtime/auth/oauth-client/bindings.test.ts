/**
 * Which token `oauthFetch` sends (its bindings: runtime/auth/oauth-client/bindings.ts, resource-request.ts) when it
 * knows several resources, stored records it must not trust, expiry at the exact skew, a failed authorization, an
 * authorization server that changed, and scopes it must not ask for; checked on the requests made to an in-memory
 * network. Equivalent mutants left alive by these tests: docs/mutation.md.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { calculateJwkThumbprint, decodeProtectedHeader, type JWK } from "jose";
import { memoryStore, oauthFetch, type OAuthStore } from "../../../../runtime/auth/index.ts";
import {
  approver,
  AS,
  asDoc,
  challenge,
  clientError,
  jsonReply,
  MCP,
  type Net,
  post,
  RS,
  standardRoutes,
  stubNet,
  TOKEN,
} from "./oauth-harness.ts";

const RS2 = "https://rs2.example";
const auths = (net: Net, origin: string, path: string) =>
  net.sent.filter((s) => s.url.origin === origin && s.url.pathname === path).map((s) => s.headers.get("authorization"));

function storeWith(resource: string, tokens: Record<string, unknown>): OAuthStore {
  const store = memoryStore();
  void store.set(`tokens ${resource}`, { token_type: "Bearer", resource, issuer: AS, ...tokens });
  return store;
}

/** Two MCP servers (RS and RS2, each under /mcp, PRM naming AS) accepting the token issued for their resource. */
function twoServers(): Net {
  let issued = 0;
  const tokens = new Map<string, string>();
  const server = (origin: string) => ({
    [`POST ${origin}/mcp`]: (req: { headers: Headers }) =>
      req.headers.get("authorization") === `Bearer ${tokens.get(`${origin}/mcp`)}`
        ? jsonReply({ ok: origin })
        : challenge("Bearer"),
    [`GET ${origin}/.well-known/oauth-protected-resource/mcp`]: () =>
      jsonReply({ resource: `${origin}/mcp`, authorization_servers: [AS] }),
  });
  return stubNet({
    ...standardRoutes(),
    ...server(RS),
    ...server(RS2),
    [TOKEN]: (req) => {
      const resource = new URLSearchParams(req.body).get("resource")!;
      const token = `tok-${++issued}`;
      tokens.set(resource, token);
      return jsonReply({ access_token: token, token_type: "Bearer" });
    },
  });
}

describe("several resources", () => {
  it("keeps one binding per resource: each server gets its own token, and no extra authorization", async () => {
    const net = twoServers();
    const provider = approver();
    const f = oauthFetch(provider, { fetch: net.fetch });
    for (const url of [`${RS}/mcp`, `${RS2}/mcp`, `${RS}/mcp`, `${RS2}/mcp`])
      expect((await post(f, url)).status).toBe(200);
    expect(provider.urls).toHaveLength(2);
    expect(auths(net, RS, "/mcp")).toEqual([null, "Bearer tok-1", "Bearer tok-1"]);
    expect(auths(net, RS2, "/mcp")).toEqual([null, "Bearer tok-2", "Bearer tok-2"]);
  });

  it("authorizes concurrent first requests to two servers separately", async () => {
    const net = twoServers();
    const provider = approver();
    const f = oauthFetch(provider, { fetch: net.fetch });
    const statuses = await Promise.all([post(f, `${RS}/mcp`), post(f, `${RS2}/mcp`)]);
    expect(statuses.map((r) => r.status)).toEqual([200, 200]);
    expect(provider.urls).toHaveLength(2);
    // Neither waited for the other's authorization: one refused request each, then the call with its own token.
    for (const origin of [RS, RS2]) expect(auths(net, origin, "/mcp").filter((a) => a === null)).toHaveLength(1);
  });

  it("sends the token of the most specific resource, and the root's token elsewhere on the origin", async () => {
    const store = storeWith(`${RS}/`, { access_token: "root-tok" });
    const net = stubNet({
      ...standardRoutes(),
      [`POST ${RS}/other`]: () => jsonReply({ ok: 1 }),
    });
    const f = oauthFetch(approver({ store }), { fetch: net.fetch });
    for (const path of ["/other", "/mcp", "/mcp", "/other"]) expect((await post(f, `${RS}${path}`)).status).toBe(200);
    expect(auths(net, RS, "/mcp")).toEqual(["Bearer root-tok", "Bearer tok-1", "Bearer tok-1"]);
    expect(auths(net, RS, "/other")).toEqual(["Bearer root-tok", "Bearer root-tok"]);
  });
});

describe("stored records and expiry", () => {
  it("ignores a record whose resource is not a URL, and finds one stored under a deeper path", async () => {
    const garbage = stubNet(standardRoutes());
    const store = storeWith(`${RS}/mcp`, { access_token: "stored", resource: "not a url" });
    expect((await post(oauthFetch(approver({ store }), { fetch: garbage.fetch }))).status).toBe(200);
    expect(auths(garbage, RS, "/mcp")).toEqual([null, "Bearer tok-1"]);

    const deep = stubNet({ [`POST ${RS}/a/b/c`]: () => jsonReply({ ok: 1 }) });
    const nested = oauthFetch({ store: storeWith(`${RS}/a/b`, { access_token: "deep" }) }, { fetch: deep.fetch });
    expect((await post(nested, `${RS}/a/b/c`)).status).toBe(200);
    expect(auths(deep, RS, "/a/b/c")).toEqual(["Bearer deep"]);
  });

  afterEach(() => vi.useRealTimers());

  it("refreshes a token exactly at expires_at minus the skew", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(1_800_000_000_000);
    const store = storeWith(`${RS}/mcp`, { access_token: "old", refresh_token: "r1", expires_at: 1_800_000_030 });
    const net = stubNet({
      ...standardRoutes({ token: "tok-2" }),
      [TOKEN]: () => jsonReply({ access_token: "tok-2", token_type: "Bearer" }),
    });
    expect((await post(oauthFetch(approver({ store }), { fetch: net.fetch }))).status).toBe(200);
    expect(auths(net, RS, "/mcp")).toEqual(["Bearer tok-2"]);
  });

  it("never sends an expired token it cannot refresh (no refresh token, or no AS metadata), and asks nothing extra", async () => {
    const store = storeWith(`${RS}/mcp`, { access_token: "old", expires_at: 1 });
    const net = stubNet(standardRoutes());
    expect((await post(oauthFetch(approver({ store }), { fetch: net.fetch }))).status).toBe(200);
    expect(auths(net, RS, "/mcp")).toEqual([null, "Bearer tok-1"]);
    expect(net.calls().filter((c) => c.includes("oauth-authorization-server"))).toHaveLength(1);

    const noAs = stubNet({
      ...standardRoutes(),
      [`GET ${AS}/.well-known/oauth-authorization-server`]: () => jsonReply({}, 404),
    });
    const refreshable = storeWith(`${RS}/mcp`, { access_token: "old", refresh_token: "r1", expires_at: 1 });
    const error = await clientError(post(oauthFetch(approver({ store: refreshable }), { fetch: noAs.fetch })));
    expect(error.code).toBe("no_authorization_server");
    expect(auths(noAs, RS, "/mcp")).toEqual([null]);
  });
});

describe("authorizations that fail or change", () => {
  it("recovers on the next request after a failed token request", async () => {
    let fail = true;
    const net = stubNet({
      ...standardRoutes(),
      [TOKEN]: () =>
        fail ? jsonReply({ error: "server_error" }, 400) : jsonReply({ access_token: "tok-1", token_type: "Bearer" }),
    });
    const f = oauthFetch(approver(), { fetch: net.fetch });
    expect((await clientError(post(f))).code).toBe("token_request_failed");
    fail = false;
    expect((await post(f)).status).toBe(200);
  });

  it("drops the old AS's token when PRM names another AS, even when the new AS then fails", async () => {
    const AS_B = "https://as-b.example";
    let current = AS;
    const store = memoryStore();
    const net = stubNet({
      ...standardRoutes(),
      [MCP]: (req) =>
        req.headers.get("authorization") === "Bearer tok-1" && current === AS ? jsonReply({}) : challenge("Bearer"),
      [`GET ${RS}/.well-known/oauth-protected-resource/mcp`]: () =>
        jsonReply({ resource: `${RS}/mcp`, authorization_servers: [current] }),
      [`GET ${AS_B}/.well-known/oauth-authorization-server`]: () => jsonReply(asDoc(AS_B)),
      [`POST ${AS_B}/register`]: () => jsonReply({ client_id: "b-client" }, 201),
      [`POST ${AS_B}/token`]: () => jsonReply({ error: "server_error" }, 400),
    });
    const f = oauthFetch(approver({ store }), { fetch: net.fetch });
    expect((await post(f)).status).toBe(200);
    current = AS_B;
    await clientError(post(f));
    expect(await store.get(`tokens ${RS}/mcp`)).toBeUndefined();
    await clientError(post(f));
    expect(auths(net, RS, "/mcp")).toEqual([null, "Bearer tok-1", "Bearer tok-1", null]);
  });
});

describe("DPoP keys per authorization server", () => {
  it("makes a new DPoP key when PRM names another AS", async () => {
    const AS_B = "https://as-b.example";
    let current = AS;
    const dpopAs = (issuer: string) => ({
      [`GET ${issuer}/.well-known/oauth-authorization-server`]: () =>
        jsonReply(asDoc(issuer, { dpop_signing_alg_values_supported: ["ES256"] })),
      [`POST ${issuer}/register`]: () => jsonReply({ client_id: "c" }, 201),
      [`POST ${issuer}/token`]: () => jsonReply({ access_token: `bound-${issuer}`, token_type: "DPoP" }),
    });
    const net = stubNet({
      ...dpopAs(AS),
      ...dpopAs(AS_B),
      [MCP]: (req) =>
        req.headers.get("authorization") === `DPoP bound-${current}` ? jsonReply({}) : challenge('DPoP algs="ES256"'),
      [`GET ${RS}/.well-known/oauth-protected-resource/mcp`]: () =>
        jsonReply({ resource: `${RS}/mcp`, authorization_servers: [current] }),
    });
    const f = oauthFetch(approver(), { fetch: net.fetch });
    expect((await post(f)).status).toBe(200);
    current = AS_B;
    expect((await post(f)).status).toBe(200);
    const keyAt = (origin: string) => {
      const proof = net.sent.find((s) => s.url.origin === origin && s.url.pathname === "/token")!.headers.get("dpop")!;
      return calculateJwkThumbprint(decodeProtectedHeader(proof).jwk as JWK);
    };
    expect(await keyAt(AS_B)).not.toBe(await keyAt(AS));
  });
});

describe("scopes and DPoP keys across authorizations", () => {
  it("asks for no scope when PRM lists none, or a step-up names none and none is held", async () => {
    const empty = approver();
    await post(oauthFetch(empty, { fetch: stubNet(standardRoutes({ prm: { scopes_supported: [] } })).fetch }));
    expect(empty.urls[0]!.searchParams.has("scope")).toBe(false);

    let round = 0;
    const net = stubNet({
      ...standardRoutes({ as: { scopes_supported: ["offline_access"] } }),
      [MCP]: (req) =>
        req.headers.get("authorization") === null
          ? challenge("Bearer")
          : round++ === 0
            ? challenge('Bearer error="insufficient_scope"', 403)
            : jsonReply({}),
    });
    const provider = approver();
    expect((await post(oauthFetch(provider, { fetch: net.fetch }))).status).toBe(200);
    expect(provider.urls.map((u) => u.searchParams.has("scope"))).toEqual([false, false]);
  });

  it("keeps one DPoP key for one AS across a step-up and later requests", async () => {
    let round = 0;
    const net = stubNet({
      ...standardRoutes({ as: { dpop_signing_alg_values_supported: ["ES256"] } }),
      [MCP]: (req) =>
        !req.headers.get("authorization")?.startsWith("DPoP ")
          ? challenge('DPoP algs="ES256"')
          : round++ === 0
            ? challenge('DPoP error="insufficient_scope", scope="more"', 403)
            : jsonReply({}),
      [TOKEN]: () => jsonReply({ access_token: "bound", token_type: "DPoP" }),
    });
    const f = oauthFetch(approver(), { fetch: net.fetch });
    expect((await post(f)).status).toBe(200);
    // The next request reuses the bound token and its key: no new authorization.
    const tokenRequests = net.calls().filter((c) => c === TOKEN).length;
    expect((await post(f)).status).toBe(200);
    expect(net.calls().filter((c) => c === TOKEN)).toHaveLength(tokenRequests);
    const proofs = net.sent.map((s) => s.headers.get("dpop")).filter((p): p is string => p !== null);
    expect(proofs.length).toBeGreaterThanOrEqual(5);
    const thumbprints = await Promise.all(
      proofs.map((p) => calculateJwkThumbprint(decodeProtectedHeader(p).jwk as JWK)),
    );
    expect(new Set(thumbprints).size).toBe(1);
  });
});
