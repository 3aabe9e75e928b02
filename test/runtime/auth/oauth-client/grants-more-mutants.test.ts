/**
 * More of grants.ts, dpop.ts, loopback.ts and stores.ts (see grants-mutants.test.ts): the tokens a JWT bearer grant
 * keeps, DPoP on that grant, the messages of failed exchanges, DPoP requests without a method or whose fetch fails,
 * the loopback listener's port, 404s and close, and a file holding a JSON string; on an in-memory network.
 * Equivalent mutants left alive by these tests: docs/mutation.md.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { decodeJwt } from "jose";
import {
  enterpriseAssertion,
  fileStore,
  loopbackAuthorizer,
  memoryStore,
  OAuthClientError,
  oauthFetch,
  type AssertionContext,
} from "../../../../runtime/auth/index.ts";
import { AS, challenge, clientError, jsonReply, post, RS, standardRoutes, stubNet, TOKEN } from "./oauth-harness.ts";

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

describe("DPoP requests to the MCP server", () => {
  const dpopNet = (mcp: (req: { method: string; headers: Headers }) => Response | Promise<Response>) =>
    stubNet({
      ...standardRoutes({ as: { dpop_signing_alg_values_supported: ["ES256"] } }),
      [`GET ${RS}/mcp`]: (req) => (req.headers.has("dpop") ? mcp(req) : challenge('DPoP algs="ES256"')),
      [TOKEN]: () => jsonReply({ access_token: "tok-1", token_type: "DPoP" }),
    });

  it("default to GET (the proof says so), retry a nonce challenge without a body, and let a failed fetch through", async () => {
    let nonceSent = false;
    const net = dpopNet(() => {
      if (nonceSent) return jsonReply({});
      nonceSent = true;
      return new Response(null, {
        status: 401,
        headers: { "www-authenticate": 'DPoP error="use_dpop_nonce"', "dpop-nonce": "n1" },
      });
    });
    expect(
      (
        await oauthFetch(
          { clientCredentials: { client_id: "s", client_secret: "p" } },
          { fetch: net.fetch },
        )(`${RS}/mcp`)
      ).status,
    ).toBe(200);
    const proofs = net.sent.filter((s) => s.url.pathname === "/mcp" && s.headers.has("dpop"));
    expect(proofs.map((s) => decodeJwt(s.headers.get("dpop")!)["htm"])).toEqual(["GET", "GET"]);

    const broken = dpopNet(() => Promise.reject(new Error("connection reset")));
    const f = oauthFetch({ clientCredentials: { client_id: "s", client_secret: "p" } }, { fetch: broken.fetch });
    await expect(f(`${RS}/mcp`)).rejects.toThrow("connection reset");
  });
});

describe("loopbackAuthorizer's listener", () => {
  it("uses the port given, answers other paths with a plain 404, survives an early callback, and closes", async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const port = (probe.address() as { port: number }).port;
    await expect(loopbackAuthorizer({ port, open: () => undefined })).rejects.toMatchObject({ code: "EADDRINUSE" });
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    const loopback = await loopbackAuthorizer({ port, open: () => undefined });
    expect(loopback.redirectUrl).toBe(`http://127.0.0.1:${port}/callback`);
    const missing = await fetch(`http://127.0.0.1:${port}/elsewhere`);
    expect([missing.status, missing.headers.get("content-type"), await missing.text()]).toEqual([
      404,
      "text/plain",
      "not found",
    ]);
    // Bound to 127.0.0.1 only (RFC 8252 §7.3): another loopback address, like any other interface, reaches nothing.
    await expect(fetch(`http://127.0.0.2:${port}/callback`)).rejects.toThrow();
    // A callback nobody waits for yet is answered, and the listener keeps working.
    expect((await fetch(`${loopback.redirectUrl}?code=early`)).status).toBe(200);
    const received = loopback.authorize(new URL("https://as.example/authorize"));
    await fetch(`${loopback.redirectUrl}?code=c2`);
    expect((await received).get("code")).toBe("c2");
    await loopback.close();
    await expect(fetch(loopback.redirectUrl)).rejects.toThrow();
  });
});

describe("fileStore with odd contents", () => {
  it("reads a file holding a JSON string as empty", async () => {
    const dir = await mkdtemp(join(tmpdir(), "oauth-mutants-"));
    try {
      const path = join(dir, "string.json");
      await writeFile(path, '"abc"');
      expect(await fileStore(path).get("0")).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("names its errors OAuthClientError", () => {
    expect(new OAuthClientError("m", "insecure_url").name).toBe("OAuthClientError");
  });
});
