/**
 * Discovery order and client identity rules of the authorization spec, checked on the requests the client makes
 * to a scripted server (fixtures/fake-as.ts): PRM and AS metadata URIs in the spec's order, the 2025-03-26
 * fallbacks, pre-registration / CIMD / DCR priority, token endpoint auth methods, client credentials, the
 * step-up retry limit, and re-registration when the authorization server changes.
 */
import { afterEach, describe, expect, it } from "vitest";
import { generateKeyPair, exportPKCS8, jwtVerify } from "jose";
import { metadataCandidates, oauthFetch, memoryStore } from "../../../../runtime/auth/index.ts";
import {
  asMetadata,
  autoProvider,
  json,
  mcpEndpoint,
  registerRoute,
  startFake,
  tokenRoute,
  type Fake,
  type Route,
} from "./fixtures/fake-as.ts";

const fakes: Fake[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});
async function fake(routes: (f: Fake) => Record<string, Route>): Promise<Fake> {
  const f = await startFake(routes);
  fakes.push(f);
  return f;
}
const call = (f: typeof fetch, url: string) => f(url, { method: "POST", body: "{}" });
const form = (body: string) => new URLSearchParams(body);
/** client_secret_basic credentials, decoded as RFC 6749 §2.3.1 says (form-urlencoded id and secret, then base64). */
function basicCredentials(header: string | undefined): [string, string] | undefined {
  if (!header?.startsWith("Basic ")) return undefined;
  const [id, secret] = Buffer.from(header.slice(6), "base64").toString().split(":");
  const decode = (v: string | undefined) => decodeURIComponent((v ?? "").replace(/\+/g, " "));
  return [decode(id), decode(secret)];
}

