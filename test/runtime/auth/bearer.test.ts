/**
 * The resource-server pieces of `runtime/auth` (bearer.ts, metadata.ts) as units, asserted on whole outcomes: the
 * `Authorization` parser's anchors, `authenticate` with custom verifiers (throwing, returning nothing, expired
 * `expiresAt`), the challenges and their `error_description`, scopes per tool, and the metadata URLs.
 */
import { describe, expect, it, vi } from "vitest";
import {
  authenticate,
  bearerToken,
  missingScopes,
  toolScopeChallenge,
  wwwAuthenticate,
  type BearerAuthOptions,
  type VerifyToken,
} from "../../../runtime/auth/bearer.ts";
import type { AuthInfo } from "../../../runtime/transport/transport.ts";
import { metadataDocument, metadataPath, metadataUrl } from "../../../runtime/auth/metadata.ts";

const resourceMetadata = { resource: "https://mcp.test/mcp", authorization_servers: ["https://as.test"] };
const request = (authorization?: string) => ({
  header: (name: string) => (name === "authorization" ? authorization : name === "x-extra" ? "extra" : undefined),
});
const info = (over: Partial<AuthInfo> = {}): AuthInfo => ({ token: "t", scopes: ["read"], ...over });
const options = (verifyToken: VerifyToken, over: Partial<BearerAuthOptions> = {}): BearerAuthOptions => ({
  verifyToken,
  resourceMetadata,
  ...over,
});

describe("bearerToken", () => {
  it("reads the token of a well-formed header, scheme in any case, spaces around", () => {
    expect(bearerToken(undefined)).toBeUndefined();
    expect(bearerToken("Bearer abc")).toBe("abc");
    expect(bearerToken("bearer abc")).toBe("abc");
    expect(bearerToken("BEARER   abc  ")).toBe("abc");
    expect(bearerToken("Bearer a-b.c_d~e+f/g==")).toBe("a-b.c_d~e+f/g==");
  });

  it('answers "" for anything else: the anchors hold at both ends', () => {
    for (const bad of [
      "",
      "Bearer",
      "Bearer ",
      "Bearerabc",
      "xBearer abc",
      " Bearer abc",
      "Basic abc",
      "Bearer abc def",
      "Bearer abc\nX",
      "Bearer a=b",
      "Bearer abc,",
      "Bearer é",
    ]) {
      expect(bearerToken(bad), JSON.stringify(bad)).toBe("");
    }
  });
});

describe("wwwAuthenticate", () => {
  it("builds the challenge parameters in order, only those given", () => {
    const url = "https://mcp.test/.well-known/oauth-protected-resource/mcp";
    expect(wwwAuthenticate(url)).toBe(`Bearer resource_metadata="${url}"`);
    expect(wwwAuthenticate(url, { scope: [] })).toBe(`Bearer resource_metadata="${url}"`);
    expect(wwwAuthenticate(url, { error: "insufficient_scope", scope: ["a", "b"], description: "need more" })).toBe(
      `Bearer resource_metadata="${url}", scope="a b", error="insufficient_scope", error_description="need more"`,
    );
    expect(wwwAuthenticate(url, { error: "invalid_token" })).toBe(
      `Bearer resource_metadata="${url}", error="invalid_token"`,
    );
  });
});

