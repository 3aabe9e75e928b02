/**
 * The JWT bearer grant (RFC 7523) for workload identity and enterprise-managed authorization: the assertion
 * reaches the AS with `resource`; `enterpriseAssertion()` first exchanges the ID token at the IdP for an ID-JAG
 * (RFC 8693) addressed to the MCP server's AS. The fakes check every parameter the specs require.
 */
import { afterEach, describe, expect, it } from "vitest";
import { enterpriseAssertion, memoryStore, oauthFetch, type AssertionContext } from "../../../../runtime/auth/index.ts";
import { asMetadata, json, mcpEndpoint, startFake, type Fake } from "./fixtures/fake-as.ts";
import { AS, challenge, clientError, jsonReply, post, RS, standardRoutes, stubNet, TOKEN } from "./oauth-harness.ts";

const fakes: Fake[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

const form = (body: string) => new URLSearchParams(body);

async function mcpWithAs(
  tokenCheck: (body: URLSearchParams, authorization: string | undefined) => boolean,
): Promise<Fake> {
  const f = await startFake((f) => ({
    "POST /mcp": mcpEndpoint(),
    "GET /.well-known/oauth-protected-resource/mcp": () =>
      json({ resource: `${f.origin}/mcp`, authorization_servers: [f.origin] }),
    "GET /.well-known/oauth-authorization-server": () =>
      json(asMetadata(f.origin, { grant_types_supported: ["urn:ietf:params:oauth:grant-type:jwt-bearer"] })),
    "POST /token": (req) =>
      tokenCheck(form(req.body), req.authorization)
        ? json({ access_token: "good-token", token_type: "Bearer", expires_in: 60 })
        : json({ error: "invalid_grant" }, 400),
  }));
  fakes.push(f);
  return f;
}

describe("JWT bearer grant", () => {
  it("workload identity: the given assertion, with resource, no user and no registration", async () => {
    const seen: unknown[] = [];
    const f = await mcpWithAs(
      (body) =>
        body.get("grant_type") === "urn:ietf:params:oauth:grant-type:jwt-bearer" &&
        body.get("assertion") === "workload.jwt",
    );
    const oauthed = oauthFetch({
      jwtBearer: {
        client_id: "workload",
        assertion: (context) => {
          seen.push(context);
          return "workload.jwt";
        },
      },
    });
    expect((await oauthed(`${f.origin}/mcp`, { method: "POST", body: "{}" })).status).toBe(200);
    expect(seen).toEqual([{ issuer: f.origin, resource: `${f.origin}/mcp` }]);
    const body = form(f.seen.find((s) => s.path === "/token")!.body);
    expect([body.get("resource"), body.get("client_id")]).toEqual([`${f.origin}/mcp`, "workload"]);
    expect(f.paths()).not.toContain("POST /register");
  });

  it("enterprise-managed: ID token → ID-JAG at the IdP (token exchange) → access token at the AS (client_secret_basic)", async () => {
    const idp = await startFake(() => ({
      "POST /token": (req) => {
        const b = form(req.body);
        const ok =
          b.get("grant_type") === "urn:ietf:params:oauth:grant-type:token-exchange" &&
          b.get("subject_token") === "user.id_token" &&
          b.get("subject_token_type") === "urn:ietf:params:oauth:token-type:id_token" &&
          b.get("requested_token_type") === "urn:ietf:params:oauth:token-type:id-jag" &&
          b.get("client_id") === "idp-client";
        return ok
          ? json({
              access_token: `id-jag-for ${b.get("audience")} ${b.get("resource")}`,
              issued_token_type: "urn:ietf:params:oauth:token-type:id-jag",
              token_type: "N_A",
            })
          : json({ error: "invalid_request" }, 400);
      },
    }));
    fakes.push(idp);
    let expectedJag = "";
    const f = await mcpWithAs((body, authorization) => {
      const [id, secret] = Buffer.from((authorization ?? "").slice(6), "base64")
        .toString()
        .split(":");
      return body.get("assertion") === expectedJag && id === "mcp-client" && secret === "mcp-secret";
    });
    expectedJag = `id-jag-for ${f.origin} ${f.origin}/mcp`;
    const oauthed = oauthFetch({
      jwtBearer: {
        client_id: "mcp-client",
        client_secret: "mcp-secret",
        assertion: enterpriseAssertion({
          idpTokenEndpoint: `${idp.origin}/token`,
          idpIssuer: idp.origin,
          idpClientId: "idp-client",
          idToken: () => "user.id_token",
        }),
      },
    });
    expect((await oauthed(`${f.origin}/mcp`, { method: "POST", body: "{}" })).status).toBe(200);
    expect(idp.paths()).toEqual(["POST /token"]);
  });

  it("a rejected assertion is a clear error, and no other grant is tried", async () => {
    const f = await mcpWithAs(() => false);
    const error = await oauthFetch({ jwtBearer: { client_id: "w", assertion: () => "bad" } })(`${f.origin}/mcp`, {
      method: "POST",
      body: "{}",
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "token_request_failed" });
    expect((error as Error).message).toMatch(/invalid_grant/);
    expect(f.paths().filter((p) => p === "POST /token")).toHaveLength(1);
  });
});

// On the in-memory network of oauth-harness.ts: what reaches the token endpoints, and the tokens a grant keeps.
const decode = (header: string | null) => (header ? Buffer.from(header.slice(6), "base64").toString() : header);

describe("the JWT bearer grant", () => {
  const grant = async (jwtBearer: Record<string, unknown>, prm: Record<string, unknown> = {}) => {
    const net = stubNet(standardRoutes({ prm }));
    const seen: unknown[] = [];
    const f = oauthFetch(
      {
        jwtBearer: {
          client_id: "w-1.b_c~d",
          assertion: (context: AssertionContext) => (seen.push(context), "the.assertion"),
          ...jwtBearer,
        } as never,
      },
      { fetch: net.fetch },
    );
    return { net, seen, response: await post(f) };
  };

  it("authenticates with the method given, basic by default with a secret, none without", async () => {
    const basic = await grant({ client_secret: "s" });
    expect(basic.response.status).toBe(200);
    expect(decode(basic.net.sent.find((s) => s.url.pathname === "/token")!.headers.get("authorization"))).toBe(
      "w-1.b_c~d:s",
    );
    const postSecret = await grant({ client_secret: "s", token_endpoint_auth_method: "client_secret_post" });
    expect(postSecret.net.form(TOKEN).get("client_secret")).toBe("s");
    const none = await grant({ client_secret: "s", token_endpoint_auth_method: "none" });
    const noneRequest = none.net.sent.find((s) => s.url.pathname === "/token")!;
    expect([noneRequest.headers.get("authorization"), none.net.form(TOKEN).get("client_secret")]).toEqual([null, null]);
    expect(none.net.form(TOKEN).get("client_id")).toBe("w-1.b_c~d");
    const error = await clientError(grant({ token_endpoint_auth_method: "client_secret_basic" }));
    expect([error.code, error.message]).toEqual(["no_client_identity", "client_secret_basic needs a client secret"]);
  });

  it("passes the scope to the assertion callback and the token request, and stores the grant's token", async () => {
    const { net, seen } = await grant({}, { scopes_supported: ["s1"] });
    expect(seen).toEqual([{ issuer: AS, resource: `${RS}/mcp`, scope: "s1" }]);
    expect(Object.fromEntries(net.form(TOKEN))).toMatchObject({
      grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      assertion: "the.assertion",
      resource: `${RS}/mcp`,
      scope: "s1",
    });
  });
});

describe("enterpriseAssertion", () => {
  const IDP = "https://idp.example";
  const exchange = (secret: string | undefined, scope?: string) => {
    const net = stubNet({
      [`POST ${IDP}/token`]: () =>
        jsonReply({
          access_token: "id-jag",
          token_type: "N_A",
          issued_token_type: "urn:ietf:params:oauth:token-type:id-jag",
        }),
    });
    const assertion = enterpriseAssertion({
      idpTokenEndpoint: `${IDP}/token`,
      idpIssuer: IDP,
      idpClientId: "idp-client",
      ...(secret !== undefined && { idpClientSecret: secret }),
      idToken: () => "user.id",
      fetch: net.fetch,
    });
    return { net, result: assertion({ issuer: AS, resource: `${RS}/mcp`, ...(scope !== undefined && { scope }) }) };
  };

  it("exchanges the ID token for an ID-JAG addressed to the MCP server's AS, with the scope when there is one", async () => {
    const { net, result } = exchange("idp-secret", "s1");
    expect(await result).toBe("id-jag");
    const request = net.sent[0]!;
    expect(decode(request.headers.get("authorization"))).toBe("idp-client:idp-secret");
    expect(Object.fromEntries(new URLSearchParams(request.body))).toEqual({
      grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
      subject_token: "user.id",
      subject_token_type: "urn:ietf:params:oauth:token-type:id_token",
      requested_token_type: "urn:ietf:params:oauth:token-type:id-jag",
      audience: AS,
      resource: `${RS}/mcp`,
      scope: "s1",
    });
    const publicClient = exchange(undefined);
    await publicClient.result;
    const body = new URLSearchParams(publicClient.net.sent[0]!.body);
    expect([publicClient.net.sent[0]!.headers.get("authorization"), body.get("client_id"), body.has("scope")]).toEqual([
      null,
      "idp-client",
      false,
    ]);
  });

  it("refuses a plain-http IdP endpoint off loopback", async () => {
    const assertion = enterpriseAssertion({
      idpTokenEndpoint: "http://idp.example/token",
      idpIssuer: "http://idp.example",
      idpClientId: "c",
      idToken: () => "t",
    });
    expect((await clientError(assertion({ issuer: AS, resource: RS }))).code).toBe("insecure_url");
  });
});

describe("the JWT bearer grant's tokens", () => {
  async function grant(tokenAnswer: Record<string, unknown>, prm: Record<string, unknown> = {}) {
    const store = memoryStore();
    const seen: AssertionContext[] = [];
    const net = stubNet({
      ...standardRoutes({ prm }),
      [TOKEN]: () => jsonReply({ access_token: "tok-1", token_type: "Bearer", ...tokenAnswer }),
    });
    const jwtBearer = { client_id: "w", assertion: (c: AssertionContext) => (seen.push(c), "a.b.c") };
    const response = await post(oauthFetch({ store, jwtBearer }, { fetch: net.fetch }));
    return { net, seen, response, kept: (await store.get(`tokens ${RS}/mcp`)) as Record<string, unknown> };
  }

  it("keeps the granted scope and expiry, else the requested scope, else neither", async () => {
    const before = Math.floor(Date.now() / 1000);
    const granted = await grant({ expires_in: 100, scope: "granted" }, { scopes_supported: ["asked"] });
    const { expires_at, ...rest } = granted.kept;
    expect(rest).toStrictEqual({
      access_token: "tok-1",
      token_type: "bearer",
      scope: "granted",
      resource: `${RS}/mcp`,
      issuer: AS,
    });
    expect(expires_at).toBeGreaterThanOrEqual(before + 100);
    expect(expires_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 100);
    const requested = await grant({}, { scopes_supported: ["asked"] });
    expect(requested.kept).toStrictEqual({ ...rest, scope: "asked" });
    const none = await grant({});
    const { scope: _, ...unscoped } = rest;
    expect(none.kept).toStrictEqual(unscoped);
    expect(none.seen).toStrictEqual([{ issuer: AS, resource: `${RS}/mcp` }]);
    expect(none.net.form(TOKEN).has("scope")).toBe(false);
  });

  it("binds the grant's token with DPoP when the server asks for it", async () => {
    const net = stubNet({
      ...standardRoutes({ as: { dpop_signing_alg_values_supported: ["ES256"] } }),
      [`POST ${RS}/mcp`]: (req) =>
        req.headers.get("authorization") === "DPoP tok-1" ? jsonReply({}) : challenge('DPoP algs="ES256"'),
      [TOKEN]: () => jsonReply({ access_token: "tok-1", token_type: "DPoP" }),
    });
    const f = oauthFetch({ jwtBearer: { client_id: "w", assertion: () => "a.b.c" } }, { fetch: net.fetch });
    expect((await post(f)).status).toBe(200);
    expect(net.sent.find((s) => s.url.pathname === "/token")!.headers.has("dpop")).toBe(true);
  });

  it("says which request failed: the JWT bearer grant, the IdP's endpoint or its exchange", async () => {
    const refused = stubNet({ ...standardRoutes(), [TOKEN]: () => jsonReply({ error: "invalid_grant" }, 400) });
    const f = oauthFetch({ jwtBearer: { client_id: "w", assertion: () => "a.b.c" } }, { fetch: refused.fetch });
    expect((await clientError(post(f))).message).toBe(`JWT bearer token request to ${AS}/token: invalid_grant`);
    const options = { idpIssuer: "https://idp.example", idpClientId: "c", idToken: () => "t" };
    const insecure = enterpriseAssertion({ ...options, idpTokenEndpoint: "http://idp.example/token" });
    expect((await clientError(insecure({ issuer: AS, resource: RS }))).message).toBe(
      "IdP token endpoint: refusing http://idp.example/token (OAuth needs https; plain http only for loopback hosts)",
    );
    const idp = stubNet({ "POST https://idp.example/token": () => jsonReply({ error: "invalid_request" }, 400) });
    const failing = enterpriseAssertion({
      ...options,
      idpTokenEndpoint: "https://idp.example/token",
      fetch: idp.fetch,
    });
    const error = await clientError(failing({ issuer: AS, resource: RS }));
    expect([error.name, error.code, error.message]).toEqual([
      "OAuthClientError",
      "token_request_failed",
      "token exchange at https://idp.example/token: invalid_request",
    ]);
  });
});
