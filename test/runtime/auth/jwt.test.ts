/**
 * `jwtVerifier` with real tokens signed here by `jose`: every key source (`key`, `jwks`, secrets), `exp` required
 * by default, `nbf`/`exp` with clock tolerance, issuer/audience (single and lists), `typ`, scopes from `scope` or
 * `scp`, the client id claims, and tokens that must never pass (`alg: none`, algorithm confusion, foreign keys).
 */
import { createSecretKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, UnsecuredJWT, type JWK } from "jose";
import { jwtVerifier, type JwtVerifierOptions } from "../../../runtime/auth/jwt.ts";
import type { AuthInfo } from "../../../runtime/transport/transport.ts";

const ISSUER = "https://issuer.test";
const AUDIENCE = "https://mcp.test/mcp";
const NO_HEADERS = { header: () => undefined };
const now = () => Math.floor(Date.now() / 1000);

let es: { publicKey: CryptoKey; privateKey: CryptoKey };
let other: { publicKey: CryptoKey; privateKey: CryptoKey };
let jwk: JWK;

beforeAll(async () => {
  es = await generateKeyPair("ES256", { extractable: true });
  other = await generateKeyPair("ES256", { extractable: true });
  jwk = { ...(await exportJWK(es.publicKey)), kid: "k1", alg: "ES256", use: "sig" };
});

interface Claims {
  readonly [claim: string]: unknown;
}

/** A token with iss/aud/exp set unless overridden (`null` leaves a claim out). */
function sign(
  claims: Claims = {},
  opts: {
    iss?: string | null;
    aud?: string | string[] | null;
    exp?: number | null;
    nbf?: number;
    header?: Record<string, unknown>;
  } = {},
  key: CryptoKey | KeyObject | Uint8Array = es.privateKey,
): Promise<string> {
  let jwt = new SignJWT({ ...claims }).setProtectedHeader({ alg: "ES256", kid: "k1", ...opts.header } as {
    alg: string;
  });
  if (opts.iss !== null) jwt = jwt.setIssuer(opts.iss ?? ISSUER);
  if (opts.aud !== null) jwt = jwt.setAudience(opts.aud ?? AUDIENCE);
  if (opts.exp !== null) jwt = jwt.setExpirationTime(opts.exp ?? now() + 300);
  if (opts.nbf !== undefined) jwt = jwt.setNotBefore(opts.nbf);
  return jwt.sign(key);
}

type Overrides = { -readonly [K in keyof JwtVerifierOptions]?: JwtVerifierOptions[K] | undefined };

/** Verifies with the ES256 public key unless `options` say otherwise (`key: undefined` removes it). */
async function verify(token: string, options: Overrides = {}): Promise<AuthInfo | undefined> {
  const merged: Overrides = { issuer: ISSUER, audience: AUDIENCE, key: es.publicKey, ...options };
  if (merged.key === undefined) delete merged.key;
  const verifier = jwtVerifier(merged as JwtVerifierOptions);
  return verifier(token, NO_HEADERS);
}

