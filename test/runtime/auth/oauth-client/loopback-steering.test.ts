/**
 * A remote MCP server cannot steer the OAuth client at services on the user's machine (issue 34, item 14): its
 * Protected Resource Metadata names an authorization server on loopback — here a real one, oidc-provider on
 * 127.0.0.1 — and the client refuses it before sending anything there (no metadata GET, no registration POST, no
 * browser). The same authorization server is used for an MCP server that is on loopback itself. "Remote" is a host
 * name the test's network maps to a loopback port (as DNS would); the client sees only the name.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jwtVerifier } from "../../../../runtime/auth/jwt.ts";
import { checkUrl } from "../../../../runtime/auth/oauth-client/http.ts";
import { memoryStore, oauthFetch, OAuthClientError, type OAuthClientProvider } from "../../../../runtime/auth/index.ts";
import { StreamableHttpClientTransport } from "../../../../runtime/http/client/transport.ts";
import { serve, type RunningServer } from "../../../../runtime/http/server/node.ts";
import { builtinRevisions, McpClient, McpServer } from "../../../../runtime/index.ts";
import { headlessAuthorize, startTestAs, type TestAs } from "./fixtures/oidc-as.ts";

const REMOTE = "https://mcp.remote.example";
const REDIRECT = "http://127.0.0.1:9/callback"; // never contacted: the headless browser stops at it
let as: TestAs;
let remote: RunningServer;
let local: RunningServer;
let localResource: string;

function mcpServer(): McpServer {
  return new McpServer({ revisions: builtinRevisions, info: { name: "steering", version: "1.0.0" } }).tool(
    { name: "ping", inputSchema: { type: "object" } },
    () => ({ content: [{ type: "text", text: "pong" }] }),
  );
}

/** Listens on a free port, then serves `resource` there with `as` as its authorization server. */
async function protectedServer(resource: (port: number) => string): Promise<RunningServer> {
  const probe = await serve(mcpServer());
  const port = probe.port;
  await probe.close();
  const url = resource(port);
  return serve(mcpServer(), {
    port,
    auth: {
      verifyToken: jwtVerifier({ issuer: as.issuer, audience: url, jwksUrl: as.jwksUrl }),
      resourceMetadata: { resource: url, authorization_servers: [as.issuer], scopes_supported: ["mcp:read"] },
    },
  });
}

beforeAll(async () => {
  as = await startTestAs();
  remote = await protectedServer(() => `${REMOTE}/mcp`);
  local = await protectedServer((port) => `http://127.0.0.1:${port}/mcp`);
  localResource = `http://127.0.0.1:${local.port}/mcp`;
}, 60_000);

afterAll(async () => {
  await remote?.close();
  await local?.close();
  await as?.close();
});

/** The network: REMOTE resolves to the remote server's loopback port; everything else goes where it says. */
const network: typeof fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (url.origin !== REMOTE) return fetch(input, init);
  return fetch(`http://127.0.0.1:${remote.port}${url.pathname}${url.search}`, init);
};

function provider(authorized: URL[]): OAuthClientProvider {
  return {
    redirectUrl: REDIRECT,
    clientMetadata: { client_name: "steering" },
    store: memoryStore(),
    async authorize(url) {
      authorized.push(url);
      return headlessAuthorize(url, REDIRECT);
    },
  };
}

async function connect(url: string, authorized: URL[]): Promise<McpClient> {
  const client = new McpClient({ revisions: builtinRevisions, info: { name: "steering", version: "1.0.0" } });
  await client.connect(
    new StreamableHttpClientTransport(url, { fetch: oauthFetch(provider(authorized), { fetch: network }) }),
  );
  return client;
}

describe("loopback endpoints only for an MCP server on loopback", () => {
  it("a remote server naming an authorization server on loopback: refused, and nothing is sent to it", async () => {
    const before = as.requests.length;
    const authorized: URL[] = [];
    const failure = await connect(`${REMOTE}/mcp`, authorized).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(OAuthClientError);
    expect((failure as OAuthClientError).code).toBe("insecure_url");
    expect((failure as Error).message).toContain(
      `authorization server: refusing ${as.issuer}/ (a loopback address, allowed only for an MCP server on loopback)`,
    );
    expect(as.requests.slice(before)).toEqual([]);
    expect(authorized).toEqual([]);
  });

  it("the same authorization server for a server on loopback: authorized, and the call succeeds", async () => {
    const before = as.requests.length;
    const authorized: URL[] = [];
    const client = await connect(localResource, authorized);
    const result = await client.callTool("ping", {});
    await client.close();
    expect(result.content).toEqual([{ type: "text", text: "pong" }]);
    expect(authorized).toHaveLength(1);
    expect(as.requests.slice(before)).toContain("POST /reg");
  });

  it("every spelling of this machine is refused for a remote server, https or not, and kept for a loopback one", () => {
    const spellings = [
      "http://127.0.0.1:4000/register",
      "https://127.0.0.1/register",
      "https://localhost/register",
      "https://localhost./register",
      "https://app.localhost/register",
      "https://[::1]/register",
      "https://0.0.0.0/register",
      "https://[::]/register",
      "https://[::ffff:127.0.0.1]/register",
      "https://2130706433/register",
    ];
    for (const url of spellings) {
      expect(() => checkUrl(url, "registration_endpoint", false), url).toThrow(
        expect.objectContaining({ code: "insecure_url" }),
      );
      if (new URL(url).protocol === "https:") expect(checkUrl(url, "registration_endpoint", true).href).toBeTruthy();
    }
    expect(checkUrl("https://as.example/register", "registration_endpoint", false).href).toBe(
      "https://as.example/register",
    );
  });
});
