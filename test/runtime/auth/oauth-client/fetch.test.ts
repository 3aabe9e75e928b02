/**
 * When `oauthFetch` (runtime/auth/oauth-client/fetch.ts) sends which token, refreshes, re-authorizes or gives the
 * server's answer back, and how it finds the authorization server (discovery.ts), checked on the requests it makes
 * to an in-memory network: stored tokens of an earlier run, expiry with its skew, refresh before re-authorization,
 * step-up scopes, bodies that cannot be sent twice, and Protected Resource Metadata the client refuses.
 */
import { describe, expect, it } from "vitest";
import { memoryStore, oauthFetch, type OAuthStore } from "../../../../runtime/auth/index.ts";
import {
  approver,
  AS,
  AS_META,
  asDoc,
  challenge,
  clientError,
  jsonReply,
  MCP,
  post,
  PRM_PATH,
  PRM_ROOT,
  RS,
  standardRoutes,
  stubNet,
  type StubRoute,
  TOKEN,
} from "./oauth-harness.ts";

const now = () => Math.floor(Date.now() / 1000);
const bearers = (net: ReturnType<typeof stubNet>) =>
  net.sent.filter((s) => s.url.pathname.startsWith("/mcp")).map((s) => s.headers.get("authorization"));

function storeWith(resource: string, tokens: Record<string, unknown>): OAuthStore {
  const store = memoryStore();
  void store.set(`tokens ${resource}`, { token_type: "Bearer", resource, issuer: AS, ...tokens });
  return store;
}

/** A token endpoint answering refresh grants with `refreshed` (or 400 when undefined) and codes with "tok-new". */
const tokenEndpoint =
  (refreshed: string | undefined): StubRoute =>
  (req) => {
    const grant = new URLSearchParams(req.body).get("grant_type");
    if (grant === "refresh_token")
      return refreshed
        ? jsonReply({ access_token: refreshed, token_type: "Bearer" })
        : jsonReply({ error: "invalid_grant" }, 400);
    return jsonReply({ access_token: "tok-new", token_type: "Bearer" });
  };

describe("tokens stored by an earlier run", () => {
  it("are sent at once for their resource and paths below it, without any discovery", async () => {
    for (const [key, url] of [
      [`${RS}/mcp`, `${RS}/mcp`],
      [`${RS}/mcp`, `${RS}/mcp/sub?x=1`],
      [`${RS}/`, `${RS}/mcp`],
    ] as const) {
      const net = stubNet({ [`POST ${new URL(url).origin}${new URL(url).pathname}`]: () => jsonReply({ ok: 1 }) });
      const f = oauthFetch({ store: storeWith(key, { access_token: "stored" }) }, { fetch: net.fetch });
      expect((await post(f, url)).status).toBe(200);
      expect(net.sent.map((s) => s.headers.get("authorization"))).toEqual(["Bearer stored"]);
    }
  });

  it("are ignored when the record names another resource or holds no token", async () => {
    for (const record of [{ access_token: "stored", resource: "https://other.example/mcp" }, { access_token: 42 }]) {
      const net = stubNet(standardRoutes());
      const store = storeWith(`${RS}/mcp`, record);
      expect((await post(oauthFetch(approver({ store }), { fetch: net.fetch }))).status).toBe(200);
      expect(bearers(net)).toEqual([null, "Bearer tok-1"]);
    }
  });
});

