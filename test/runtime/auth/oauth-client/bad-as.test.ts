/**
 * Hostile or broken servers against the OAuth client: every case must end in a clear OAuthClientError (or the
 * server's own response), and no token, code or client secret may reach anyone it was not meant for.
 * The fake (fixtures/fake-as.ts) records every request, which is the oracle for "nothing sent".
 */
import { afterEach, describe, expect, it } from "vitest";
import { oauthFetch, OAuthClientError, type OAuthClientErrorCode } from "../../../../runtime/auth/index.ts";
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

let fake: Fake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** A fake whose MCP endpoint challenges with resource_metadata, with PRM and AS routes to override. */
async function setup(overrides: (f: Fake) => Record<string, Route>): Promise<Fake> {
  fake = await startFake((f) => ({
    "POST /mcp": mcpEndpoint({
      challenge: `Bearer resource_metadata="${f.origin}/.well-known/oauth-protected-resource/mcp"`,
    }),
    "GET /.well-known/oauth-protected-resource/mcp": () =>
      json({ resource: `${f.origin}/mcp`, authorization_servers: [f.origin] }),
    "GET /.well-known/oauth-authorization-server": () => json(asMetadata(f.origin)),
    "POST /register": registerRoute,
    "POST /token": tokenRoute,
    ...overrides(f),
  }));
  return fake;
}

async function failure(f: Fake, provider = autoProvider({ iss: null }), options = {}): Promise<OAuthClientError> {
  const error = await oauthFetch(provider, options)(`${f.origin}/mcp`, { method: "POST", body: "{}" }).then(
    (r) => new Error(`expected a failure, got HTTP ${r.status}`),
    (e: unknown) => e,
  );
  if (!(error instanceof OAuthClientError)) throw error;
  return error;
}

const expectCode = (error: OAuthClientError, code: OAuthClientErrorCode) =>
  expect({ code: error.code, message: error.message }).toMatchObject({ code });
const tokenSentNowhere = (f: Fake) =>
  expect(f.seen.filter((s) => s.authorization?.startsWith("Bearer ")).map((s) => s.path)).toEqual([]);
const noRegistrationOrToken = (f: Fake) =>
  expect(f.paths().filter((p) => p === "POST /register" || p === "POST /token")).toEqual([]);

