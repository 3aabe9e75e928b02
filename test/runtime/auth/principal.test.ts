/**
 * "Who is the caller": one rule for HTTP session binding, per-client limits and `requestState` binding. The oracle
 * for the token digest is node:crypto (independent of the web-only implementation under test).
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { principalOf } from "../../../runtime/auth/principal.ts";
import { principalOf as sealedPrincipalOf } from "../../../runtime/server/request-state.ts";

const info = (extra: { clientId?: string; claims?: Record<string, unknown> }, token = "tok") => ({
  token,
  scopes: [],
  ...extra,
});

describe("principalOf", () => {
  it("is undefined without authentication", () => {
    expect(principalOf(undefined)).toBeUndefined();
  });

  it("names the subject first, qualified by its issuer, whatever the client", () => {
    const alice = principalOf(info({ clientId: "app", claims: { sub: "alice", iss: "https://as.test" } }));
    expect(alice).toBe('sub:["https://as.test","alice"]');
    expect(principalOf(info({ clientId: "other-app", claims: { sub: "alice", iss: "https://as.test" } }))).toBe(alice);
    expect(principalOf(info({ clientId: "app", claims: { sub: "bob", iss: "https://as.test" } }))).not.toBe(alice);
    // The same subject at another issuer is another user.
    expect(principalOf(info({ claims: { sub: "alice", iss: "https://other.test" } }))).not.toBe(alice);
    expect(principalOf(info({ claims: { sub: "alice" } }))).toBe('sub:[null,"alice"]');
  });

  it("cannot be spelled by choosing issuer and subject text", () => {
    const a = principalOf(info({ claims: { iss: 'x","y', sub: "z" } }));
    const b = principalOf(info({ claims: { iss: "x", sub: 'y","z' } }));
    expect(a).not.toBe(b);
  });

  it("falls back to the client id when there is no subject (a non-string sub does not count)", () => {
    expect(principalOf(info({ clientId: "app" }))).toBe('client:[null,"app"]');
    expect(principalOf(info({ clientId: "app", claims: { sub: 42 } }))).toBe('client:[null,"app"]');
    // Across tokens: the same client is the same caller.
    expect(principalOf(info({ clientId: "app" }, "t1"))).toBe(principalOf(info({ clientId: "app" }, "t2")));
  });

  it("qualifies the client id by its issuer: the same client id at two issuers is two callers", () => {
    const appOfA = principalOf(info({ clientId: "app", claims: { iss: "https://a.test" } }));
    expect(appOfA).toBe('client:["https://a.test","app"]');
    expect(principalOf(info({ clientId: "app", claims: { iss: "https://b.test" } }))).not.toBe(appOfA);
    expect(principalOf(info({ clientId: "app" }))).not.toBe(appOfA);
    // The verifier's issuer (AuthInfo.issuer) counts first, for a token whose claims name none (e.g. introspection).
    expect(principalOf({ ...info({ clientId: "app" }), issuer: "https://a.test" })).toBe(appOfA);
    expect(principalOf({ ...info({ claims: { sub: "alice" } }), issuer: "https://a.test" })).toBe(
      'sub:["https://a.test","alice"]',
    );
    // Client id and issuer text cannot spell another pair.
    expect(principalOf(info({ clientId: 'y","z', claims: { iss: "x" } }))).not.toBe(
      principalOf(info({ clientId: "z", claims: { iss: 'x","y' } })),
    );
  });

  it("falls back to a SHA-256 digest of the token, never the token itself", () => {
    const token = "secret-token-ä";
    const expected = createHash("sha256").update(token, "utf8").digest("base64url");
    const principal = principalOf(info({}, token));
    expect(principal).toBe(`token:${expected}`);
    expect(principal).not.toContain(token);
    expect(principalOf(info({}, "other"))).not.toBe(principal);
  });

  it('is the rule requestState is bound to ("" when unauthenticated)', () => {
    const withSub = info({ clientId: "app", claims: { sub: "alice" } });
    expect(sealedPrincipalOf(withSub)).toBe(principalOf(withSub));
    expect(sealedPrincipalOf(info({}, "t"))).toBe(principalOf(info({}, "t")));
    expect(sealedPrincipalOf(undefined)).toBe("");
  });
});

describe("principalOf with odd claims", () => {
  it("treats a non-string issuer as no issuer", () => {
    const unqualified = 'sub:[null,"alice"]';
    for (const iss of [42, true, { url: "https://as.test" }, ["https://as.test"], null])
      expect(principalOf({ token: "t", claims: { sub: "alice", iss } }), JSON.stringify(iss)).toBe(unqualified);
  });
});