describe("expiry and refresh", () => {
  const routes = (refreshed: string | undefined) => ({
    ...standardRoutes({ token: refreshed ?? "tok-new" }),
    [TOKEN]: tokenEndpoint(refreshed),
  });

  it("refreshes a token within the skew of its expiry before sending it, keeping the refresh token", async () => {
    const store = storeWith(`${RS}/mcp`, { access_token: "old", refresh_token: "r1", expires_at: now() + 10 });
    const net = stubNet(routes("tok-2"));
    expect((await post(oauthFetch(approver({ store }), { fetch: net.fetch }))).status).toBe(200);
    expect(bearers(net)).toEqual(["Bearer tok-2"]);
    const body = Object.fromEntries(net.form(TOKEN));
    expect(body).toMatchObject({ grant_type: "refresh_token", refresh_token: "r1", resource: `${RS}/mcp` });
    expect(await store.get(`tokens ${RS}/mcp`)).toMatchObject({ access_token: "tok-2", refresh_token: "r1" });
  });

  it("does not refresh outside the skew, with a smaller skew, or a token without expiry", async () => {
    for (const [expiresAt, skew] of [
      [now() + 120, undefined],
      [now() + 10, 0],
      [undefined, undefined],
    ] as const) {
      const store = storeWith(`${RS}/mcp`, {
        access_token: "tok-new",
        refresh_token: "r1",
        ...(expiresAt !== undefined && { expires_at: expiresAt }),
      });
      const net = stubNet({ ...routes("tok-2"), [MCP]: () => jsonReply({ ok: 1 }) });
      const options = { fetch: net.fetch, ...(skew !== undefined && { refreshSkewSec: skew }) };
      expect((await post(oauthFetch(approver({ store }), options))).status).toBe(200);
      expect(net.calls()).toEqual([MCP]);
    }
  });

  it("on a 401, refreshes once before sending the user to authorize, and authorizes when the refresh is refused", async () => {
    const refreshed = stubNet(routes("tok-2"));
    const provider = approver({ store: storeWith(`${RS}/mcp`, { access_token: "revoked", refresh_token: "r1" }) });
    expect((await post(oauthFetch(provider, { fetch: refreshed.fetch }))).status).toBe(200);
    expect(bearers(refreshed)).toEqual(["Bearer revoked", "Bearer tok-2"]);
    expect(provider.urls).toHaveLength(0);

    const refused = stubNet(routes(undefined));
    const user = approver({ store: storeWith(`${RS}/mcp`, { access_token: "revoked", refresh_token: "r1" }) });
    expect((await post(oauthFetch(user, { fetch: refused.fetch }))).status).toBe(200);
    expect(bearers(refused)).toEqual(["Bearer revoked", "Bearer tok-new"]);
    expect(user.urls).toHaveLength(1);
  });

  it("refreshes only once per request, and never on a 403 step-up", async () => {
    // The refreshed token is rejected too: the next step is the user, not a second refresh.
    const net = stubNet({ ...routes("tok-2"), [MCP]: standardRoutes({ token: "tok-new" })[MCP]! });
    const provider = approver({ store: storeWith(`${RS}/mcp`, { access_token: "revoked", refresh_token: "r1" }) });
    expect((await post(oauthFetch(provider, { fetch: net.fetch }))).status).toBe(200);
    const grants = net.sent
      .filter((s) => s.url.href === `${AS}/token`)
      .map((s) => new URLSearchParams(s.body).get("grant_type"));
    expect(grants).toEqual(["refresh_token", "authorization_code"]);
    expect(bearers(net)).toEqual(["Bearer revoked", "Bearer tok-2", "Bearer tok-new"]);

    const stepUp = stubNet({
      ...routes("tok-2"),
      [MCP]: (req) =>
        req.headers.get("authorization") === "Bearer tok-new"
          ? jsonReply({ ok: 1 })
          : challenge('Bearer error="insufficient_scope", scope="more"', 403),
    });
    const user = approver({
      store: storeWith(`${RS}/mcp`, { access_token: "narrow", refresh_token: "r1", scope: "a" }),
    });
    expect((await post(oauthFetch(user, { fetch: stepUp.fetch }))).status).toBe(200);
    expect(stepUp.form(TOKEN).get("grant_type")).toBe("authorization_code");
    expect(user.urls[0]!.searchParams.get("scope")).toBe("a more");
  });

  it("never refreshes a JWT bearer grant's token: the grant simply runs again", async () => {
    const store = storeWith(`${RS}/mcp`, { access_token: "old", refresh_token: "r1", expires_at: now() - 1 });
    const net = stubNet({
      ...standardRoutes({ token: "tok-new" }),
      [TOKEN]: tokenEndpoint("tok-2"),
    });
    const f = oauthFetch({ store, jwtBearer: { client_id: "w", assertion: () => "a.b.c" } }, { fetch: net.fetch });
    expect((await post(f)).status).toBe(200);
    expect(net.form(TOKEN).get("grant_type")).toBe("urn:ietf:params:oauth:grant-type:jwt-bearer");
    expect(net.calls().filter((c) => c === TOKEN)).toHaveLength(1);
  });

  it("refreshes a client credentials token with the client's own credentials", async () => {
    const store = storeWith(`${RS}/mcp`, { access_token: "old", refresh_token: "r1", expires_at: now() - 1 });
    const net = stubNet(routes("tok-2"));
    const f = oauthFetch({ store, clientCredentials: { client_id: "svc", client_secret: "pw" } }, { fetch: net.fetch });
    expect((await post(f)).status).toBe(200);
    const auth = net.sent.find((s) => s.url.pathname === "/token")!.headers.get("authorization")!;
    expect(Buffer.from(auth.slice(6), "base64").toString()).toBe("svc:pw");
    expect(net.calls()).not.toContain(`POST ${AS}/register`);
  });
});

