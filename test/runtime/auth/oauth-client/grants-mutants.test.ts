/**
 * Grants without a user (grants.ts), DPoP key choice and when DPoP is used (dpop.ts, fetch.ts), the stores and the
 * loopback receiver: what reaches the token endpoints and the MCP server, checked on an in-memory network; DPoP
 * proofs are checked with jose against the key they embed (independent of oauth4webapi, which makes them).
 */
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { decodeProtectedHeader, EmbeddedJWK, jwtVerify } from "jose";
import {
  enterpriseAssertion,
  fileStore,
  loopbackAuthorizer,
  oauthFetch,
  type AssertionContext,
} from "../../../../runtime/auth/index.ts";
import {
  approver,
  AS,
  clientError,
  jsonReply,
  post,
  RS,
  standardRoutes,
  stubNet,
  TOKEN,
} from "./oauth-harness.ts";

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

describe("DPoP", () => {
  const dpopRoutes = (algs: unknown, rsChallenge = "Bearer", prm: Record<string, unknown> = {}) => ({
    ...standardRoutes({ as: { dpop_signing_alg_values_supported: algs }, prm }),
    [`POST ${RS}/mcp`]: (req: { headers: Headers }) =>
      (req.headers.get("authorization") ?? "").endsWith(" tok-1")
        ? jsonReply({ ok: 1 })
        : jsonReply({}, 401, { "www-authenticate": rsChallenge }),
    [TOKEN]: (req: { headers: Headers }) =>
      jsonReply({ access_token: "tok-1", token_type: req.headers.has("dpop") ? "DPoP" : "Bearer" }),
  });
  const proofAlg = async (net: ReturnType<typeof stubNet>) => {
    const proof = net.sent.find((s) => s.url.pathname === "/token")!.headers.get("dpop");
    if (proof === null) return undefined;
    await jwtVerify(proof, EmbeddedJWK, { typ: "dpop+jwt" });
    return decodeProtectedHeader(proof).alg;
  };

  it("picks the first of ES256, Ed25519, PS256, RS256 the AS offers", async () => {
    for (const [offered, alg] of [
      [["RS256", "PS256", "Ed25519", "ES256"], "ES256"],
      [["RS256", "PS256", "Ed25519"], "Ed25519"],
      [["RS256", "PS256"], "PS256"],
      [["RS256"], "RS256"],
      // Never a proof in an algorithm the AS did not list: oauth4webapi names Ed25519 proofs "Ed25519", not "EdDSA".
      [["EdDSA"], undefined],
      [["EdDSA", "RS256"], "RS256"],
      [["HS256"], undefined],
      ["ES256", undefined],
    ] as const) {
      const net = stubNet(dpopRoutes(offered, 'DPoP algs="ES256"'));
      const response = await post(oauthFetch(approver(), { fetch: net.fetch }));
      expect(await proofAlg(net), JSON.stringify(offered)).toBe(alg);
      const last = net.sent.at(-1)!;
      expect(response.status).toBe(200);
      expect(last.headers.get("authorization")).toBe(alg ? "DPoP tok-1" : "Bearer tok-1");
      expect(last.headers.has("dpop")).toBe(alg !== undefined);
    }
  });

  it("is used when PRM requires it or the option asks for it, and not for a Bearer-only server by default", async () => {
    const cases = [
      [{ dpop_bound_access_tokens_required: true }, undefined, true],
      [{}, true, true],
      [{}, undefined, false],
    ] as const;
    for (const [prm, option, used] of cases) {
      const net = stubNet(dpopRoutes(["ES256"], "Bearer", prm));
      const options = { fetch: net.fetch, ...(option !== undefined && { dpop: option }) };
      expect((await post(oauthFetch(approver(), options))).status).toBe(200);
      expect((await proofAlg(net)) !== undefined, JSON.stringify([prm, option])).toBe(used);
    }
  });
});

describe("DPoP at the MCP server", () => {
  it("retries once with the server's nonce, then gives the answer back; the caller's signal reaches the request", async () => {
    const net = stubNet({
      ...standardRoutes({ as: { dpop_signing_alg_values_supported: ["ES256"] } }),
      [`POST ${RS}/mcp`]: (req) =>
        req.headers.get("authorization")?.startsWith("DPoP ")
          ? jsonReply({}, 401, { "www-authenticate": 'DPoP error="use_dpop_nonce"', "dpop-nonce": "n1" })
          : jsonReply({}, 401, { "www-authenticate": 'DPoP algs="ES256"' }),
      [TOKEN]: () => jsonReply({ access_token: "tok-1", token_type: "DPoP" }),
    });
    const caller = new AbortController();
    const f = oauthFetch(approver(), { fetch: net.fetch, maxAuthorizations: 1 });
    const response = await f(`${RS}/mcp`, { method: "POST", body: "{}", signal: caller.signal });
    expect(response.status).toBe(401);
    const bound = net.sent.filter((s) => s.url.pathname === "/mcp" && s.headers.has("dpop"));
    const nonces = await Promise.all(
      bound.map(async (s) => (await jwtVerify(s.headers.get("dpop")!, EmbeddedJWK)).payload["nonce"]),
    );
    expect(nonces).toEqual([undefined, "n1"]);
    caller.abort();
    expect(bound.map((s) => s.signal.aborted)).toEqual([true, true]);
  });
});

describe("fileStore", () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("reads a missing file or a JSON non-object as empty, and inherited names as absent", async () => {
    dir = await mkdtemp(join(tmpdir(), "oauth-mutants-"));
    expect(await fileStore(join(dir, "missing.json")).get("k")).toBeUndefined();
    const path = join(dir, "array.json");
    await fileStore(path).set("k", { v: 1 });
    for (const text of ["[1]", "null", "3"]) {
      await writeFile(path, text);
      const store = fileStore(path);
      expect(await store.get("0")).toBeUndefined();
      expect(await store.get("toString")).toBeUndefined();
    }
  });

  it("does not hide a read error other than a missing file", async () => {
    dir = await mkdtemp(join(tmpdir(), "oauth-mutants-"));
    await mkdir(join(dir, "a-directory"));
    await expect(fileStore(join(dir, "a-directory")).get("k")).rejects.toMatchObject({ code: "EISDIR" });
  });
});

describe("loopbackAuthorizer", () => {
  it("listens on the given path only (GET), and by default prints the URL on stderr", async () => {
    const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
    const loopback = await loopbackAuthorizer({ path: "/done" });
    try {
      expect(loopback.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/done$/);
      const received = loopback.authorize(new URL("https://as.example/authorize?x=1"));
      await vi.waitFor(() => expect(write).toHaveBeenCalled());
      expect(write.mock.calls[0]![0]).toBe("Open this URL to authorize:\n  https://as.example/authorize?x=1\n");
      expect((await fetch(`${loopback.redirectUrl}?code=no`, { method: "POST" })).status).toBe(404);
      expect((await fetch(loopback.redirectUrl.replace("/done", "/callback"))).status).toBe(404);
      const page = await fetch(`${loopback.redirectUrl}?code=c1&state=s1`);
      expect([page.status, page.headers.get("cache-control"), page.headers.get("content-type")]).toEqual([
        200,
        "no-store",
        "text/html; charset=utf-8",
      ]);
      expect(Object.fromEntries(await received)).toEqual({ code: "c1", state: "s1" });
    } finally {
      write.mockRestore();
      await loopback.close();
    }
  });
});