describe("discovery order", () => {
  it("well-known AS metadata URIs for issuers with and without a path (spec priority)", () => {
    expect(metadataCandidates(new URL("https://auth.example.com/tenant1")).map(String)).toEqual([
      "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
      "https://auth.example.com/.well-known/openid-configuration/tenant1",
      "https://auth.example.com/tenant1/.well-known/openid-configuration",
    ]);
    expect(metadataCandidates(new URL("https://auth.example.com")).map(String)).toEqual([
      "https://auth.example.com/.well-known/oauth-authorization-server",
      "https://auth.example.com/.well-known/openid-configuration",
    ]);
  });

  it("without resource_metadata: path-based PRM, then root PRM; AS with a tenant path: all three forms in order", async () => {
    const f = await fake((f) => ({
      "POST /mcp": mcpEndpoint(),
      "GET /.well-known/oauth-protected-resource": () =>
        json({ resource: `${f.origin}/mcp`, authorization_servers: [`${f.origin}/tenant1`] }),
      "GET /tenant1/.well-known/openid-configuration": () => json(asMetadata(`${f.origin}/tenant1`)),
      "POST /register": registerRoute,
      "POST /token": tokenRoute,
    }));
    expect((await call(oauthFetch(autoProvider()), `${f.origin}/mcp`)).status).toBe(200);
    expect(f.paths()).toEqual([
      "POST /mcp",
      "GET /.well-known/oauth-protected-resource/mcp",
      "GET /.well-known/oauth-protected-resource",
      "GET /.well-known/oauth-authorization-server/tenant1",
      "GET /.well-known/openid-configuration/tenant1",
      "GET /tenant1/.well-known/openid-configuration",
      "POST /register",
      "POST /token",
      "POST /mcp",
    ]);
  });

  it("resource_metadata from the challenge comes first, even at a custom location; scope from the challenge wins", async () => {
    const f = await fake((f) => ({
      "POST /mcp": mcpEndpoint({
        challenge: `Bearer resource_metadata="${f.origin}/custom/prm.json", scope="files:read"`,
      }),
      "GET /custom/prm.json": () =>
        json({ resource: `${f.origin}/mcp`, authorization_servers: [f.origin], scopes_supported: ["a", "b"] }),
      "GET /.well-known/openid-configuration": () => json(asMetadata(f.origin)),
      "POST /register": registerRoute,
      "POST /token": tokenRoute,
    }));
    const provider = autoProvider();
    await call(oauthFetch(provider), `${f.origin}/mcp`);
    expect(f.paths().slice(0, 4)).toEqual([
      "POST /mcp",
      "GET /custom/prm.json",
      "GET /.well-known/oauth-authorization-server",
      "GET /.well-known/openid-configuration",
    ]);
    expect(provider.urls[0]!.searchParams.get("scope")).toBe("files:read");
  });

  it("scope: all of scopes_supported without a challenge scope; omitted when neither exists", async () => {
    for (const [scopes, expected] of [
      [["x", "y"], "x y"],
      [undefined, null],
    ] as const) {
      const f = await fake((f) => ({
        "POST /mcp": mcpEndpoint(),
        "GET /.well-known/oauth-protected-resource/mcp": () =>
          json({
            resource: `${f.origin}/mcp`,
            authorization_servers: [f.origin],
            ...(scopes && { scopes_supported: scopes }),
          }),
        "GET /.well-known/oauth-authorization-server": () => json(asMetadata(f.origin)),
        "POST /register": registerRoute,
        "POST /token": tokenRoute,
      }));
      const provider = autoProvider();
      await call(oauthFetch(provider), `${f.origin}/mcp`);
      expect(provider.urls[0]!.searchParams.get("scope")).toBe(expected);
      expect(provider.urls[0]!.searchParams.get("resource")).toBe(`${f.origin}/mcp`);
    }
  });

  it("the resource parameter is the PRM resource exactly as published (no trailing slash added to a pathless one)", async () => {
    const f = await fake((f) => ({
      "POST /mcp": mcpEndpoint(),
      "GET /.well-known/oauth-protected-resource": () =>
        json({ resource: f.origin, authorization_servers: [f.origin] }),
      "GET /.well-known/oauth-authorization-server": () => json(asMetadata(f.origin)),
      "POST /register": registerRoute,
      "POST /token": tokenRoute,
    }));
    const provider = autoProvider();
    expect((await call(oauthFetch(provider), `${f.origin}/mcp`)).status).toBe(200);
    expect(provider.urls[0]!.searchParams.get("resource")).toBe(f.origin);
    expect(form(f.seen.find((s) => s.path === "/token")!.body).get("resource")).toBe(f.origin);
  });

  it("2025-03-26: no PRM → AS metadata at the server's root; no metadata at all → /authorize, /token, /register", async () => {
    const withMeta = await fake((f) => ({
      "POST /mcp": mcpEndpoint(),
      // The 2025-03-26 layout the conformance suite uses: the issuer has a path the base URL does not.
      "GET /.well-known/oauth-authorization-server": () =>
        json(asMetadata(`${f.origin}/oauth`, { token_endpoint: `${f.origin}/oauth/token` })),
      "POST /register": registerRoute,
      "POST /oauth/token": tokenRoute,
    }));
    expect((await call(oauthFetch(autoProvider()), `${withMeta.origin}/mcp`)).status).toBe(200);
    expect(withMeta.paths()).toContain("POST /oauth/token");
    const bare = await fake(() => ({
      "POST /mcp": mcpEndpoint(),
      "POST /register": registerRoute,
      "POST /token": tokenRoute,
    }));
    const provider = autoProvider();
    expect((await call(oauthFetch(provider), `${bare.origin}/mcp`)).status).toBe(200);
    expect(provider.urls[0]!.origin + provider.urls[0]!.pathname).toBe(`${bare.origin}/authorize`);
    expect(bare.paths().slice(-3)).toEqual(["POST /register", "POST /token", "POST /mcp"]);
  });
});

