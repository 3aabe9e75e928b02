/**
 * An official SDK v2 server (`@modelcontextprotocol/server`, `createMcpHandler`) protected as an OAuth resource
 * server with the SDK's own pieces: `requireBearerAuth` (a JWT verifier over the authorization server's JWKS, by
 * `jose`; audience = this server's URL) and `oauthMetadataResponse` (RFC 9728 Protected Resource Metadata naming
 * the authorization server). Served on node:http at 127.0.0.1 through a minimal Request/Response bridge.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createMcpHandler,
  getOAuthProtectedResourceMetadataUrl,
  McpServer,
  OAuthError,
  OAuthErrorCode,
  oauthMetadataResponse,
  requireBearerAuth,
  type AuthInfo,
  type OAuthMetadata,
} from "@modelcontextprotocol/server";
import { createRemoteJWKSet, jwtVerify } from "jose";
import { z } from "zod";

export interface OAuthV2Server {
  /** The MCP endpoint, also the resource the tokens are issued for. */
  readonly url: string;
  /** Requests answered 401 (no or a bad token). */
  readonly challenged: () => number;
  close(): Promise<void>;
}

function mcpServer(): McpServer {
  const server = new McpServer({ name: "oauth-v2", version: "2.4.0" }, { capabilities: { tools: {} } });
  server.registerTool(
    "add",
    {
      description: "Adds two numbers.",
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      outputSchema: z.object({ sum: z.number() }),
    },
    async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }], structuredContent: { sum: a + b } }),
  );
  server.registerTool(
    "whoami",
    {
      description: "The subject of the access token this call carried.",
      inputSchema: z.object({}),
      outputSchema: z.object({ subject: z.string() }),
    },
    async (_args, ctx) => {
      const subject = String(ctx.http?.authInfo?.extra?.["sub"] ?? "");
      return { content: [{ type: "text", text: subject }], structuredContent: { subject } };
    },
  );
  return server;
}

async function bridge(req: IncomingMessage, res: ServerResponse, handle: (r: Request) => Promise<Response>) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
  const body = req.method === "GET" || req.method === "HEAD" ? undefined : new Uint8Array(Buffer.concat(chunks));
  const response = await handle(
    new Request(`http://${req.headers.host}${req.url}`, { method: req.method!, headers, ...(body ? { body } : {}) }),
  );
  const outgoing: Record<string, string> = {};
  response.headers.forEach((value, name) => (outgoing[name] = value));
  res.writeHead(response.status, outgoing);
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  for (let next = await reader.read(); !next.done; next = await reader.read()) res.write(next.value);
  res.end();
}

/** Starts the server, trusting tokens of `issuer` (keys at `jwksUrl`) issued for its own URL. */
export async function startOAuthV2Server(issuer: string, jwksUrl: string): Promise<OAuthV2Server> {
  const oauthMetadata = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as OAuthMetadata;
  const jwks = createRemoteJWKSet(new URL(jwksUrl));
  const handler = createMcpHandler(mcpServer);
  let challenged = 0;
  const listening: { resource: string; gate?: (request: Request) => Promise<AuthInfo | Response> } = {
    resource: "",
  };
  const http = createServer((req, res) => {
    void bridge(req, res, async (request) => {
      const metadata = oauthMetadataResponse(request, {
        oauthMetadata,
        resourceServerUrl: new URL(listening.resource),
        scopesSupported: ["mcp:read"],
        dangerouslyAllowInsecureIssuerUrl: true,
      });
      if (metadata) return metadata;
      const auth = await listening.gate!(request);
      if (auth instanceof Response) {
        challenged++;
        return auth;
      }
      return handler.fetch(request, { authInfo: auth });
    }).catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const resource = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  listening.resource = resource;
  listening.gate = requireBearerAuth({
    expectedResource: new URL(resource),
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(new URL(resource)),
    verifier: {
      async verifyAccessToken(token) {
        try {
          const { payload } = await jwtVerify(token, jwks, { issuer, audience: resource });
          return {
            token,
            clientId: String(payload["client_id"] ?? ""),
            scopes: typeof payload["scope"] === "string" ? payload["scope"].split(" ") : [],
            ...(payload.exp !== undefined ? { expiresAt: payload.exp } : {}),
            resource: new URL(resource),
            extra: { sub: payload.sub },
          };
        } catch {
          throw new OAuthError(OAuthErrorCode.InvalidToken, "the access token is not valid for this server");
        }
      },
    },
  });
  return {
    url: resource,
    challenged: () => challenged,
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}