describe("authenticate", () => {
  const never: VerifyToken = () => {
    throw new Error("must not be called");
  };

  it("answers a request without a token with a bare 401, naming required scopes", async () => {
    expect(await authenticate(request(), options(never))).toEqual({ ok: false, status: 401, challenge: {} });
    expect(await authenticate(request(), options(never, { requiredScopes: ["a"] }))).toEqual({
      ok: false,
      status: 401,
      challenge: { scope: ["a"] },
    });
    expect(await authenticate(request(), options(never, { requiredScopes: [] }))).toEqual({
      ok: false,
      status: 401,
      challenge: {},
    });
  });

  it("answers a malformed header with invalid_request", async () => {
    expect(await authenticate(request("Token x"), options(never))).toEqual({
      ok: false,
      status: 401,
      challenge: { error: "invalid_request", description: "malformed Authorization header" },
    });
  });

  it("passes the token and the request to the verifier and returns its identity", async () => {
    const seen: Array<[string, string | undefined]> = [];
    const identity = info({ expiresAt: Math.floor(Date.now() / 1000) + 60, issuer: "https://as.test" });
    const outcome = await authenticate(
      request("Bearer tok"),
      options((token, req) => (seen.push([token, req.header("x-extra")]), identity)),
    );
    expect(outcome).toEqual({ ok: true, authInfo: identity });
    expect(outcome.ok && outcome.authInfo).toBe(identity);
    expect(seen).toEqual([["tok", "extra"]]);
  });

  it("names the issuer of an identity that names none when the resource has one authorization server", async () => {
    const bare = info({ clientId: "app" });
    const filled = await authenticate(
      request("Bearer t"),
      options(() => bare),
    );
    expect(filled).toEqual({ ok: true, authInfo: { ...bare, issuer: "https://as.test" } });
    // The verifier's issuer or the token's iss claim stays as it is.
    const claimed = info({ clientId: "app", claims: { iss: "https://other.test" } });
    expect(
      await authenticate(
        request("Bearer t"),
        options(() => claimed),
      ),
    ).toEqual({ ok: true, authInfo: claimed });
    // Several authorization servers and no word of which one issued it: none is guessed.
    const two = { ...resourceMetadata, authorization_servers: ["https://as.test", "https://as2.test"] };
    const unguessed = await authenticate(
      request("Bearer t"),
      options(() => bare, { resourceMetadata: two }),
    );
    expect(unguessed).toEqual({ ok: true, authInfo: bare });
  });

  it("answers a verifier that throws with invalid_token and its message (header-safe)", async () => {
    const thrown = await authenticate(
      request("Bearer t"),
      options(() => Promise.reject(new Error("signature verification failed"))),
    );
    expect(thrown).toEqual({
      ok: false,
      status: 401,
      challenge: { error: "invalid_token", description: "signature verification failed" },
    });
    const odd = await authenticate(
      request("Bearer t"),
      options(() => {
        throw "not an error";
      }),
    );
    expect(odd).toEqual({
      ok: false,
      status: 401,
      challenge: { error: "invalid_token", description: "token verification failed" },
    });
    const hostile = await authenticate(
      request("Bearer t"),
      options(() => {
        throw new Error('a\r\nSet-Cookie: x="1" – é');
      }),
    );
    expect(hostile.ok).toBe(false);
    const description = !hostile.ok ? (hostile.challenge.description ?? "") : "";
    // Every character RFC 6750 does not allow in the value becomes "?".
    expect(description).toBe("a??Set-Cookie: x=?1? ? ?");
    const long = async (length: number) => {
      const outcome = await authenticate(
        request("Bearer t"),
        options(() => {
          throw new Error("x".repeat(length));
        }),
      );
      return !outcome.ok ? (outcome.challenge.description ?? "") : "";
    };
    expect(await long(200)).toBe("x".repeat(200));
    expect(await long(201)).toBe(`${"x".repeat(197)}...`);
  });

  it("answers a verifier that returns nothing with invalid_token", async () => {
    for (const nothing of [undefined, Promise.resolve(undefined)]) {
      expect(
        await authenticate(
          request("Bearer t"),
          options(() => nothing),
        ),
      ).toEqual({
        ok: false,
        status: 401,
        challenge: { error: "invalid_token", description: "invalid token" },
      });
    }
  });

  it("rejects an identity whose expiresAt has passed, even from a custom verifier", async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = { ok: false, status: 401, challenge: { error: "invalid_token", description: "token expired" } };
    expect(
      await authenticate(
        request("Bearer t"),
        options(() => info({ expiresAt: now - 1 })),
      ),
    ).toEqual(expired);
    expect(
      await authenticate(
        request("Bearer t"),
        options(() => info({ expiresAt: now })),
      ),
    ).toEqual(expired);
    expect(
      await authenticate(
        request("Bearer t"),
        options(() => info({ expiresAt: 0 })),
      ),
    ).toEqual(expired);
    expect(
      (
        await authenticate(
          request("Bearer t"),
          options(() => info({ expiresAt: now + 5 })),
        )
      ).ok,
    ).toBe(true);
    expect(
      (
        await authenticate(
          request("Bearer t"),
          options(() => info()),
        )
      ).ok,
    ).toBe(true);
  });

  it("treats a token as expired from its expiresAt second on", async () => {
    const spy = vi.spyOn(Date, "now").mockReturnValue(1_700_000_000_000);
    try {
      expect(
        (
          await authenticate(
            request("Bearer t"),
            options(() => info({ expiresAt: 1_700_000_000 })),
          )
        ).ok,
      ).toBe(false);
      expect(
        (
          await authenticate(
            request("Bearer t"),
            options(() => info({ expiresAt: 1_700_000_001 })),
          )
        ).ok,
      ).toBe(true);
    } finally {
      spy.mockRestore();
    }
  });

  it("answers missing required scopes with 403 insufficient_scope naming them", async () => {
    const outcome = await authenticate(
      request("Bearer t"),
      options(() => info({ scopes: ["read"] }), { requiredScopes: ["read", "write"] }),
    );
    expect(outcome).toEqual({
      ok: false,
      status: 403,
      challenge: { error: "insufficient_scope", scope: ["read", "write"], description: "insufficient scope" },
    });
    const covered = await authenticate(
      request("Bearer t"),
      options(() => info({ scopes: ["admin"] }), {
        requiredScopes: ["read"],
        scopeCovers: (granted) => granted === "admin",
      }),
    );
    expect(covered.ok).toBe(true);
  });
});