describe("client identity and token endpoint auth", () => {
  const server = (extra: Record<string, unknown>, token: Route = tokenRoute) =>
    fake((f) => ({
      "POST /mcp": mcpEndpoint(),
      "GET /.well-known/oauth-protected-resource/mcp": () =>
        json({ resource: `${f.origin}/mcp`, authorization_servers: [f.origin] }),
      "GET /.well-known/oauth-authorization-server": () => json(asMetadata(f.origin, extra)),
      "POST /register": registerRoute,
      "POST /token": token,
    }));

  it("pre-registered credentials come first (no DCR), sent with client_secret_basic", async () => {
    const f = await server({ client_id_metadata_document_supported: true });
    await call(
      oauthFetch(
        autoProvider({
          extra: {
            clientInformation: { client_id: "pre-registered-client", client_secret: "pre-registered-secret" },
            clientMetadataUrl: "https://app.example/client.json",
          },
        }),
      ),
      `${f.origin}/mcp`,
    );
    expect(f.paths()).not.toContain("POST /register");
    const token = f.seen.find((s) => s.path === "/token")!;
    expect(basicCredentials(token.authorization)).toEqual(["pre-registered-client", "pre-registered-secret"]);
    // Unreserved characters stay as they are: servers that do not form-decode the header read the same id.
    expect(Buffer.from(token.authorization!.slice(6), "base64").toString()).toBe(
      "pre-registered-client:pre-registered-secret",
    );
  });

  it("CIMD when the AS supports it: the URL is the client_id, no registration", async () => {
    const f = await server({ client_id_metadata_document_supported: true });
    const provider = autoProvider({ extra: { clientMetadataUrl: "https://app.example/client.json" } });
    await call(oauthFetch(provider), `${f.origin}/mcp`);
    expect(provider.urls[0]!.searchParams.get("client_id")).toBe("https://app.example/client.json");
    expect(f.paths()).not.toContain("POST /register");
    expect(form(f.seen.find((s) => s.path === "/token")!.body).get("client_id")).toBe(
      "https://app.example/client.json",
    );
  });

  it("DCR otherwise, asking for the one auth method the AS offers, and using it at the token endpoint", async () => {
    for (const method of ["client_secret_basic", "client_secret_post", "none"]) {
      const f = await server({ token_endpoint_auth_methods_supported: [method] });
      await call(oauthFetch(autoProvider()), `${f.origin}/mcp`);
      const registration = JSON.parse(f.seen.find((s) => s.path === "/register")!.body) as Record<string, unknown>;
      expect(registration).toMatchObject({
        token_endpoint_auth_method: method,
        redirect_uris: ["http://127.0.0.1:9/cb"],
        application_type: "native",
      });
      expect(registration["grant_types"]).toContain("refresh_token");
      const token = f.seen.find((s) => s.path === "/token")!;
      const body = form(token.body);
      expect(body.get("code_verifier")).toBeTruthy();
      if (method === "client_secret_basic")
        expect(basicCredentials(token.authorization)).toEqual(["dcr-client", "dcr-secret"]);
      if (method === "client_secret_post")
        expect([token.authorization, body.get("client_secret")]).toEqual([undefined, "dcr-secret"]);
      if (method === "none")
        expect([token.authorization, body.get("client_secret"), body.get("client_id")]).toEqual([
          undefined,
          null,
          "dcr-client",
        ]);
    }
  });

  it("offline_access is requested when the AS lists it", async () => {
    const f = await server({ scopes_supported: ["offline_access", "mcp"] });
    const provider = autoProvider();
    const oauthed = oauthFetch(provider);
    f.routes["GET /.well-known/oauth-protected-resource/mcp"] = () =>
      json({ resource: `${f.origin}/mcp`, authorization_servers: [f.origin], scopes_supported: ["mcp"] });
    await call(oauthed, `${f.origin}/mcp`);
    expect(provider.urls[0]!.searchParams.get("scope")).toBe("mcp offline_access");
  });

  it("client credentials with a secret (basic) and with private_key_jwt; no user involved", async () => {
    const f = await server({}, (req) =>
      form(req.body).get("grant_type") === "client_credentials"
        ? tokenRoute(req, f)
        : json({ error: "unsupported_grant_type" }, 400),
    );
    const secretFetch = oauthFetch({ clientCredentials: { client_id: "svc", client_secret: "s3cret" } });
    expect((await call(secretFetch, `${f.origin}/mcp`)).status).toBe(200);
    const first = f.seen.find((s) => s.path === "/token")!;
    expect(basicCredentials(first.authorization)).toEqual(["svc", "s3cret"]);
    expect(form(first.body).get("resource")).toBe(`${f.origin}/mcp`);

    const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
    const pem = await exportPKCS8(privateKey);
    const jwtFetch = oauthFetch({
      clientCredentials: { client_id: "svc-jwt", privateKey: { key: pem, alg: "ES256" } },
    });
    expect((await call(jwtFetch, `${f.origin}/mcp`)).status).toBe(200);
    const second = f.seen.filter((s) => s.path === "/token")[1]!;
    const body = form(second.body);
    expect(body.get("client_assertion_type")).toBe("urn:ietf:params:oauth:client-assertion-type:jwt-bearer");
    const { payload } = await jwtVerify(body.get("client_assertion")!, publicKey);
    expect(payload).toMatchObject({ iss: "svc-jwt", sub: "svc-jwt" });
  });
});