describe("when the server's answer is given back as it is", () => {
  it("a 403 that is not insufficient_scope, and any 401/403 once maxAuthorizations is used up", async () => {
    const forbidden = stubNet({ [MCP]: () => challenge('Bearer error="invalid_token"', 403) });
    expect((await post(oauthFetch(approver(), { fetch: forbidden.fetch }))).status).toBe(403);
    expect(forbidden.calls()).toEqual([MCP]);
    const net = stubNet(standardRoutes());
    const provider = approver();
    expect((await post(oauthFetch(provider, { fetch: net.fetch, maxAuthorizations: 0 }))).status).toBe(401);
    expect(net.calls()).toEqual([MCP]);
  });

  it("after maxFruitlessAuthorizations authorizations in a row that the server kept refusing", async () => {
    const net = stubNet({ ...standardRoutes(), [MCP]: () => challenge("Bearer") });
    const provider = approver();
    const f = oauthFetch(provider, { fetch: net.fetch, maxFruitlessAuthorizations: 1, maxAuthorizations: 5 });
    expect((await post(f)).status).toBe(401);
    expect((await post(f)).status).toBe(401);
    expect(provider.urls).toHaveLength(1);
  });

  it("a request whose body cannot be sent twice: a stream, or a Request with a body", async () => {
    const net = stubNet(standardRoutes());
    const f = oauthFetch(approver(), { fetch: net.fetch });
    const stream = new ReadableStream({
      start: (c) => {
        c.enqueue(new TextEncoder().encode("{}"));
        c.close();
      },
    });
    const streamed = await f(`${RS}/mcp`, { method: "POST", body: stream, duplex: "half" } as RequestInit);
    expect(streamed.status).toBe(401);
    expect((await f(new Request(`${RS}/mcp`, { method: "POST", body: "{}" }))).status).toBe(401);
    expect(net.calls()).toEqual([MCP, MCP]);
  });

  it("a Request without a body is authorized and sent again with the token and its own headers", async () => {
    const net = stubNet({ ...standardRoutes(), [`GET ${RS}/mcp`]: standardRoutes()[MCP]! });
    const f = oauthFetch(approver(), { fetch: net.fetch });
    const response = await f(new Request(`${RS}/mcp`, { headers: { "x-trace": "7" } }));
    expect(response.status).toBe(200);
    const gets = net.sent.filter((s) => s.method === "GET" && s.url.pathname === "/mcp");
    expect(gets.map((s) => [s.headers.get("authorization"), s.headers.get("x-trace")])).toEqual([
      [null, "7"],
      ["Bearer tok-1", "7"],
    ]);
  });
});

describe("step-up", () => {
  it("asks for the union of the scopes held and challenged, each once", async () => {
    let round = 0;
    const net = stubNet({
      ...standardRoutes({ prm: { scopes_supported: ["a", "b"] } }),
      [MCP]: (req) =>
        req.headers.get("authorization") === null
          ? challenge("Bearer")
          : round++ === 0
            ? challenge('Bearer error="insufficient_scope", scope="b c"', 403)
            : jsonReply({ ok: 1 }),
    });
    const provider = approver();
    expect((await post(oauthFetch(provider, { fetch: net.fetch }))).status).toBe(200);
    expect(provider.urls.map((u) => u.searchParams.get("scope"))).toEqual(["a b", "a b c"]);
  });
});

