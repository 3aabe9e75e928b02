/**
 * Sessions are bound to the caller by the one rule (transport/principal.ts): the token's subject, else its client
 * id, else the token itself (by digest). A session opened by one caller is not found (404) for another, and is for
 * the same caller presenting a new token.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AuthInfo } from "../../../../runtime/transport/transport.ts";
import { serve, type RunningServer } from "../../../../runtime/http/server/node.ts";
import { FixtureHost } from "../fixtures/fixture-host.ts";
import { initializeMessage, post } from "../helpers.ts";

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** Tokens are `<kind>.<value>.<serial>`: `sub`, `client` or `bare` (an identity that names nobody). */
function identityOf(token: string): AuthInfo {
  const [kind, value] = token.split(".");
  if (kind === "sub") return { token, scopes: [], claims: { sub: value, iss: "https://as.test" } };
  if (kind === "client") return { token, scopes: [], clientId: value! };
  return { token, scopes: [] };
}

async function start(): Promise<string> {
  const probe = await serve(new FixtureHost());
  const port = probe.port;
  await probe.close();
  const resource = `http://127.0.0.1:${port}/mcp`;
  running = await serve(new FixtureHost(), {
    port,
    auth: { resourceMetadata: { resource, authorization_servers: ["https://as.test"] }, verifyToken: identityOf },
  });
  return resource;
}

describe("session binding to the caller", () => {
  it("follows subject, then client id, then the token itself", async () => {
    const url = await start();
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    const ping = { jsonrpc: "2.0", id: 2, method: "ping" };
    const pingAs = async (session: string, token: string) => {
      const response = await post(url, ping, { ...bearer(token), "mcp-session-id": session });
      await response.text();
      return response.status;
    };
    const open = async (token: string) => {
      const response = await post(url, initializeMessage(1), bearer(token));
      await response.text();
      return response.headers.get("mcp-session-id")!;
    };

    const alice = await open("sub.alice.1");
    expect([
      await pingAs(alice, "sub.alice.2"),
      await pingAs(alice, "sub.bob.1"),
      await pingAs(alice, "client.alice.1"),
    ]).toEqual([200, 404, 404]);

    const app = await open("client.app.1");
    expect([
      await pingAs(app, "client.app.2"),
      await pingAs(app, "client.other.1"),
      await pingAs(app, "bare.x.1"),
    ]).toEqual([200, 404, 404]);

    const bare = await open("bare.x.1");
    expect([await pingAs(bare, "bare.x.1"), await pingAs(bare, "bare.x.2")]).toEqual([200, 404]);
  });
});
