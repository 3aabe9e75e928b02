/**
 * Forged bearer tokens against examples/everything served with `auth` (`jwtVerifier` on a local RS256 JWKS): every
 * forgery gets 401 with a header-safe `WWW-Authenticate`, the process stays up, and a genuine token still works.
 * Tokens are assembled by hand (base64url parts, node:crypto signatures) so nothing a JWT library refuses to
 * produce is out of reach.
 */
import { createHmac, createSign, generateKeyPairSync, type KeyObject } from "node:crypto";
import fc from "fast-check";
import { HEAP_SLACK_BYTES, startServer } from "../harness/process.ts";
import { head, HEADER_SAFE, rawRequest } from "../harness/raw-http.ts";
import type { RunOptions } from "./frames.ts";

const ISSUER = "https://issuer.fuzz.test";
const AUDIENCE = "https://mcp.fuzz.test/mcp";
const KID = "fuzz-key";

const b64 = (v: string | Buffer): string => Buffer.from(v).toString("base64url");
const json = (v: unknown): string => b64(JSON.stringify(v));

interface Keys {
  readonly privateKey: KeyObject;
  readonly publicPem: string;
  readonly publicJwk: Record<string, unknown>;
  readonly stranger: KeyObject;
}

function rs256(input: string, key: KeyObject): string {
  return createSign("RSA-SHA256").update(input).sign(key).toString("base64url");
}

/** A token from raw header/payload texts (already base64url) signed with `sign`. */
function assemble(headerB64: string, payloadB64: string, sign: (input: string) => string): string {
  const input = `${headerB64}.${payloadB64}`;
  return `${input}.${sign(input)}`;
}

const now = () => Math.floor(Date.now() / 1000);
const goodClaims = (): Record<string, unknown> => ({
  iss: ISSUER,
  aud: AUDIENCE,
  sub: "fuzz-user",
  iat: now(),
  exp: now() + 600,
});

/** A forged token (and what makes it one), built from its random ingredients at send time (times are relative). */
interface Forgery {
  readonly label: string;
  token(keys: Keys): string;
}

function forgeries(): fc.Arbitrary<Forgery> {
  const signed = (label: string, header: Record<string, unknown>, claims: () => Record<string, unknown>): Forgery => ({
    label,
    token: (k) => assemble(json(header), json(claims()), (i) => rs256(i, k.privateKey)),
  });
  const header = { alg: "RS256", kid: KID, typ: "JWT" };
  const oddText = fc.string({ unit: "binary", maxLength: 20 });
  return fc.oneof(
    // Malformed: not three base64url parts, or parts that are not JSON.
    fc
      .string({ unit: fc.constantFrom(..."abcXYZ019-_.=+/ "), maxLength: 200 })
      .map((t) => ({ label: `malformed ${JSON.stringify(t)}`, token: () => t })),
    fc
      .tuple(oddText, oddText, oddText)
      .map(([a, b, c]) => ({ label: "parts not JSON", token: () => `${b64(a)}.${b64(b)}.${b64(c)}` })),
    fc.constant<Forgery>({
      label: "header is an array",
      token: (k) => assemble(b64("[1]"), json(goodClaims()), (i) => rs256(i, k.privateKey)),
    }),
    fc
      .integer({ min: 1000, max: 7000 })
      .map((n) => ({ label: `huge token (${n} chars)`, token: () => `${"a".repeat(n)}.${"b".repeat(n)}.c` })),
    // Unsigned and algorithm confusion: HMAC keyed with the public key (PEM, JWK JSON, modulus).
    fc
      .constantFrom("none", "None", "NONE", "nOnE")
      .map((alg) => ({ label: `alg ${alg}`, token: () => `${json({ alg, kid: KID })}.${json(goodClaims())}.` })),
    fc.constantFrom("pem", "jwk", "n").chain((form) =>
      fc.constantFrom("HS256", "HS384", "HS512").map<Forgery>((alg) => ({
        label: `${alg} keyed with the public key (${form})`,
        token: (k) => {
          const secret =
            form === "pem"
              ? k.publicPem
              : form === "jwk"
                ? JSON.stringify(k.publicJwk)
                : Buffer.from(String(k.publicJwk["n"]), "base64url");
          const hash = `sha${alg.slice(2)}`;
          return assemble(json({ alg, kid: KID }), json(goodClaims()), (i) =>
            createHmac(hash, secret).update(i).digest("base64url"),
          );
        },
      })),
    ),
    fc.constant<Forgery>({
      label: "signed by another key with our kid",
      token: (k) => assemble(json(header), json(goodClaims()), (i) => rs256(i, k.stranger)),
    }),
    fc.constant<Forgery>({
      label: "valid signature, payload altered",
      token: (k) => {
        const [h, , s] = assemble(json(header), json(goodClaims()), (i) => rs256(i, k.privateKey)).split(".");
        return `${h}.${json({ ...goodClaims(), sub: "admin" })}.${s}`;
      },
    }),
    // Claims: audience, issuer, time.
    fc
      .oneof(fc.constant("https://other.example/mcp"), oddText, fc.constant(["https://other.example/mcp"]))
      .map((aud) => signed(`aud ${JSON.stringify(aud)}`, header, () => ({ ...goodClaims(), aud }))),
    fc
      .oneof(fc.constant("https://evil.example"), oddText)
      .map((iss) => signed(`iss ${JSON.stringify(iss)}`, header, () => ({ ...goodClaims(), iss }))),
    fc
      .integer({ min: 60, max: 10 ** 9 })
      .map((ago) => signed(`expired ${ago} s ago`, header, () => ({ ...goodClaims(), exp: now() - ago }))),
    fc
      .integer({ min: 60, max: 10 ** 9 })
      .map((ahead) => signed(`not valid for ${ahead} s`, header, () => ({ ...goodClaims(), nbf: now() + ahead }))),
    fc.constant(signed("no exp", header, () => ({ iss: ISSUER, aud: AUDIENCE, sub: "fuzz-user", iat: now() }))),
    fc
      .oneof(oddText, fc.constant(null), fc.boolean(), fc.constant({}))
      .map((exp) => signed(`exp ${JSON.stringify(exp)}`, header, () => ({ ...goodClaims(), exp }))),
    // Odd header contents: `crit` (the crash of issue 9), huge or control-character kids, unknown algorithms.
    fc
      .array(fc.oneof(oddText, fc.constantFrom("a\nb", "a\r\nSet-Cookie: x=1", "–", "\u0000", "é")), {
        minLength: 1,
        maxLength: 3,
      })
      .map((crit) => signed(`crit ${JSON.stringify(crit)}`, { ...header, crit }, goodClaims)),
    fc
      .oneof(
        oddText,
        fc.integer({ min: 1000, max: 8000 }).map((n) => "k".repeat(n)),
        fc.constantFrom("\n", "../../etc/passwd", "__proto__"),
      )
      .map((kid) => signed(`kid ${JSON.stringify(kid).slice(0, 60)}`, { ...header, kid }, goodClaims)),
    oddText.map((alg) => signed(`alg ${JSON.stringify(alg)}`, { ...header, alg }, goodClaims)),
    fc
      .constantFrom("jku", "x5u", "jwk")
      .map((field) =>
        signed(
          `header ${field} pointing elsewhere`,
          { ...header, [field]: field === "jwk" ? { kty: "oct", k: "AAAA" } : "http://127.0.0.1:1/keys" },
          () => ({ ...goodClaims(), exp: now() - 3600 }),
        ),
      ),
  );
}