describe("retries, step-up limit, AS change", () => {
  it("a server that keeps answering 403 insufficient_scope gets at most 2 re-authorizations per request, then the 403", async () => {
    let tokens = 0;
    const f = await fake((f) => ({
      "POST /mcp": (req) =>
        req.authorization
          ? { status: 403, headers: { "www-authenticate": `Bearer error="insufficient_scope", scope="more${tokens}"` } }
          : { status: 401, headers: { "www-authenticate": "Bearer" } },
      "GET /.well-known/oauth-protected-resource/mcp": () =>
        json({ resource: `${f.origin}/mcp`, authorization_servers: [f.origin] }),
      "GET /.well-known/oauth-authorization-server": () => json(asMetadata(f.origin)),
      "POST /register": registerRoute,
      "POST /token": () => json({ access_token: `t${++tokens}`, token_type: "bearer" }),
    }));
    const provider = autoProvider();
    const response = await call(oauthFetch(provider), `${f.origin}/mcp`);
    expect(response.status).toBe(403);
    expect(provider.urls).toHaveLength(2);
    expect(f.paths().filter((p) => p === "POST /mcp")).toHaveLength(3);
    expect(provider.urls[1]!.searchParams.get("scope")).toBe("more1");
    // Across requests: at most 3 fruitless authorizations in a row, then the 403 comes back without a new one.
    const again = await call(oauthFetch(provider), `${f.origin}/mcp`);
    expect(again.status).toBe(403);
    expect(provider.urls).toHaveLength(4); // a new oauthFetch starts its own count: 2 more
    const shared = oauthFetch(autoProvider());
    await call(shared, `${f.origin}/mcp`);
    await call(shared, `${f.origin}/mcp`);
    await call(shared, `${f.origin}/mcp`);
    expect(f.paths().filter((p) => p === "POST /token").length - 4).toBe(3);
  });

  it("concurrent 401s share one authorization", async () => {
    const f = await fake((f) => ({
      "POST /mcp": mcpEndpoint(),
      "GET /.well-known/oauth-protected-resource/mcp": () =>
        json({ resource: `${f.origin}/mcp`, authorization_servers: [f.origin] }),
      "GET /.well-known/oauth-authorization-server": () => json(asMetadata(f.origin)),
      "POST /register": registerRoute,
      "POST /token": tokenRoute,
    }));
    const provider = autoProvider();
    const oauthed = oauthFetch(provider);
    const results = await Promise.all([1, 2, 3].map(() => call(oauthed, `${f.origin}/mcp`)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(provider.urls).toHaveLength(1);
  });

  it("when PRM names a new AS, the old AS's token is dropped and the client registers at the new one", async () => {
    const asA = await fake((f) => ({
      "GET /.well-known/oauth-authorization-server": () => json(asMetadata(f.origin)),
      "POST /register": () => json({ client_id: "client-at-A" }, 201),
      "POST /token": () => json({ access_token: "token-A", token_type: "bearer" }),
    }));
    const asB = await fake((f) => ({
      "GET /.well-known/oauth-authorization-server": () => json(asMetadata(f.origin)),
      "POST /register": () => json({ client_id: "client-at-B" }, 201),
      "POST /token": () => json({ access_token: "token-B", token_type: "bearer" }),
    }));
    let current = asA;
    const rs = await fake((f) => ({
      "POST /mcp": (req) =>
        req.authorization === `Bearer token-${current === asA ? "A" : "B"}`
          ? json({ ok: 1 })
          : { status: 401, headers: { "www-authenticate": "Bearer" } },
      "GET /.well-known/oauth-protected-resource/mcp": () =>
        json({ resource: `${f.origin}/mcp`, authorization_servers: [current.origin] }),
    }));
    const store = memoryStore();
    const provider = autoProvider({ extra: { store } });
    const oauthed = oauthFetch(provider);
    expect((await call(oauthed, `${rs.origin}/mcp`)).status).toBe(200);
    current = asB;
    expect((await call(oauthed, `${rs.origin}/mcp`)).status).toBe(200);
    expect(provider.urls.map((u) => u.searchParams.get("client_id"))).toEqual(["client-at-A", "client-at-B"]);
    expect(asB.paths()).toContain("POST /register");
    const bearers = rs.seen.filter((s) => s.path === "/mcp").map((s) => s.authorization);
    expect(bearers).toEqual([undefined, "Bearer token-A", "Bearer token-A", "Bearer token-B"]);
    // Registrations are kept per issuer; the resource's tokens now belong to B.
    expect(await store.get(`client ${asA.origin}`)).toMatchObject({ client_id: "client-at-A" });
    expect(await store.get(`client ${asB.origin}`)).toMatchObject({ client_id: "client-at-B" });
    expect(await store.get(`tokens ${rs.origin}/mcp`)).toMatchObject({ access_token: "token-B", issuer: asB.origin });
  });
});