describe("scopes", () => {
  it("missingScopes lists what is not covered, in the required order", () => {
    expect(missingScopes(info({ scopes: ["b"] }), ["a", "b", "c"])).toEqual(["a", "c"]);
    expect(missingScopes(info({ scopes: [] }), [])).toEqual([]);
    expect(
      missingScopes(info({ scopes: ["x:*"] }), ["x:read", "y:read"], (g, r) => r.startsWith(g.slice(0, -1))),
    ).toEqual(["y:read"]);
  });

  it("toolScopeChallenge names every scope the call needs in one challenge, or nothing", () => {
    const opts = options(() => undefined, {
      requiredScopes: ["mcp", "files"],
      toolScopes: { write: ["files", "files:write"], open: [] },
    });
    expect(toolScopeChallenge(info({ scopes: ["mcp"] }), "write", opts)).toEqual({
      error: "insufficient_scope",
      scope: ["mcp", "files", "files:write"],
      description: "tool 'write' needs scope files files:write",
    });
    expect(toolScopeChallenge(info({ scopes: ["files", "files:write"] }), "write", opts)).toBeUndefined();
    expect(toolScopeChallenge(info({ scopes: [] }), "open", opts)).toBeUndefined();
    expect(toolScopeChallenge(info({ scopes: [] }), "unlisted", opts)).toBeUndefined();
    expect(toolScopeChallenge(info({ scopes: [] }), "constructor", opts)).toBeUndefined();
    expect(
      toolScopeChallenge(
        info({ scopes: [] }),
        "write",
        options(() => undefined),
      ),
    ).toBeUndefined();
    const noRequired = options(() => undefined, { toolScopes: { t: ["s"] } });
    expect(toolScopeChallenge(info({ scopes: [] }), "t", noRequired)?.scope).toEqual(["s"]);
  });
});

describe("protected resource metadata", () => {
  it("puts the well-known segment between host and path", () => {
    expect(metadataPath("https://h.test/public/mcp")).toBe("/.well-known/oauth-protected-resource/public/mcp");
    expect(metadataPath("https://h.test/mcp//")).toBe("/.well-known/oauth-protected-resource/mcp");
    expect(metadataPath("https://h.test/")).toBe("/.well-known/oauth-protected-resource");
    expect(metadataUrl("https://h.test:8443/mcp?x=1")).toBe(
      "https://h.test:8443/.well-known/oauth-protected-resource/mcp",
    );
  });

  it("defaults bearer_methods_supported to header, and keeps what the server sets", () => {
    expect(metadataDocument(resourceMetadata)).toEqual({ ...resourceMetadata, bearer_methods_supported: ["header"] });
    expect(metadataDocument({ ...resourceMetadata, bearer_methods_supported: [] })).toEqual({
      ...resourceMetadata,
      bearer_methods_supported: [],
    });
  });
});