/**
 * What each request looks like: a stateless 2026-07-28 `server/discover` POST (no session is created, so a
 * per-principal session cap never interferes) carrying `Authorization: <scheme> <token>`, as raw bytes.
 */
function requestWith(port: number, authorization: string): Buffer {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: meta } });
  const h = head("POST", "/mcp", port, {
    authorization,
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-protocol-version": "2026-07-28",
    "mcp-method": "server/discover",
    "content-length": String(Buffer.byteLength(body)),
    connection: "close",
  });
  return Buffer.concat([h, Buffer.from(body)]);
}

/** Latin-1 text a header can carry (no CR, LF or NUL), so odd characters reach the server as raw bytes. */
const asHeaderBytes = (token: string): string =>
  Buffer.from(token, "utf8")
    .toString("latin1")
    .replace(/[\r\n\0]/g, "?");

export async function forgedTokens(options: RunOptions): Promise<void> {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const stranger = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
  const publicJwk = {
    ...(publicKey.export({ format: "jwk" }) as Record<string, unknown>),
    kid: KID,
    alg: "RS256",
    use: "sig",
  };
  const keys: Keys = {
    privateKey,
    publicPem: publicKey.export({ format: "pem", type: "spki" }).toString(),
    publicJwk,
    stranger,
  };
  const server = await startServer({
    mode: "http",
    auth: { issuer: ISSUER, audience: AUDIENCE, jwks: { keys: [publicJwk] } },
  });
  const port = Number(new URL(server.url).port);
  const genuine = () =>
    assemble(json({ alg: "RS256", kid: KID, typ: "JWT" }), json(goodClaims()), (i) => rs256(i, privateKey));
  try {
    const control = await rawRequest(port, requestWith(port, `Bearer ${genuine()}`));
    if (control.status !== 200)
      throw new Error(`a genuine token got HTTP ${control.status}: ${control.body.slice(0, 300)}`);
    const before = await server.heapAfterGc();
    const scheme = fc.constantFrom("Bearer ", "bearer ", "Bearer  ", "Basic ", "", "Bearer\t");
    await fc.assert(
      fc.asyncProperty(forgeries(), scheme, async (forgery, prefix) => {
        if (!server.alive()) throw new Error(`server exited: ${server.stderr().slice(-2000)}`);
        const response = await rawRequest(port, requestWith(port, `${prefix}${asHeaderBytes(forgery.token(keys))}`));
        if (response.status !== 401)
          throw new Error(`${forgery.label}: HTTP ${response.status}, not 401: ${response.body.slice(0, 300)}`);
        const challenge = /\r\nwww-authenticate: ([^\r]*)/i.exec(response.head)?.[1];
        if (challenge === undefined || !/^Bearer /i.test(challenge))
          throw new Error(`${forgery.label}: 401 without a Bearer challenge`);
        if (!HEADER_SAFE.test(challenge))
          throw new Error(`${forgery.label}: unsafe characters in WWW-Authenticate: ${JSON.stringify(challenge)}`);
        if (!server.alive()) throw new Error(`${forgery.label}: server exited: ${server.stderr().slice(-2000)}`);
        const next = await rawRequest(port, requestWith(port, `Bearer ${genuine()}`));
        if (next.status !== 200) throw new Error(`after ${forgery.label}: a genuine token got HTTP ${next.status}`);
      }),
      { numRuns: options.numRuns, seed: options.seed, endOnFailure: true },
    );
    const after = await server.heapAfterGc();
    options.log?.(
      `forged tokens: ${options.numRuns} tokens, heap after GC ${(before / 1048576).toFixed(1)} → ${(after / 1048576).toFixed(1)} MB`,
    );
    if (after - before > HEAP_SLACK_BYTES)
      throw new Error(`forged tokens: heap after GC grew ${before} → ${after} bytes`);
  } finally {
    await server.stop();
  }
}