describe("finding the authorization server", () => {
  const prmError = async (prm: Record<string, unknown>) => {
    const net = stubNet({ ...standardRoutes(), [PRM_PATH]: () => jsonReply(prm) });
    return clientError(post(oauthFetch(approver(), { fetch: net.fetch })));
  };
  const what = `protected resource metadata at ${RS}/.well-known/oauth-protected-resource/mcp`;

  it("refuses PRM without a usable resource or authorization servers", async () => {
    expect(await prmError({ authorization_servers: [AS] })).toMatchObject({
      code: "invalid_metadata",
      message: `${what}: no "resource"`,
    });
    expect(await prmError({ resource: "no url", authorization_servers: [AS] })).toMatchObject({
      code: "invalid_metadata",
      message: `${what}: "resource" is not a URL`,
    });
    expect(await prmError({ resource: `${RS}/mcp#x`, authorization_servers: [AS] })).toMatchObject({
      code: "resource_mismatch",
    });
    for (const servers of [[], [7], undefined])
      expect(await prmError({ resource: `${RS}/mcp`, authorization_servers: servers })).toMatchObject({
        code: "invalid_metadata",
        message: `${what}: no authorization_servers`,
      });
  });

  it("ignores scopes_supported with a non-string entry, and uses the first of several authorization servers", async () => {
    const net = stubNet(
      standardRoutes({ prm: { scopes_supported: ["a", 1], authorization_servers: [AS, "https://b.example"] } }),
    );
    const provider = approver();
    await post(oauthFetch(provider, { fetch: net.fetch }));
    expect(provider.urls[0]!.searchParams.has("scope")).toBe(false);
    expect(net.calls().some((c) => c.includes("b.example"))).toBe(false);
  });

  it("falls back from a resource_metadata URL that does not answer 200 to the path-based, then the root URI", async () => {
    const net = stubNet({
      ...standardRoutes(),
      [MCP]: (req) =>
        req.headers.get("authorization") === "Bearer tok-1"
          ? jsonReply({})
          : challenge(`Bearer resource_metadata="${RS}/custom"`),
      [PRM_PATH]: () => jsonReply({ error: "x" }, 500),
      [PRM_ROOT]: () => jsonReply({ resource: `${RS}/mcp`, authorization_servers: [AS] }),
    });
    expect((await post(oauthFetch(approver(), { fetch: net.fetch }))).status).toBe(200);
    expect(net.calls().slice(0, 5)).toEqual([MCP, `GET ${RS}/custom`, PRM_PATH, PRM_ROOT, AS_META]);
  });

  it("asks only the root URI for a server at the root, and strips trailing slashes and fragments", async () => {
    const root = stubNet({ [`POST ${RS}/`]: () => challenge("Bearer") });
    await clientError(post(oauthFetch(approver(), { fetch: root.fetch }), `${RS}/`));
    expect(root.calls().slice(0, 2)).toEqual([`POST ${RS}/`, PRM_ROOT]);
    const slashed = stubNet({ [`POST ${RS}/mcp/`]: () => challenge("Bearer") });
    await clientError(post(oauthFetch(approver(), { fetch: slashed.fetch }), `${RS}/mcp/#frag`));
    expect(slashed.calls().slice(0, 3)).toEqual([`POST ${RS}/mcp/`, PRM_PATH, PRM_ROOT]);
  });

  it("tries the next metadata URI after a non-200, and refuses unsafe endpoints or no metadata at all", async () => {
    const oidc = stubNet({
      ...standardRoutes(),
      [AS_META]: () => jsonReply({}, 500),
      [`GET ${AS}/.well-known/openid-configuration`]: () => jsonReply(asDoc(AS)),
    });
    expect((await post(oauthFetch(approver(), { fetch: oidc.fetch }))).status).toBe(200);
    for (const endpoint of ["authorization_endpoint", "registration_endpoint"]) {
      const net = stubNet(standardRoutes({ as: { [endpoint]: "http://evil.example/x" } }));
      const error = await clientError(post(oauthFetch(approver(), { fetch: net.fetch })));
      expect([error.code, error.message]).toEqual([
        "insecure_url",
        `authorization server metadata at ${AS}/.well-known/oauth-authorization-server: ${endpoint}: refusing http://evil.example/x (OAuth needs https; plain http only for loopback hosts)`,
      ]);
    }
    const none = stubNet({ ...standardRoutes(), [AS_META]: () => jsonReply({}, 404) });
    const error = await clientError(post(oauthFetch(approver(), { fetch: none.fetch })));
    expect([error.code, error.message]).toEqual([
      "no_authorization_server",
      `no authorization server metadata found for ${AS}`,
    ]);
  });
});
