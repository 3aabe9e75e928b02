/**
 * The OAuth client end to end against a real authorization server (oidc-provider on loopback) and our own
 * MCP server (`serve()` with `jwtVerifier` on the AS's JWKS): a 401 leads to PRM → AS metadata → DCR →
 * authorization code + PKCE S256 + resource → token → the call succeeds; refresh; step-up on 403; a wrong
 * issuer is refused. The oracle is the AS and the resource server: they accept only what the protocol allows.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jwtVerifier } from "../../../../runtime/auth/jwt.ts";
import { serve, type RunningServer } from "../../../../runtime/http/server/node.ts";
import { StreamableHttpClientTransport } from "../../../../runtime/http/client/transport.ts";
import { builtinRevisions, McpClient } from "../../../../runtime/index.ts";
import {
  oauthFetch,
  memoryStore,
  OAuthClientError,
  type OAuthClientProvider,
  type OAuthStore,
} from "../../../../runtime/auth/index.ts";
import { FixtureHost } from "../../http/fixtures/fixture-host.ts";
import { headlessAuthorize, startTestAs, type TestAs } from "./fixtures/oidc-as.ts";

const REDIRECT = "http://127.0.0.1:9/callback"; // never contacted: the headless browser stops at it
let as: TestAs;
let mcp: RunningServer;
let resource: string;

async function servePort(): Promise<number> {
  const probe = await serve(new FixtureHost());
  const port = probe.port;
  await probe.close();
  return port;
}

beforeAll(async () => {
  as = await startTestAs({ accessTokenTtl: 300 });
  const port = await servePort();
  resource = `http://127.0.0.1:${port}/mcp`;
  mcp = await serve(new FixtureHost(), {
    port,
    auth: {
      verifyToken: jwtVerifier({ issuer: as.issuer, audience: resource, jwksUrl: as.jwksUrl }),
      resourceMetadata: { resource, authorization_servers: [as.issuer], scopes_supported: ["mcp:read"] },
      requiredScopes: ["mcp:read"],
      toolScopes: { whoami: ["mcp:write"] },
    },
  });
});

afterAll(async () => {
  await mcp?.close();
  await as?.close();
});

interface Recorded {
  readonly provider: OAuthClientProvider;
  readonly authorizeUrls: URL[];
  /** Every request the client made: method, URL, and whether it carried a bearer token. */
  readonly sent: { method: string; url: string; bearer: string | undefined; body: string | undefined }[];
  readonly fetch: typeof fetch;
}

function recorded(store: OAuthStore = memoryStore(), tamper?: (callback: URL) => URL): Recorded {
  const authorizeUrls: URL[] = [];
  const sent: Recorded["sent"] = [];
  const provider: OAuthClientProvider = {
    redirectUrl: REDIRECT,
    clientMetadata: { client_name: "oauth e2e" },
    store,
    async authorize(url) {
      authorizeUrls.push(url);
      const callback = await headlessAuthorize(url, REDIRECT);
      return tamper ? tamper(callback) : callback;
    },
  };
  const recordingFetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    const auth = headers.get("authorization");
    sent.push({
      method: init?.method ?? "GET",
      url: String(input instanceof Request ? input.url : input),
      bearer: auth?.startsWith("Bearer ") ? auth.slice(7) : undefined,
      body:
        typeof init?.body === "string"
          ? init.body
          : init?.body instanceof URLSearchParams
            ? init.body.toString()
            : undefined,
    });
    return fetch(input, init);
  }) as typeof fetch;
  return { provider, authorizeUrls, sent, fetch: recordingFetch };
}

async function connect(r: Recorded, revision = "2025-11-25"): Promise<McpClient> {
  const client = new McpClient({
    info: { name: "oauth-e2e", version: "1.0.0" },
    revisions: builtinRevisions.filter((r) => r.version === revision),
  });
  await client.connect(
    new StreamableHttpClientTransport(resource, { fetch: oauthFetch(r.provider, { fetch: r.fetch }) }),
  );
  return client;
}

