/**
 * DPoP (RFC 9449): used when the resource server challenges with the DPoP scheme and the AS offers DPoP. The
 * oracle is jose verifying each proof against the key embedded in it, plus the RFC's claims (htm, htu, ath).
 */
import { afterEach, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { decodeJwt, EmbeddedJWK, jwtVerify, decodeProtectedHeader } from "jose";
import { oauthFetch } from "../../../../runtime/auth/index.ts";
import { asMetadata, autoProvider, json, registerRoute, startFake, type Fake } from "./fixtures/fake-as.ts";
import { approver, challenge, jsonReply, post, RS, standardRoutes, stubNet, TOKEN } from "./oauth-harness.ts";

let fake: Fake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

interface Proof {
  readonly htm: string;
  readonly htu: string;
  readonly jti: string;
  readonly ath?: string;
  readonly nonce?: string;
}

async function verifyProof(proof: string | undefined): Promise<Proof & { thumbprintKey: string }> {
  expect(proof).toBeTruthy();
  expect(decodeProtectedHeader(proof!).typ).toBe("dpop+jwt");
  const { payload, protectedHeader } = await jwtVerify(proof!, EmbeddedJWK, { typ: "dpop+jwt" });
  return { ...(payload as unknown as Proof), thumbprintKey: JSON.stringify(protectedHeader.jwk) };
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("base64url");

async function dpopServer(options: { rsNonce?: boolean; asNonce?: boolean } = {}): Promise<{ fake: Fake }> {
  let asNonceSent = false;
  let rsNonceSent = false;
  fake = await startFake((f) => ({
    "POST /mcp": (req) => {
      if (!req.authorization?.startsWith("DPoP "))
        return {
          status: 401,
          headers: {
            "www-authenticate": `DPoP resource_metadata="${f.origin}/.well-known/oauth-protected-resource/mcp"`,
          },
        };
      if (options.rsNonce && !rsNonceSent) {
        rsNonceSent = true;
        return {
          status: 401,
          headers: { "www-authenticate": 'DPoP error="use_dpop_nonce"', "dpop-nonce": "rs-nonce-1" },
        };
      }
      return json({ ok: true });
    },
    "GET /.well-known/oauth-protected-resource/mcp": () =>
      json({ resource: `${f.origin}/mcp`, authorization_servers: [f.origin] }),
    "GET /.well-known/oauth-authorization-server": () =>
      json(asMetadata(f.origin, { dpop_signing_alg_values_supported: ["ES256"] })),
    "POST /register": registerRoute,
    "POST /token": () => {
      if (options.asNonce && !asNonceSent) {
        asNonceSent = true;
        return {
          status: 400,
          headers: { "dpop-nonce": "as-nonce-1", "content-type": "application/json" },
          body: { error: "use_dpop_nonce" },
        };
      }
      return json({ access_token: "bound-token", token_type: "DPoP", expires_in: 300 });
    },
  }));
  return { fake };
}

describe("DPoP", () => {
  it("binds the token to a key: proofs on the token request and on every MCP request (DPoP scheme, ath, fresh jti)", async () => {
    const { fake: f } = await dpopServer();
    const seenProofs: Record<string, string | undefined>[] = [];
    const spy = (async (input: string | URL | Request, init?: RequestInit) => {
      seenProofs.push({
        url: String(input),
        dpop: new Headers(init?.headers).get("dpop") ?? undefined,
        authorization: new Headers(init?.headers).get("authorization") ?? undefined,
      });
      return fetch(input, init);
    }) as typeof fetch;
    const oauthed = oauthFetch(autoProvider(), { fetch: spy });
    expect((await oauthed(`${f.origin}/mcp`, { method: "POST", body: "{}" })).status).toBe(200);
    expect((await oauthed(`${f.origin}/mcp`, { method: "POST", body: "{}" })).status).toBe(200);

    const token = seenProofs.find((p) => p["url"]!.endsWith("/token"))!;
    const tokenProof = await verifyProof(token["dpop"]);
    expect([tokenProof.htm, tokenProof.htu]).toEqual(["POST", `${f.origin}/token`]);
    const mcp = seenProofs.filter((p) => p["url"] === `${f.origin}/mcp` && p["authorization"]);
    expect(mcp).toHaveLength(2);
    const proofs = await Promise.all(mcp.map((p) => verifyProof(p["dpop"])));
    for (const [i, p] of proofs.entries()) {
      expect(mcp[i]!["authorization"]).toBe("DPoP bound-token");
      expect([p.htm, p.htu, p.ath]).toEqual(["POST", `${f.origin}/mcp`, sha256("bound-token")]);
      expect(p.thumbprintKey).toBe(tokenProof.thumbprintKey); // the same key as at the token endpoint
    }
    expect(new Set(proofs.map((p) => p.jti)).size).toBe(2);
  });

  it("retries with the server's nonce at the token endpoint and at the MCP server", async () => {
    const { fake: f } = await dpopServer({ asNonce: true, rsNonce: true });
    const proofs: { path: string; proof: string | undefined }[] = [];
    const spy = (async (input: string | URL | Request, init?: RequestInit) => {
      proofs.push({
        path: new URL(String(input)).pathname,
        proof: new Headers(init?.headers).get("dpop") ?? undefined,
      });
      return fetch(input, init);
    }) as typeof fetch;
    const response = await oauthFetch(autoProvider(), { fetch: spy })(`${f.origin}/mcp`, {
      method: "POST",
      body: "{}",
    });
    expect(response.status).toBe(200);
    const tokenProofs = await Promise.all(proofs.filter((p) => p.path === "/token").map((p) => verifyProof(p.proof)));
    expect(tokenProofs.map((p) => p.nonce)).toEqual([undefined, "as-nonce-1"]);
    const mcpProofs = await Promise.all(
      proofs.filter((p) => p.path === "/mcp" && p.proof).map((p) => verifyProof(p.proof)),
    );
    // Nonces are kept per origin and the fake's AS and RS share one, so the first MCP proof already carries the
    // AS's nonce; the RS's challenge then makes exactly one retry with its own.
    expect(mcpProofs.map((p) => p.nonce)).toEqual(["as-nonce-1", "rs-nonce-1"]);
  });

  it("a Bearer-only server gets Bearer tokens even when the AS offers DPoP (dpop: false never uses it)", async () => {
    fake = await startFake((f) => ({
      "POST /mcp": (req) =>
        req.authorization === "Bearer plain"
          ? json({ ok: 1 })
          : { status: 401, headers: { "www-authenticate": "Bearer" } },
      "GET /.well-known/oauth-protected-resource/mcp": () =>
        json({ resource: `${f.origin}/mcp`, authorization_servers: [f.origin] }),
      "GET /.well-known/oauth-authorization-server": () =>
        json(asMetadata(f.origin, { dpop_signing_alg_values_supported: ["ES256"] })),
      "POST /register": registerRoute,
      "POST /token": (req) =>
        json({ access_token: "plain", token_type: req.body.includes("dpop") ? "DPoP" : "Bearer" }),
    }));
    const response = await oauthFetch(autoProvider())(`${fake.origin}/mcp`, { method: "POST", body: "{}" });
    expect(response.status).toBe(200);
    expect(fake.seen.filter((s) => s.path === "/mcp").map((s) => s.authorization)).toEqual([undefined, "Bearer plain"]);
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
