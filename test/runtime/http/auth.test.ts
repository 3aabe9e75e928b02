/**
 * Bearer auth as a resource server, with real JWTs signed here by `jose` and a JWKS served over loopback HTTP:
 * no token → 401 + metadata, wrong audience/issuer/expired → 401, missing tool scope → 403, valid → claims in the handler.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { jwtVerifier } from "../../../runtime/auth/jwt.ts";
import { serve, type RunningServer } from "../../../runtime/http/server/node.ts";
import { parseBearerChallenge } from "../../../runtime/http/client/sse.ts";
import { FixtureHost } from "./fixtures/fixture-host.ts";
import { CollectingSink, initializeMessage, post, request } from "./helpers.ts";
import { HttpError, StreamableHttpClientTransport } from "../../../runtime/http/client/transport.ts";
import { builtinRevisions, McpClient, McpServer, type RequestContext } from "../../../runtime/index.ts";

const ISSUER = "https://auth.example.test";
let jwksServer: Server;
let mcp: RunningServer;
let privateKey: CryptoKey;
let resource: string;

beforeAll(async () => {
  const pair = await generateKeyPair("ES256", { extractable: true });
  privateKey = pair.privateKey;
  const jwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES256", use: "sig" };
  jwksServer = createServer((_req, res) =>
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [jwk] })),
  );
  await new Promise<void>((resolve) => jwksServer.listen(0, "127.0.0.1", resolve));
  const jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks.json`;
  // The canonical URL is only known once the port is: start once to learn a free port, then serve on it.
  const probe = await serve(new FixtureHost());
  const port = probe.port;
  await probe.close();
  resource = `http://127.0.0.1:${port}/mcp`;
  mcp = await serve(new FixtureHost(), {
    port,
    forwardHeaders: ["x-request-id"],
    auth: {
      verifyToken: jwtVerifier({ issuer: ISSUER, audience: resource, jwksUrl }),
      resourceMetadata: { resource, authorization_servers: [ISSUER], scopes_supported: ["mcp:read"] },
      requiredScopes: ["mcp:read"],
      toolScopes: { whoami: ["profile:read"] },
    },
  });
});

afterAll(async () => {
  await mcp.close();
  jwksServer.close();
});

async function token(
  claims: Record<string, unknown>,
  options: { audience?: string; issuer?: string; expiresIn?: string } = {},
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "ES256", kid: "k1" })
    .setIssuer(options.issuer ?? ISSUER)
    .setAudience(options.audience ?? resource)
    .setSubject("user-1")
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? "5m")
    .sign(privateKey);
}

const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

describe("bearer auth", () => {
  it("answers a request without a token with 401 and a challenge naming the metadata, which is served", async () => {
    const response = await post(mcp.url, initializeMessage(1));
    expect(response.status).toBe(401);
    const challenge = parseBearerChallenge(response.headers.get("www-authenticate"));
    const metadataUrl = `http://127.0.0.1:${mcp.port}/.well-known/oauth-protected-resource/mcp`;
    expect(challenge).toMatchObject({ resource_metadata: metadataUrl, scope: "mcp:read" });
    const metadata = await fetch(metadataUrl);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toMatchObject({
      resource,
      authorization_servers: [ISSUER],
      scopes_supported: ["mcp:read"],
    });
  });

  it("rejects tokens for another audience, from another issuer, expired or forged with 401 invalid_token", async () => {
    const forged = (await token({ scope: "mcp:read" })).replace(/\.[^.]+$/, ".AAAA");
    const bad = [
      await token({ scope: "mcp:read" }, { audience: "https://other.example/mcp" }),
      await token({ scope: "mcp:read" }, { issuer: "https://evil.example" }),
      await token({ scope: "mcp:read" }, { expiresIn: "-1m" }),
      forged,
      "not-a-jwt",
    ];
    for (const t of bad) {
      const response = await post(mcp.url, initializeMessage(1), bearer(t));
      expect(response.status).toBe(401);
      expect(parseBearerChallenge(response.headers.get("www-authenticate"))?.["error"]).toBe("invalid_token");
    }
  });

  it("answers a token without the required scope with 403 insufficient_scope", async () => {
    const response = await post(mcp.url, initializeMessage(1), bearer(await token({ scope: "other" })));
    expect(response.status).toBe(403);
    expect(parseBearerChallenge(response.headers.get("www-authenticate"))).toMatchObject({
      error: "insufficient_scope",
      scope: "mcp:read",
    });
  });

  it("enforces a tool's scopes without sessions too (no routing path skips the check)", async () => {
    const stateless = await serve(new FixtureHost(), {
      sessions: false,
      auth: {
        verifyToken: async (presented) => ({ token: presented, scopes: ["mcp:read"], claims: { sub: "user-1" } }),
        resourceMetadata: { resource, authorization_servers: [ISSUER] },
        toolScopes: { whoami: ["profile:read"] },
      },
    });
    try {
      const whoami = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "whoami", arguments: {} } };
      const denied = await post(stateless.url, whoami, {
        authorization: "Bearer opaque",
        "mcp-protocol-version": "2025-11-25",
      });
      expect(denied.status).toBe(403);
      expect(parseBearerChallenge(denied.headers.get("www-authenticate"))).toMatchObject({
        error: "insufficient_scope",
      });
    } finally {
      await stateless.close();
    }
  });

  it("enforces a tool's scopes (403 naming them) and gives the handler the claims and allow-listed headers", async () => {
    const reader = await token({ scope: "mcp:read", client_id: "app-1" });
    const init = await post(mcp.url, initializeMessage(1), bearer(reader));
    expect(init.status).toBe(200);
    const session = init.headers.get("mcp-session-id")!;
    const headers = { ...bearer(reader), "mcp-session-id": session, "x-request-id": "req-42" };
    const whoami = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "whoami", arguments: {} } };
    const denied = await post(mcp.url, whoami, headers);
    expect(denied.status).toBe(403);
    expect(parseBearerChallenge(denied.headers.get("www-authenticate"))).toMatchObject({
      error: "insufficient_scope",
      scope: "mcp:read profile:read",
    });

    const full = await token({ scope: "mcp:read profile:read", client_id: "app-1", tenant: "t-9" });
    const allowed = await post(mcp.url, whoami, { ...headers, ...bearer(full) });
    expect(allowed.status).toBe(200);
    const body = (await allowed.json()) as { result: { content: Array<{ text: string }> } };
    const seen = JSON.parse(body.result.content[0]!.text) as {
      auth: Record<string, unknown>;
      headers: Record<string, string>;
    };
    expect(seen.auth).toMatchObject({ token: full, clientId: "app-1", scopes: ["mcp:read", "profile:read"] });
    expect(seen.auth["claims"]).toMatchObject({ sub: "user-1", tenant: "t-9", iss: ISSUER, aud: resource });
    expect(typeof seen.auth["expiresAt"]).toBe("number");
    expect(seen.headers["x-request-id"]).toBe("req-42");
  });

  it("binds a session to its principal: another user's token cannot use the session id", async () => {
    const mine = await token({ scope: "mcp:read" });
    const init = await post(mcp.url, initializeMessage(1), bearer(mine));
    const session = init.headers.get("mcp-session-id")!;
    const theirs = await new SignJWT({ scope: "mcp:read" })
      .setProtectedHeader({ alg: "ES256", kid: "k1" })
      .setIssuer(ISSUER)
      .setAudience(resource)
      .setSubject("user-2")
      .setExpirationTime("5m")
      .sign(privateKey);
    const ping = { jsonrpc: "2.0", id: 3, method: "ping" };
    expect((await post(mcp.url, ping, { ...bearer(mine), "mcp-session-id": session })).status).toBe(200);
    expect((await post(mcp.url, ping, { ...bearer(theirs), "mcp-session-id": session })).status).toBe(404);
  });

  it("our client transport sends the token from its provider on every request, and reports a 401 with its challenge", async () => {
    const good = await token({ scope: "mcp:read profile:read" });
    let current: string | undefined = good;
    const transport = new StreamableHttpClientTransport(mcp.url, { token: () => current });
    const sink = new CollectingSink();
    await transport.start(sink);
    const init = await request(transport, sink, 1, "initialize", (initializeMessage(0) as { params: unknown }).params);
    expect(init["result"]).toBeDefined();
    await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    const who = await request(transport, sink, 2, "tools/call", { name: "whoami", arguments: {} });
    expect(JSON.stringify(who["result"])).toContain("user-1");
    current = undefined;
    const failure = await transport.send({ jsonrpc: "2.0", id: 3, method: "ping" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(HttpError);
    expect((failure as HttpError).status).toBe(401);
    expect((failure as HttpError).challenge?.["resource_metadata"]).toBe(
      `http://127.0.0.1:${mcp.port}/.well-known/oauth-protected-resource/mcp`,
    );
    await transport.close();
  });

  it("reaches the runtime's tool handlers as ctx.authInfo and ctx.headers, in both eras", async () => {
    const seen: Array<{ revision: string; sub: unknown; scopes: readonly string[]; requestId: string | undefined }> =
      [];
    const server = new McpServer({ revisions: builtinRevisions, info: { name: "auth-e2e", version: "1.0.0" } }).tool(
      { name: "whoami", inputSchema: { type: "object" } },
      (_args, ctx: RequestContext) => {
        seen.push({
          revision: ctx.revision,
          sub: ctx.authInfo?.claims?.["sub"],
          scopes: ctx.authInfo?.scopes ?? [],
          requestId: ctx.headers?.["x-request-id"],
        });
        return { content: [{ type: "text", text: "ok" }] };
      },
    );
    const probe = await serve(server);
    const port = probe.port;
    await probe.close();
    const url = `http://127.0.0.1:${port}/mcp`;
    const jwks = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/jwks.json`;
    const running = await serve(server, {
      port,
      forwardHeaders: ["x-request-id"],
      auth: {
        verifyToken: jwtVerifier({ issuer: ISSUER, audience: url, jwksUrl: jwks }),
        resourceMetadata: { resource: url, authorization_servers: [ISSUER] },
        toolScopes: { whoami: ["profile:read"] },
      },
    });
    try {
      const signed = await token({ scope: "profile:read" }, { audience: url });
      for (const revision of ["2025-11-25", "2026-07-28"]) {
        const client = new McpClient({
          info: { name: "e2e", version: "1.0.0" },
          revisions: builtinRevisions.filter((r) => r.version === revision),
        });
        await client.connect(
          new StreamableHttpClientTransport(url, { token: signed, headers: { "x-request-id": `r-${revision}` } }),
        );
        await client.callTool("whoami", {});
        await client.close();
      }
      expect(seen).toEqual([
        { revision: "2025-11-25", sub: "user-1", scopes: ["profile:read"], requestId: "r-2025-11-25" },
        { revision: "2026-07-28", sub: "user-1", scopes: ["profile:read"], requestId: "r-2026-07-28" },
      ]);
    } finally {
      await running.close();
    }
  });
});
