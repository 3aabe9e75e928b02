/**
 * Two authorization servers, one MCP server (issue 34 item 6): client ids and subjects are unique per issuer only,
 * so client "app" of issuer A and client "app" of issuer B are two callers. A real HTTP server (serve()) verifies
 * real JWTs signed here by `jose`, each issuer with its own key and its own JWKS served over loopback; the tokens
 * carry no `sub`, only `client_id: "app"`. B's "app" must not see or cancel the task A's "app" created, nor use its
 * session, nor count against its sessions-per-client cap.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { decodeJwt, exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";
import { jwtVerifier } from "../../../runtime/auth/jwt.ts";
import { serve, type RunningServer } from "../../../runtime/http/server/node.ts";
import { builtinRevisions, McpServer } from "../../../runtime/index.ts";
import { tasks, taskTool } from "../../../runtime/tasks/index.ts";
import { httpPeerAt, pollUntil, type Peer } from "../server/tasks/wire-peer.ts";
import { initializeMessage, post } from "./helpers.ts";

interface Issuer {
  readonly url: string;
  readonly jwks: Server;
  readonly jwksUrl: string;
  readonly key: CryptoKey;
}

async function startIssuer(url: string): Promise<Issuer> {
  const pair = await generateKeyPair("ES256", { extractable: true });
  const jwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "ES256", use: "sig" };
  const jwks = createServer((_req, res) =>
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ keys: [jwk] })),
  );
  await new Promise<void>((resolve) => jwks.listen(0, "127.0.0.1", resolve));
  const jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks.json`;
  return { url, jwks, jwksUrl, key: pair.privateKey };
}

let a: Issuer;
let b: Issuer;
let mcp: RunningServer;
let peer: Peer;
let resource: string;

/** A token of client "app" (no subject) from `issuer` for this server. */
const appToken = (issuer: Issuer) =>
  new SignJWT({ client_id: "app", scope: "mcp" })
    .setProtectedHeader({ alg: "ES256", kid: "k1" })
    .setIssuer(issuer.url)
    .setAudience(resource)
    .setIssuedAt()
    .setExpirationTime("10m")
    .sign(issuer.key);

beforeAll(async () => {
  a = await startIssuer("https://as-a.test");
  b = await startIssuer("https://as-b.test");
  const server = new McpServer({
    info: { name: "two-issuers", version: "1" },
    revisions: builtinRevisions,
    extensions: [tasks()],
  });
  server.tool(
    { name: "held_job", inputSchema: { type: "object" } },
    async (_args, context) => {
      await new Promise((resolve) => context.signal.addEventListener("abort", resolve, { once: true }));
      return { content: [{ type: "text", text: "stopped" }] };
    },
    { extensions: taskTool({ support: "required" }) },
  );
  // The canonical URL is only known once the port is: learn a free port, then serve on it.
  const probe = await serve(new McpServer({ info: { name: "probe", version: "1" }, revisions: builtinRevisions }));
  const port = probe.port;
  await probe.close();
  resource = `http://127.0.0.1:${port}/mcp`;
  // One verifier per issuer, each with its own JWKS; the unverified `iss` only picks which one checks the token.
  const verifiers = new Map(
    [a, b].map((issuer) => [
      issuer.url,
      jwtVerifier({ issuer: issuer.url, audience: resource, jwksUrl: issuer.jwksUrl }),
    ]),
  );
  mcp = await serve(server, {
    port,
    maxSessionsPerClient: 1,
    auth: {
      verifyToken: (token, request) => {
        const verify = verifiers.get(String(decodeJwt(token).iss));
        return verify ? verify(token, request) : undefined;
      },
      resourceMetadata: { resource, authorization_servers: [a.url, b.url] },
    },
  });
  peer = httpPeerAt(mcp.url);
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  a?.jwks.close();
  b?.jwks.close();
});

describe("principals of two issuers", () => {
  it('client "app" of issuer B cannot see or cancel the task of client "app" of issuer A', async () => {
    const [tokenA, tokenB] = [await appToken(a), await appToken(b)];
    const created = await peer.request("tools/call", { name: "held_job", arguments: {} }, { bearer: tokenA });
    expect(created.result).toMatchObject({ resultType: "task", status: "working" });
    const taskId = created.result!["taskId"] as string;

    const seen = await peer.request("tasks/get", { taskId }, { bearer: tokenB });
    expect(seen.status).toBe(200);
    expect(seen.error?.code).toBe(-32602);
    expect(seen.result).toBeUndefined();
    const cancelled = await peer.request("tasks/cancel", { taskId }, { bearer: tokenB });
    expect(cancelled.error?.code).toBe(-32602);

    // The task is untouched, and still A's: A sees it working, then cancels it.
    const own = await peer.request("tasks/get", { taskId }, { bearer: tokenA });
    expect(own.result).toMatchObject({ taskId, status: "working" });
    const ended = await peer.request("tasks/cancel", { taskId }, { bearer: tokenA });
    expect(ended.error).toBeUndefined();
    await pollUntil(peer, taskId, (task) => task["status"] === "cancelled", 15_000, { bearer: tokenA });
  }, 60_000);

  it("keeps their sessions apart: B's app cannot use A's session, and each has its own sessions-per-client cap", async () => {
    const [tokenA, tokenB] = [await appToken(a), await appToken(b)];
    const opened = await post(mcp.url, initializeMessage(1), { authorization: `Bearer ${tokenA}` });
    expect(opened.status).toBe(200);
    await opened.text();
    const session = opened.headers.get("mcp-session-id")!;
    expect(session).toBeTruthy();
    const ping = { jsonrpc: "2.0", id: 2, method: "ping" };
    const headers = (token: string) => ({
      authorization: `Bearer ${token}`,
      "mcp-session-id": session,
      "mcp-protocol-version": "2025-11-25",
    });
    const foreign = await post(mcp.url, ping, headers(tokenB));
    expect(foreign.status).toBe(404);
    await foreign.text();
    const own = await post(mcp.url, ping, headers(tokenA));
    expect(own.status).toBe(200);
    await own.text();

    // maxSessionsPerClient is 1: A's app is at its cap, B's app is not.
    const secondOfA = await post(mcp.url, initializeMessage(3), { authorization: `Bearer ${tokenA}` });
    expect(secondOfA.status).toBe(429);
    await secondOfA.text();
    const firstOfB = await post(mcp.url, initializeMessage(4), { authorization: `Bearer ${tokenB}` });
    expect(firstOfB.status).toBe(200);
    await firstOfB.text();
  }, 60_000);
});