describe("a hostile or broken authorization server", () => {
  it("AS metadata with another issuer is not used (no registration, no authorization, no token request)", async () => {
    const f = await setup(() => ({
      "GET /.well-known/oauth-authorization-server": () => json(asMetadata("https://honest.example")),
    }));
    const provider = autoProvider();
    const error = await failure(f, provider);
    expectCode(error, "issuer_mismatch");
    expect(provider.urls).toHaveLength(0);
    noRegistrationOrToken(f);
  });

  it("2025-03-26 layout (no PRM): root metadata naming an issuer on another origin is refused", async () => {
    const f = await setup(() => ({
      "GET /.well-known/oauth-protected-resource/mcp": () => ({ status: 404 }),
      "GET /.well-known/oauth-authorization-server": () => json(asMetadata("https://other-as.example")),
    }));
    expectCode(await failure(f), "issuer_mismatch");
    noRegistrationOrToken(f);
  });

  it("PRM for another resource is refused before any AS is contacted", async () => {
    const f = await setup(() => ({
      "GET /.well-known/oauth-protected-resource/mcp": () =>
        json({ resource: "https://other.example/mcp", authorization_servers: ["https://other.example"] }),
    }));
    const error = await failure(f);
    expectCode(error, "resource_mismatch");
    expect(error.message).toContain("other.example");
    expect(f.paths()).toEqual(["POST /mcp", "GET /.well-known/oauth-protected-resource/mcp"]);
  });

  it("PRM on the same host but for a sibling path is refused", async () => {
    const f = await setup((f) => ({
      "GET /.well-known/oauth-protected-resource/mcp": () =>
        json({ resource: `${f.origin}/other`, authorization_servers: [f.origin] }),
    }));
    expectCode(await failure(f), "resource_mismatch");
  });

  it("HTML instead of JSON (PRM, then AS metadata) is a clear error naming HTML", async () => {
    const html = { status: 200, headers: { "content-type": "text/html" }, body: "<html><body>Login</body></html>" };
    let f = await setup(() => ({ "GET /.well-known/oauth-protected-resource/mcp": () => html }));
    let error = await failure(f);
    expectCode(error, "invalid_metadata");
    expect(error.message).toMatch(/expected JSON, got HTML/);
    await f.close();
    f = await setup(() => ({ "GET /.well-known/oauth-authorization-server": () => html }));
    error = await failure(f);
    expectCode(error, "invalid_metadata");
    expect(error.message).toMatch(/authorization server metadata.*HTML/);
    noRegistrationOrToken(f);
  });

  it("garbage JSON (an array, a string, truncated) is a clear error", async () => {
    for (const body of ["[1,2]", '"x"', '{"resource": "http']) {
      const f = await setup(() => ({
        "GET /.well-known/oauth-protected-resource/mcp": () => ({
          headers: { "content-type": "application/json" },
          body,
        }),
      }));
      expectCode(await failure(f), "invalid_metadata");
      await f.close();
    }
  });

  it("non-TLS endpoints off loopback are refused: AS in PRM, token endpoint in metadata", async () => {
    let f = await setup((f) => ({
      "GET /.well-known/oauth-protected-resource/mcp": () =>
        json({ resource: `${f.origin}/mcp`, authorization_servers: ["http://as.example.com"] }),
    }));
    let error = await failure(f);
    expectCode(error, "insecure_url");
    expect(error.message).toContain("http://as.example.com");
    await f.close();
    f = await setup((f) => ({
      "GET /.well-known/oauth-authorization-server": () =>
        json(asMetadata(f.origin, { token_endpoint: "http://evil.example/token" })),
    }));
    error = await failure(f);
    expectCode(error, "insecure_url");
    noRegistrationOrToken(f);
  });

  it("a redirect (to http) on a metadata URL is not followed", async () => {
    const f = await setup(() => ({
      "GET /.well-known/oauth-authorization-server": () => ({
        status: 302,
        headers: { location: "http://evil.example/.well-known/oauth-authorization-server" },
      }),
      "GET /.well-known/openid-configuration": () => ({ status: 301, headers: { location: "http://evil.example/" } }),
    }));
    let followed = false;
    const spy = (async (input: string | URL | Request, init?: RequestInit) => {
      if (String(input).includes("evil.example")) followed = true;
      return fetch(input, init);
    }) as typeof fetch;
    const error = await failure(f, autoProvider({ iss: null }), { fetch: spy });
    expectCode(error, "no_authorization_server");
    expect(followed).toBe(false);
  });

  it("huge responses are cut off at the limit, with or without content-length", async () => {
    let f = await setup(() => ({
      "GET /.well-known/oauth-protected-resource/mcp": () => ({ streamBytes: 8 * 1024 * 1024 }),
    }));
    let error = await failure(f);
    expectCode(error, "response_too_large");
    await f.close();
    const big = JSON.stringify({ ...asMetadata("https://x.example"), pad: "y".repeat(300 * 1024) });
    f = await setup(() => ({
      "GET /.well-known/oauth-authorization-server": () => ({
        headers: { "content-type": "application/json" },
        body: big,
      }),
    }));
    error = await failure(f);
    expectCode(error, "response_too_large");
    await f.close();
    f = await setup(() => ({ "POST /token": () => ({ streamBytes: 2 * 1024 * 1024 }) }));
    error = await failure(f, autoProvider({ iss: null }), { maxResponseBytes: 64 * 1024 });
    expectCode(error, "response_too_large");
  });

  it("an authorization response without iss from an AS that promised it is refused; a wrong iss too", async () => {
    for (const iss of [null, "http://127.0.0.1:1", "HTTP://127.0.0.1"]) {
      const f = await setup((f) => ({
        "GET /.well-known/oauth-authorization-server": () =>
          json(asMetadata(f.origin, { authorization_response_iss_parameter_supported: true })),
      }));
      const error = await failure(f, autoProvider({ iss }));
      expectCode(error, "authorization_failed");
      expect(error.message).toMatch(/iss/);
      expect(f.paths()).not.toContain("POST /token");
      await f.close();
    }
  });

  it("a wrong iss is refused even from an AS that does not advertise iss support (RFC 9207 local policy)", async () => {
    const f = await setup(() => ({}));
    const error = await failure(f, autoProvider({ iss: "https://someone-else.example" }));
    expectCode(error, "authorization_failed");
    expect(f.paths()).not.toContain("POST /token");
  });

  it("an AS that does not advertise PKCE S256 is refused before the user is sent there", async () => {
    const f = await setup((f) => ({
      "GET /.well-known/oauth-authorization-server": () =>
        json(asMetadata(f.origin, { code_challenge_methods_supported: ["plain"] })),
    }));
    const provider = autoProvider();
    expectCode(await failure(f, provider), "authorization_failed");
    expect(provider.urls).toHaveLength(0);
  });

  it("a token endpoint answering HTML or an OAuth error gives a clear error with the AS's error code", async () => {
    let f = await setup(() => ({
      "POST /token": () => ({ status: 200, headers: { "content-type": "text/html" }, body: "<html>oops</html>" }),
    }));
    expectCode(await failure(f), "token_request_failed");
    await f.close();
    f = await setup(() => ({
      "POST /token": () => json({ error: "invalid_grant", error_description: "code\u0000expired\r\nX-Evil: 1" }, 400),
    }));
    const error = await failure(f);
    expectCode(error, "token_request_failed");
    expect(error.message).toContain("invalid_grant");
    expect(error.message).not.toMatch(/[\u0000-\u001f]/);
  });

  it("a token is never sent to another origin or to a path outside its resource", async () => {
    const f = await setup((f) => ({
      "GET /.well-known/oauth-protected-resource/mcp": () =>
        json({ resource: `${f.origin}/mcp`, authorization_servers: [f.origin] }),
      "POST /elsewhere": () => json({ ok: true }),
    }));
    const other = await startFake(() => ({ "POST /mcp": () => json({ ok: true }) }));
    try {
      const oauthed = oauthFetch(autoProvider({ iss: null }));
      expect((await oauthed(`${f.origin}/mcp`, { method: "POST", body: "{}" })).status).toBe(200);
      await oauthed(`${f.origin}/elsewhere`, {
        method: "POST",
        body: "{}",
        headers: { authorization: "Bearer caller-set" },
      });
      await oauthed(`${other.origin}/mcp`, { method: "POST", body: "{}" });
      await oauthed(`${f.origin}/mcp-admin`, { method: "POST", body: "{}" });
      const bearerPaths = f.seen.filter((s) => s.authorization === "Bearer good-token").map((s) => s.path);
      expect(bearerPaths).toEqual(["/mcp"]);
      // The caller's own Authorization goes where the caller sent it, never replaced by the token (issue 34, item 11).
      expect(f.seen.find((s) => s.path === "/elsewhere")?.authorization).toBe("Bearer caller-set");
      expect(other.seen.every((s) => s.authorization === undefined)).toBe(true);
    } finally {
      await other.close();
    }
  });

  it("a garbage WWW-Authenticate header does not crash: the client falls back to the well-known URIs", async () => {
    const f = await setup(() => ({ "POST /mcp": mcpEndpoint({ challenge: 'Bearer ,,, ="\u00ff' }) }));
    const response = await oauthFetch(autoProvider({ iss: null }))(`${f.origin}/mcp`, { method: "POST", body: "{}" });
    expect(response.status).toBe(200);
    expect(f.paths()).toContain("GET /.well-known/oauth-protected-resource/mcp");
  });

  it("a pre-registered client bound to another AS is not used there", async () => {
    const f = await setup(() => ({}));
    const provider = autoProvider({
      iss: null,
      extra: { clientInformation: { client_id: "pre", client_secret: "s", issuer: "https://other-as.example" } },
    });
    const error = await failure(f, provider);
    expectCode(error, "no_client_identity");
    expect(provider.urls).toHaveLength(0);
    tokenSentNowhere(f);
    noRegistrationOrToken(f);
  });
});
