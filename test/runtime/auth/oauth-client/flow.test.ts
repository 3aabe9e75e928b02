/**
 * What the OAuth client sends to an authorization server (runtime/auth/oauth-client/flow.ts), checked on the wire of
 * an in-memory network: the authorization request and its PKCE challenge, registration metadata and the auth method
 * asked for, which client authentication each kind of client uses at the token endpoint, and the tokens it keeps.
 * The PKCE oracle is node:crypto (S256 of the verifier the client later redeems). More of flow.ts: flow-clients.test.ts.
 * Equivalent mutants left alive by these tests: docs/mutation.md.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decodeProtectedHeader, exportPKCS8, generateKeyPair, jwtVerify } from "jose";
import { memoryStore, oauthFetch, type OAuthClientProvider } from "../../../../runtime/auth/index.ts";
import {
  approver,
  AS,
  clientError,
  jsonReply,
  type Net,
  post,
  RS,
  standardRoutes,
  stubNet,
  TOKEN,
} from "./oauth-harness.ts";

const REGISTER = `POST ${AS}/register`;

function basic(net: Net): string | undefined {
  const header = net.sent.find((s) => `${s.method} ${s.url.href}` === TOKEN)?.headers.get("authorization");
  return header?.startsWith("Basic ") ? Buffer.from(header.slice(6), "base64").toString() : (header ?? undefined);
}

async function run(
  provider: OAuthClientProvider,
  as: Record<string, unknown> = {},
  net = stubNet(standardRoutes({ as })),
) {
  const response = await post(oauthFetch(provider, { fetch: net.fetch }));
  return { net, response };
}

describe("the authorization request", () => {
  it("carries the spec's parameters, and the challenge is S256 of the verifier redeemed at the token endpoint", async () => {
    const provider = approver();
    const { net, response } = await run(provider);
    expect(response.status).toBe(200);
    const url = provider.urls[0]!;
    expect(url.origin + url.pathname).toBe(`${AS}/authorize`);
    const params = Object.fromEntries(url.searchParams);
    expect(Object.keys(params).sort()).toEqual(
      [
        "client_id",
        "code_challenge",
        "code_challenge_method",
        "redirect_uri",
        "resource",
        "response_type",
        "state",
      ].sort(),
    );
    expect(params).toMatchObject({
      response_type: "code",
      client_id: "dcr-client",
      redirect_uri: "http://127.0.0.1:9/cb",
      code_challenge_method: "S256",
      resource: `${RS}/mcp`,
    });
    const body = net.form(TOKEN);
    const verifier = body.get("code_verifier")!;
    expect(params["code_challenge"]).toBe(createHash("sha256").update(verifier).digest("base64url"));
    expect(Object.fromEntries(body)).toMatchObject({
      grant_type: "authorization_code",
      code: "the-code",
      redirect_uri: "http://127.0.0.1:9/cb",
      resource: `${RS}/mcp`,
    });
  });

  it("accepts the callback as a URL string, a query string with or without '?', or parameters", async () => {
    for (const form of ["url", "?query", "query"] as const) {
      const provider = approver({
        async authorize(url) {
          const query = `code=the-code&state=${url.searchParams.get("state")}`;
          return form === "url" ? `  http://127.0.0.1:9/cb?${query}` : form === "?query" ? `?${query}` : query;
        },
      });
      const { net, response } = await run(provider);
      expect(response.status, form).toBe(200);
      expect(net.form(TOKEN).get("code")).toBe("the-code");
    }
  });

  it("adds offline_access only to a requested scope, once, when the AS lists it", async () => {
    const scoped = approver();
    await run(
      scoped,
      { scopes_supported: ["offline_access"] },
      stubNet(
        standardRoutes({
          as: { scopes_supported: ["offline_access"] },
          prm: { scopes_supported: ["mcp", "offline_access"] },
        }),
      ),
    );
    expect(scoped.urls[0]!.searchParams.get("scope")).toBe("mcp offline_access");
    const unscoped = approver();
    await run(unscoped, { scopes_supported: ["offline_access"] });
    expect(unscoped.urls[0]!.searchParams.has("scope")).toBe(false);
    const notListed = approver();
    await run(notListed, {}, stubNet(standardRoutes({ prm: { scopes_supported: ["mcp"] } })));
    expect(notListed.urls[0]!.searchParams.get("scope")).toBe("mcp");
  });

  it("refuses an AS without an authorization endpoint or without S256, and a provider that cannot send the user", async () => {
    const noEndpoint = await clientError(
      run(approver(), { authorization_endpoint: undefined }).then((r) => r.response),
    );
    expect([noEndpoint.code, noEndpoint.message]).toEqual(["invalid_metadata", `${AS} has no authorization_endpoint`]);
    const noMethods = await clientError(
      run(approver(), { code_challenge_methods_supported: undefined }).then((r) => r.response),
    );
    expect([noMethods.code, noMethods.message]).toEqual([
      "authorization_failed",
      `${AS} does not advertise PKCE S256 (code_challenge_methods_supported)`,
    ]);
    const { authorize: _, ...withoutAuthorize } = approver();
    const { redirectUrl: __, ...withoutRedirect } = approver();
    for (const provider of [withoutAuthorize, withoutRedirect]) {
      const net = stubNet(standardRoutes());
      const error = await clientError(post(oauthFetch(provider, { fetch: net.fetch })));
      expect(error.code).toBe("no_interactive_flow");
      expect(net.calls()).not.toContain(REGISTER);
    }
  });
});

describe("dynamic client registration", () => {
  const registration = (net: Net) => JSON.parse(net.sent.find((s) => `${s.method} ${s.url.href}` === REGISTER)!.body);

  it("sends the client's metadata with the defaults filled in, and no scope", async () => {
    const { net } = await run(
      approver({
        redirectUrl: new URL("https://app.example/cb"),
        clientMetadata: { client_uri: "https://app.example" },
      }),
    );
    expect(registration(net)).toEqual({
      client_name: "MCP client",
      client_uri: "https://app.example",
      redirect_uris: ["https://app.example/cb"],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
      application_type: "web",
    });
    const named = await run(approver({ clientMetadata: { client_name: "My app" } }));
    expect(registration(named.net)).toMatchObject({ client_name: "My app", application_type: "native" });
  });

  it("asks for a secret method the AS offers (basic first), else none, else basic", async () => {
    for (const [offered, asked] of [
      [["private_key_jwt"], "client_secret_basic"],
      [["none", "client_secret_post"], "client_secret_post"],
      [["client_secret_post", "client_secret_basic"], "client_secret_basic"],
      [["private_key_jwt", "none"], "none"],
    ] as const) {
      const { net } = await run(approver(), { token_endpoint_auth_methods_supported: offered });
      expect(registration(net).token_endpoint_auth_method, offered.join()).toBe(asked);
    }
  });

  it("keeps what the AS answered, keyed by its issuer, and reuses it instead of registering again", async () => {
    for (const [answer, kept] of [
      [
        { client_id: "c1", client_secret: "s1" },
        { client_id: "c1", client_secret: "s1", token_endpoint_auth_method: "client_secret_basic" },
      ],
      [{ client_id: "c2" }, { client_id: "c2", token_endpoint_auth_method: "none" }],
      [
        {
          client_id: "c3",
          client_secret: "s3",
          client_secret_expires_at: 0,
          token_endpoint_auth_method: "client_secret_post",
        },
        { client_id: "c3", client_secret: "s3", token_endpoint_auth_method: "client_secret_post" },
      ],
    ] as const) {
      const store = memoryStore();
      const net = stubNet({ ...standardRoutes(), [REGISTER]: () => jsonReply(answer, 201) });
      await run(approver({ store }), {}, net);
      expect(await store.get(`client ${AS}`)).toStrictEqual(kept);
      // Without tokens the next run authorizes again, as the same client.
      await store.delete(`tokens ${RS}/mcp`);
      const again = approver({ store });
      await run(again, {}, net);
      expect(net.calls().filter((c) => c === REGISTER)).toHaveLength(1);
      expect(again.urls[0]!.searchParams.get("client_id")).toBe(answer.client_id);
    }
  });

  it("refuses a registration answer that is not a JSON object, and an AS with no way to identify the client", async () => {
    for (const reply of [
      () => new Response("oops", { status: 201 }),
      () => jsonReply([1], 201),
      () => jsonReply({ client_id: "x" }, 200),
    ]) {
      const net = stubNet({ ...standardRoutes(), [REGISTER]: reply });
      expect((await clientError(run(approver(), {}, net))).code).toBe("registration_failed");
    }
    const error = await clientError(run(approver(), { registration_endpoint: undefined }));
    expect([error.code, error.message]).toEqual([
      "no_client_identity",
      `no way to identify this client to ${AS}: no pre-registration, CIMD or registration endpoint`,
    ]);
  });
});

describe("client authentication at the token endpoint", () => {
  const pre = (info: Record<string, unknown>, extra: Partial<OAuthClientProvider> = {}) =>
    approver({ clientInformation: { client_id: "pre", ...info }, ...extra });

  it("a pre-registered client with a secret uses the method the AS offers; without a secret, none", async () => {
    for (const [offered, info, expectAuth, expectBodySecret] of [
      [undefined, { client_secret: "s" }, "pre:s", null],
      [["client_secret_post"], { client_secret: "s" }, undefined, "s"],
      [["none"], { client_secret: "s" }, undefined, null],
      [["private_key_jwt"], { client_secret: "s" }, "pre:s", null],
      [["client_secret_basic"], {}, undefined, null],
      [undefined, { client_secret: "s", token_endpoint_auth_method: "client_secret_post" }, undefined, "s"],
    ] as const) {
      const { net } = await run(pre(info), offered ? { token_endpoint_auth_methods_supported: offered } : {});
      const body = net.form(TOKEN);
      expect([basic(net), body.get("client_secret"), body.get("client_id")], JSON.stringify([offered, info])).toEqual([
        expectAuth,
        expectBodySecret,
        expectAuth === undefined ? "pre" : null,
      ]);
      expect(net.calls()).not.toContain(REGISTER);
    }
  });

  it("a pre-registered client with a key uses private_key_jwt unless the AS offers other methods only", async () => {
    const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
    for (const [offered, jwt] of [
      [undefined, true],
      [["client_secret_basic", "private_key_jwt"], true],
      [["client_secret_basic"], false],
    ] as const) {
      const provider = pre({ client_secret: "s" }, { privateKey: { key: privateKey, alg: "ES256", kid: "k1" } });
      const { net } = await run(provider, offered ? { token_endpoint_auth_methods_supported: offered } : {});
      const assertion = net.form(TOKEN).get("client_assertion");
      expect(assertion !== null, JSON.stringify(offered)).toBe(jwt);
      if (!assertion) continue;
      expect(decodeProtectedHeader(assertion)).toMatchObject({ alg: "ES256", kid: "k1" });
      expect((await jwtVerify(assertion, publicKey)).payload).toMatchObject({ iss: "pre", sub: "pre" });
      expect(basic(net)).toBeUndefined();
    }
  });

  it("a declared method without its credential is refused before any token request", async () => {
    for (const [info, message] of [
      [{ token_endpoint_auth_method: "private_key_jwt" }, "private_key_jwt needs a private key in the provider"],
      [{ token_endpoint_auth_method: "client_secret_basic" }, "client_secret_basic needs a client secret"],
    ] as const) {
      const net = stubNet(standardRoutes());
      const error = await clientError(run(pre(info), {}, net));
      expect([error.code, error.message]).toEqual(["no_client_identity", message]);
      expect(net.calls()).not.toContain(TOKEN);
    }
  });

  it("a CIMD client with a key signs its assertion with the document URL as client id; without CIMD support, DCR", async () => {
    const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
    const cimd = "https://app.example/client.json";
    const provider = approver({
      clientMetadataUrl: cimd,
      privateKey: { key: await exportPKCS8(privateKey), alg: "ES256" },
    });
    const { net } = await run(provider, { client_id_metadata_document_supported: true });
    const assertion = net.form(TOKEN).get("client_assertion")!;
    expect((await jwtVerify(assertion, publicKey)).payload).toMatchObject({ iss: cimd, sub: cimd });
    expect(decodeProtectedHeader(assertion).kid).toBeUndefined();
    const unsupported = await run(approver({ clientMetadataUrl: cimd }));
    expect(unsupported.net.calls()).toContain(REGISTER);
  });
});

describe("the tokens kept", () => {
  it("stores the token for its resource and issuer, with the granted scope and its expiry time", async () => {
    const store = memoryStore();
    const net = stubNet({
      ...standardRoutes({ prm: { scopes_supported: ["asked"] } }),
      [TOKEN]: () =>
        jsonReply({
          access_token: "tok-1",
          token_type: "Bearer",
          expires_in: 100,
          refresh_token: "r",
          scope: "granted",
        }),
    });
    const before = Math.floor(Date.now() / 1000);
    await run(approver({ store }), {}, net);
    const kept = (await store.get(`tokens ${RS}/mcp`)) as Record<string, unknown>;
    const { expires_at, ...rest } = kept;
    expect(rest).toEqual({
      access_token: "tok-1",
      token_type: "bearer",
      refresh_token: "r",
      scope: "granted",
      resource: `${RS}/mcp`,
      issuer: AS,
    });
    expect(expires_at).toBeGreaterThanOrEqual(before + 100);
    expect(expires_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 100);
  });

  it("keeps the requested scope when the AS does not name one, and no expiry when it gives none", async () => {
    const store = memoryStore();
    const net = stubNet({
      ...standardRoutes({ prm: { scopes_supported: ["asked"] } }),
      [TOKEN]: () => jsonReply({ access_token: "tok-1", token_type: "Bearer" }),
    });
    await run(approver({ store }), {}, net);
    expect(await store.get(`tokens ${RS}/mcp`)).toStrictEqual({
      access_token: "tok-1",
      token_type: "bearer",
      scope: "asked",
      resource: `${RS}/mcp`,
      issuer: AS,
    });
    const unscoped = memoryStore();
    await run(
      approver({ store: unscoped }),
      {},
      stubNet({ ...standardRoutes(), [TOKEN]: () => jsonReply({ access_token: "tok-1", token_type: "Bearer" }) }),
    );
    expect(await unscoped.get(`tokens ${RS}/mcp`)).toStrictEqual({
      access_token: "tok-1",
      token_type: "bearer",
      resource: `${RS}/mcp`,
      issuer: AS,
    });
  });
});