describe("jwtVerifier: key sources", () => {
  it("verifies with a fixed public key and returns the identity", async () => {
    const exp = now() + 120;
    const token = await sign({ scope: "a b", client_id: "app", sub: "u1" }, { exp });
    const info = await verify(token);
    expect(info).toEqual({
      token,
      scopes: ["a", "b"],
      clientId: "app",
      issuer: ISSUER,
      expiresAt: exp,
      claims: { scope: "a b", client_id: "app", sub: "u1", iss: ISSUER, aud: AUDIENCE, exp },
    });
  });

  it("verifies with a local JWKS, picking the key by kid", async () => {
    const token = await sign({ scope: "x" });
    await expect(verify(token, { key: undefined, jwks: { keys: [jwk] } })).resolves.toMatchObject({ scopes: ["x"] });
    const unknownKid = await sign({}, { header: { kid: "k2" } });
    const otherKeyOnly = { keys: [{ ...(await exportJWK(other.publicKey)), kid: "k2", alg: "ES256" }] };
    await expect(verify(unknownKid, { key: undefined, jwks: { keys: [jwk] } })).rejects.toThrow(/no applicable key/i);
    await expect(verify(token, { key: undefined, jwks: otherKeyOnly })).rejects.toThrow();
  });

  it("prefers `key` over `jwks` and needs one key source", async () => {
    const token = await sign();
    const otherJwks = { keys: [{ ...(await exportJWK(other.publicKey)), kid: "k1", alg: "ES256" }] };
    await expect(verify(token, { jwks: otherJwks })).resolves.toBeDefined();
    expect(() => jwtVerifier({ issuer: ISSUER, audience: AUDIENCE })).toThrow(/needs one of jwksUrl, jwks or key/);
  });

  it("rejects a token signed by another key", async () => {
    await expect(verify(await sign({}, {}, other.privateKey))).rejects.toThrow(/signature/i);
  });

  it("accepts HMAC tokens with a shared secret (bytes or a secret KeyObject), and only HMAC ones", async () => {
    const secret = new TextEncoder().encode("a-shared-secret-of-at-least-32-bytes!!");
    const hs = await new SignJWT({ scope: "s" })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setExpirationTime("1m")
      .sign(secret);
    await expect(verify(hs, { key: secret })).resolves.toMatchObject({ scopes: ["s"] });
    await expect(verify(hs, { key: createSecretKey(secret) })).resolves.toMatchObject({ scopes: ["s"] });
    // A public key's verifier does not default to HMAC algorithms.
    await expect(verify(hs)).rejects.toThrow(/alg/i);
    await expect(verify(await sign(), { key: secret })).rejects.toThrow(/alg/i);
  });

  it("accepts every default algorithm: the asymmetric ones for keys, HS256/384/512 for secrets", async () => {
    // A node KeyObject: WebCrypto RSA keys are bound to one hash, these serve every RS/PS algorithm.
    const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
    type Pair = { publicKey: CryptoKey | KeyObject; privateKey: CryptoKey | KeyObject };
    const pairs: Array<[string, Pair]> = [
      ...["RS256", "RS384", "RS512", "PS256", "PS384", "PS512"].map((alg): [string, Pair] => [alg, rsa]),
      ["ES256", es],
      ["ES384", await generateKeyPair("ES384")],
      ["ES512", await generateKeyPair("ES512")],
      ["EdDSA", await generateKeyPair("EdDSA", { crv: "Ed25519" })],
      ["Ed25519", await generateKeyPair("Ed25519")],
    ];
    for (const [alg, pair] of pairs) {
      const token = await sign({}, { header: { alg } }, pair.privateKey);
      await expect(verify(token, { key: pair.publicKey }), alg).resolves.toBeDefined();
    }
    const secret = new TextEncoder().encode("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
    for (const alg of ["HS256", "HS384", "HS512"]) {
      const token = await sign({}, { header: { alg } }, secret);
      await expect(verify(token, { key: secret }), alg).resolves.toBeDefined();
    }
  });

  it("restricts algorithms when told to", async () => {
    await expect(verify(await sign(), { algorithms: ["ES384"] })).rejects.toThrow(/alg/i);
    await expect(verify(await sign(), { algorithms: ["ES256"] })).resolves.toBeDefined();
  });
});

describe("jwtVerifier: tokens that must never pass", () => {
  it("rejects alg none", async () => {
    const unsecured = new UnsecuredJWT({ scope: "a" })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setExpirationTime("1m")
      .encode();
    await expect(verify(unsecured)).rejects.toThrow();
    await expect(verify(unsecured, { key: undefined, jwks: { keys: [jwk] } })).rejects.toThrow();
  });

  it("rejects algorithm confusion: HS256 signed with the public key's bytes", async () => {
    const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const pem = rsa.publicKey.export({ type: "spki", format: "pem" }) as string;
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256", kid: "k1" })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setExpirationTime("1m")
      .sign(new TextEncoder().encode(pem));
    await expect(verify(forged, { key: rsa.publicKey })).rejects.toThrow(/alg/i);
    const spki = await exportSPKI(es.publicKey);
    const forgedEs = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256", kid: "k1" })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setExpirationTime("1m")
      .sign(new TextEncoder().encode(spki));
    await expect(verify(forgedEs)).rejects.toThrow(/alg/i);
    await expect(verify(forgedEs, { key: undefined, jwks: { keys: [jwk] } })).rejects.toThrow(/alg/i);
    // Even when HS256 is allowed explicitly, a public key cannot verify an HMAC.
    await expect(verify(forgedEs, { algorithms: ["HS256", "ES256"] })).rejects.toThrow();
  });

  it("rejects malformed tokens", async () => {
    for (const bad of ["", "abc", "a.b.c", "e30.e30.", `${(await sign()).slice(0, -4)}AAAA`]) {
      await expect(verify(bad)).rejects.toThrow();
    }
  });
});

describe("jwtVerifier: exp, nbf and clock tolerance", () => {
  it("requires exp by default; `requireExp: false` opts out", async () => {
    const noExp = await sign({ scope: "a" }, { exp: null });
    await expect(verify(noExp)).rejects.toThrow(/"exp" claim/);
    const info = await verify(noExp, { requireExp: false });
    expect(info).toMatchObject({ scopes: ["a"] });
    expect(info && "expiresAt" in info).toBe(false);
    // Opting out of the requirement still checks an exp that is present.
    await expect(verify(await sign({}, { exp: now() - 60 }), { requireExp: false })).rejects.toThrow(/exp/);
  });

  it("tolerates 5 s of skew on exp by default, and what clockToleranceSec says", async () => {
    const justExpired = await sign({}, { exp: now() - 1 });
    const longExpired = await sign({}, { exp: now() - 20 });
    await expect(verify(justExpired)).resolves.toBeDefined();
    await expect(verify(longExpired)).rejects.toThrow(/exp/);
    await expect(verify(justExpired, { clockToleranceSec: 0 })).rejects.toThrow(/exp/);
    await expect(verify(longExpired, { clockToleranceSec: 60 })).resolves.toBeDefined();
  });

  it("rejects a token not yet valid (nbf), within the tolerance too", async () => {
    await expect(verify(await sign({}, { nbf: now() + 60 }))).rejects.toThrow(/nbf/);
    await expect(verify(await sign({}, { nbf: now() + 2 }))).resolves.toBeDefined();
    await expect(verify(await sign({}, { nbf: now() + 2 }), { clockToleranceSec: 0 })).rejects.toThrow(/nbf/);
  });
});

describe("jwtVerifier: issuer, audience and typ", () => {
  it("checks the issuer exactly, from one or a list", async () => {
    await expect(verify(await sign({}, { iss: "https://evil.test" }))).rejects.toThrow(/iss/);
    await expect(verify(await sign({}, { iss: `${ISSUER}/` }))).rejects.toThrow(/iss/);
    await expect(verify(await sign({}, { iss: null }))).rejects.toThrow(/iss/);
    const listed = await sign({}, { iss: "https://second.test" });
    await expect(verify(listed, { issuer: [ISSUER, "https://second.test"] })).resolves.toBeDefined();
  });

  it("checks the audience, from one or a list, and tokens naming several audiences", async () => {
    await expect(verify(await sign({}, { aud: "https://other.test/mcp" }))).rejects.toThrow(/aud/);
    await expect(verify(await sign({}, { aud: null }))).rejects.toThrow(/aud/);
    await expect(verify(await sign({}, { aud: ["https://x.test", AUDIENCE] }))).resolves.toBeDefined();
    const listed = await sign({}, { aud: "https://alt.test/mcp" });
    await expect(verify(listed, { audience: [AUDIENCE, "https://alt.test/mcp"] })).resolves.toBeDefined();
  });

  it("checks typ only when configured", async () => {
    const at = await sign({}, { header: { typ: "at+jwt" } });
    const plain = await sign({}, { header: { typ: "JWT" } });
    await expect(verify(at, { typ: "at+jwt" })).resolves.toBeDefined();
    await expect(verify(plain, { typ: "at+jwt" })).rejects.toThrow(/typ/);
    await expect(verify(await sign(), { typ: "at+jwt" })).rejects.toThrow(/typ/);
    await expect(verify(plain)).resolves.toBeDefined();
  });
});

describe("jwtVerifier: scopes and client id", () => {
  const scopesOf = async (claims: Claims) => (await verify(await sign(claims)))?.scopes;

  it("reads scope (space-separated), else scp (array or string)", async () => {
    expect(await scopesOf({ scope: "a  b c" })).toEqual(["a", "b", "c"]);
    expect(await scopesOf({ scp: ["x", 5, "y"] })).toEqual(["x", "y"]);
    expect(await scopesOf({ scp: "p  q " })).toEqual(["p", "q"]);
    expect(await scopesOf({ scope: "a", scp: ["x"] })).toEqual(["a"]);
    expect(await scopesOf({ scope: 7, scp: ["x"] })).toEqual(["x"]);
    expect(await scopesOf({ scp: { a: 1 } })).toEqual([]);
    expect(await scopesOf({})).toEqual([]);
  });

  it("takes the client id from client_id, then azp, then cid", async () => {
    const clientOf = async (claims: Claims) => (await verify(await sign(claims)))?.clientId;
    expect(await clientOf({ client_id: "c", azp: "a", cid: "i" })).toBe("c");
    expect(await clientOf({ client_id: 1, azp: "a", cid: "i" })).toBe("a");
    expect(await clientOf({ cid: "i" })).toBe("i");
    const none = await verify(await sign({ client_id: 3 }));
    expect(none && "clientId" in none).toBe(false);
  });
});