const textOf = (result: { content: readonly unknown[] }): string => (result.content[0] as { text: string }).text;

describe("OAuth client against oidc-provider", () => {
  it("authorizes on the first 401: PRM, AS metadata, DCR, code + PKCE S256 + resource, then the call succeeds", async () => {
    const r = recorded();
    const client = await connect(r);
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain("echo");
    await client.close();

    const paths = r.sent.map((s) => `${s.method} ${new URL(s.url).pathname}`);
    const prm = paths.indexOf("GET /.well-known/oauth-protected-resource/mcp");
    const asMeta = paths.indexOf("GET /.well-known/oauth-authorization-server");
    const reg = paths.indexOf("POST /reg");
    const token = paths.indexOf("POST /token");
    expect(paths[0]).toBe("POST /mcp");
    expect([prm, asMeta, reg, token].every((i) => i > 0)).toBe(true);
    expect(prm < asMeta && asMeta < reg && reg < token).toBe(true);
    // Root PRM was not needed, so not requested.
    expect(paths).not.toContain("GET /.well-known/oauth-protected-resource");

    const [authUrl] = r.authorizeUrls;
    expect(r.authorizeUrls).toHaveLength(1);
    expect(authUrl!.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authUrl!.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authUrl!.searchParams.get("resource")).toBe(resource);
    // scopes_supported from PRM (no scope in the challenge), plus offline_access which the AS offers.
    expect(authUrl!.searchParams.get("scope")).toBe("mcp:read offline_access");
    const tokenBody = new URLSearchParams(r.sent[token]!.body);
    expect(tokenBody.get("resource")).toBe(resource);
    expect(tokenBody.get("code_verifier")).toMatch(/^[A-Za-z0-9_-]{43,128}$/);

    // The token went to the MCP server only, never to the AS; every MCP request after the first carried it.
    const mcpRequests = r.sent.filter((s) => s.url.startsWith(resource));
    expect(mcpRequests[0]!.bearer).toBeUndefined();
    expect(mcpRequests.slice(1).every((s) => s.bearer !== undefined)).toBe(true);
    expect(r.sent.filter((s) => s.url.startsWith(as.issuer)).every((s) => s.bearer === undefined)).toBe(true);
  });

  it("works the same on the 2026-07-28 stateless wire and with default revisions (negotiated)", async () => {
    for (const revisions of [builtinRevisions.filter((r) => r.version === "2026-07-28"), undefined]) {
      const r = recorded();
      const client = new McpClient({
        revisions: builtinRevisions,
        info: { name: "oauth-e2e", version: "1.0.0" },
        ...(revisions && { revisions }),
      });
      await client.connect(
        new StreamableHttpClientTransport(resource, { fetch: oauthFetch(r.provider, { fetch: r.fetch }) }),
      );
      const who = JSON.parse(textOf(await client.callTool("whoami", {}))) as {
        auth: { scopes: string[]; clientId?: string };
      };
      await client.close();
      expect(who.auth.scopes).toEqual(expect.arrayContaining(["mcp:read", "mcp:write"]));
      expect(r.authorizeUrls).toHaveLength(2); // the first 401, then the step-up for whoami
    }
  });

  it("reuses stored tokens and client registration, and refreshes an expired token with the refresh token", async () => {
    const store = memoryStore();
    const first = recorded(store);
    const c1 = await connect(first);
    await c1.close();
    const key = `tokens ${resource}`;
    const saved = (await store.get(key))!;
    expect(typeof saved["refresh_token"]).toBe("string");

    // A second connection with the same store: no new authorization.
    const second = recorded(store);
    const c2 = await connect(second);
    await c2.close();
    expect(second.authorizeUrls).toHaveLength(0);
    expect(second.sent.every((s) => new URL(s.url).pathname === "/mcp")).toBe(true);

    // Mark the token expired: the next connection refreshes it first (grant_type=refresh_token with resource).
    await store.set(key, { ...saved, expires_at: Math.floor(Date.now() / 1000) - 10 });
    const third = recorded(store);
    const c3 = await connect(third);
    await c3.listTools();
    await c3.close();
    expect(third.authorizeUrls).toHaveLength(0);
    const refresh = third.sent.find((s) => s.url.endsWith("/token"));
    const body = new URLSearchParams(refresh!.body);
    expect(body.get("grant_type")).toBe("refresh_token");
    expect(body.get("resource")).toBe(resource);
    const renewed = (await store.get(key))!;
    expect(renewed["access_token"]).not.toBe(saved["access_token"]);
    // The server accepted the refreshed token (the request after the refresh was not answered 401).
    expect(third.sent.filter((s) => s.url === resource).every((s) => s.bearer === renewed["access_token"])).toBe(true);
  });

  it("a token the server rejects is replaced via refresh, without the user", async () => {
    const store = memoryStore();
    const c1 = await connect(recorded(store));
    await c1.close();
    const key = `tokens ${resource}`;
    await store.set(key, { ...(await store.get(key))!, access_token: "revoked-or-garbage" });
    const r = recorded(store);
    const c2 = await connect(r);
    await c2.close();
    expect(r.authorizeUrls).toHaveLength(0);
    expect(r.sent.some((s) => s.url.endsWith("/token"))).toBe(true);
  });

  it("steps up on 403 insufficient_scope: re-authorizes with the old and the challenged scopes, then retries", async () => {
    const r = recorded();
    const client = await connect(r);
    const result = await client.callTool("whoami", {});
    await client.close();
    const who = JSON.parse(textOf(result)) as { auth: { scopes: string[] } };
    expect(who.auth.scopes).toEqual(expect.arrayContaining(["mcp:read", "mcp:write"]));
    expect(r.authorizeUrls).toHaveLength(2);
    expect(r.authorizeUrls[1]!.searchParams.get("scope")!.split(" ")).toEqual(
      expect.arrayContaining(["mcp:read", "mcp:write"]),
    );
  });

  it("refuses an authorization response whose iss is not the AS's (RFC 9207): the code is never redeemed", async () => {
    const r = recorded(memoryStore(), (callback) => {
      const evil = new URL(callback);
      evil.searchParams.set("iss", "http://evil.example");
      return evil;
    });
    const error = await connect(r).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(String((error as Error).message) + String((error as { cause?: unknown }).cause ?? "")).toMatch(/iss/);
    expect(r.sent.some((s) => s.url.endsWith("/token"))).toBe(false);
  });

  it("refuses AS metadata whose issuer is not the one PRM named (the AS reached under another name)", async () => {
    const port = await servePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const alias = as.issuer.replace("127.0.0.1", "localhost");
    const other = await serve(new FixtureHost(), {
      port,
      auth: {
        verifyToken: jwtVerifier({ issuer: as.issuer, audience: url, jwksUrl: as.jwksUrl }),
        resourceMetadata: { resource: url, authorization_servers: [alias] },
      },
    });
    try {
      const r = recorded();
      const client = new McpClient({
        info: { name: "x", version: "1" },
        revisions: builtinRevisions.filter((r) => ["2025-11-25"].includes(r.version)),
      });
      const error = await client
        .connect(new StreamableHttpClientTransport(url, { fetch: oauthFetch(r.provider, { fetch: r.fetch }) }))
        .catch((e: unknown) => e);
      const oauthError = findOAuthError(error);
      expect(oauthError?.code).toBe("issuer_mismatch");
      expect(r.authorizeUrls).toHaveLength(0);
      expect(r.sent.some((s) => s.url.includes("/reg") || s.url.endsWith("/token"))).toBe(false);
    } finally {
      await other.close();
    }
  });
});

function findOAuthError(error: unknown): OAuthClientError | undefined {
  for (let e = error; e instanceof Error; e = e.cause) if (e instanceof OAuthClientError) return e;
  return undefined;
}
