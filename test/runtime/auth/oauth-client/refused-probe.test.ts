/**
 * After the OAuth client gives up, the client reports the server's refusal (issue 35, item 5): a 2026-07-28-only server
 * behind a gateway that authorizes the requests it can classify by their `Mcp-Method` header, and whose scope check
 * never passes (it reads the scope from `scp`; the tokens of the real authorization server, oidc-provider on
 * loopback, carry `scope`). The `server/discover` probe is answered 403 `insufficient_scope` after every step-up;
 * that refusal is no sign of a handshake-era server, so the client must not try `initialize` and report the
 * stateless server's answer to that instead.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { jwtVerifier } from "../../../../runtime/auth/jwt.ts";
import { memoryStore, oauthFetch } from "../../../../runtime/auth/index.ts";
import { HttpError, StreamableHttpClientTransport } from "../../../../runtime/http/client/transport.ts";
import { serve, type RunningServer } from "../../../../runtime/http/server/node.ts";
import { builtinRevisions, McpClient, McpServer } from "../../../../runtime/index.ts";
import { headlessAuthorize, startTestAs, type TestAs } from "./fixtures/oidc-as.ts";

const REDIRECT = "http://127.0.0.1:9/callback"; // never contacted: the headless browser stops at it
let as: TestAs;
let backend: RunningServer;
let gateway: Server;
let resource: string;
/** The methods the gateway refused with 403, in order. */
const refused: string[] = [];

beforeAll(async () => {
  as = await startTestAs();
  const mcp = new McpServer({
    revisions: builtinRevisions.filter((r) => r.version === "2026-07-28"),
    info: { name: "modern-only", version: "1.0.0" },
  });
  mcp.tool({ name: "ping", inputSchema: { type: "object" } }, () => ({ content: [{ type: "text", text: "pong" }] }));
  backend = await serve(mcp);
  gateway = createServer((req, res) => {
    void (async () => {
      let body = "";
      for await (const chunk of req) body += String(chunk);
      const metadataPath = "/.well-known/oauth-protected-resource/mcp";
      const challenge = (extra: string) => `Bearer resource_metadata="${new URL(metadataPath, resource).href}"${extra}`;
      if (req.url === metadataPath) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ resource, authorization_servers: [as.issuer], scopes_supported: ["mcp:read"] }));
        return;
      }
      const method = req.headers["mcp-method"];
      if (typeof method === "string") {
        const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")?.[1];
        const auth =
          token === undefined
            ? undefined
            : await Promise.resolve(verify(token, { header: () => undefined })).catch(() => undefined);
        if (!auth) {
          res.writeHead(401, { "www-authenticate": challenge("") }).end();
          return;
        }
        const scp = auth.claims?.["scp"];
        if (!(typeof scp === "string" && scp.split(" ").includes("mcp:read"))) {
          refused.push(method);
          const www = challenge(', error="insufficient_scope", scope="mcp:read"');
          res.writeHead(403, { "www-authenticate": www, "content-type": "application/json" });
          res.end(JSON.stringify({ error: "insufficient_scope", error_description: "needs mcp:read" }));
          return;
        }
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === "string" && name !== "host" && name !== "content-length") headers[name] = value;
      const answer = await fetch(new URL(req.url ?? "/", backend.url), {
        method: req.method ?? "GET",
        headers,
        ...(req.method === "POST" ? { body } : {}),
      });
      const outgoing: Record<string, string> = {};
      answer.headers.forEach((value, name) => (outgoing[name] = value));
      delete outgoing["content-length"];
      delete outgoing["content-encoding"];
      res.writeHead(answer.status, outgoing).end(await answer.text());
    })().catch((error: unknown) => res.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => gateway.listen(0, "127.0.0.1", resolve));
  resource = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/mcp`;
  verify = jwtVerifier({ issuer: as.issuer, audience: resource, jwksUrl: as.jwksUrl });
}, 60_000);

let verify: ReturnType<typeof jwtVerifier>;

afterAll(async () => {
  await new Promise<void>((resolve) => gateway?.close(() => resolve()));
  await backend?.close();
  await as?.close();
});

it("reports the 403 insufficient_scope the server kept answering, not its answer to an initialize", async () => {
  const authorized: URL[] = [];
  const fetch = oauthFetch({
    redirectUrl: REDIRECT,
    clientMetadata: { client_name: "refused-probe" },
    store: memoryStore(),
    async authorize(url) {
      authorized.push(url);
      return headlessAuthorize(url, REDIRECT);
    },
  });
  const client = new McpClient({ revisions: builtinRevisions, info: { name: "refused-probe", version: "1.0.0" } });
  const failure = await client.connect(new StreamableHttpClientTransport(resource, { fetch })).then(
    () => undefined,
    (error: unknown) => error,
  );
  await client.close().catch(() => undefined);
  expect(String(failure)).toMatch(/^HttpError: HTTP 403: .*insufficient_scope/);
  expect(failure).toBeInstanceOf(HttpError);
  expect((failure as HttpError).status).toBe(403);
  expect((failure as HttpError).challenge?.["error"]).toBe("insufficient_scope");
  expect((failure as Error).message).toContain("insufficient_scope");
  // The OAuth client tried on the probe (the first 401, then a step-up on the 403) and nothing more was sent.
  expect(authorized).toHaveLength(2);
  expect(refused).toEqual(["server/discover", "server/discover"]);
}, 120_000);
