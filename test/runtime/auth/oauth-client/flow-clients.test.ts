/**
 * More of what flow.ts sends and says (see flow.test.ts): client credentials options, CIMD without a client
 * document, stored registrations it must not trust, pre-registrations bound to the right issuer, callback text, a
 * refresh that hits a hard limit, and the messages of its errors; on an in-memory network. Equivalent mutants left
 * alive by these tests: docs/mutation.md.
 */
import { describe, expect, it } from "vitest";
import { generateKeyPair, jwtVerify } from "jose";
import { memoryStore, oauthFetch, type OAuthClientProvider } from "../../../../runtime/auth/index.ts";
import { approver, AS, clientError, jsonReply, post, RS, standardRoutes, stubNet, TOKEN } from "./oauth-harness.ts";

const REGISTER = `POST ${AS}/register`;

async function run(provider: OAuthClientProvider, net = stubNet(standardRoutes())) {
  const response = await post(oauthFetch(provider, { fetch: net.fetch }));
  return { net, response };
}

describe("client credentials", () => {
  it("uses the method given, asks for the PRM scope only when there is one, and says which request failed", async () => {
    const explicit = await run(
      {
        clientCredentials: { client_id: "svc", client_secret: "pw", token_endpoint_auth_method: "client_secret_post" },
      },
      stubNet(standardRoutes({ prm: { scopes_supported: ["s1"] } })),
    );
    expect(explicit.response.status).toBe(200);
    const body = Object.fromEntries(explicit.net.form(TOKEN));
    expect(body).toMatchObject({ grant_type: "client_credentials", client_secret: "pw", scope: "s1" });
    expect(explicit.net.sent.find((s) => s.url.pathname === "/token")!.headers.get("authorization")).toBeNull();

    const unscoped = await run({ clientCredentials: { client_id: "svc", client_secret: "pw" } });
    expect([...unscoped.net.form(TOKEN).keys()].sort()).toEqual(["grant_type", "resource"]);

    const refused = stubNet({ ...standardRoutes(), [TOKEN]: () => jsonReply({ error: "invalid_client" }, 400) });
    const error = await clientError(run({ clientCredentials: { client_id: "svc", client_secret: "pw" } }, refused));
    expect([error.code, error.message]).toEqual([
      "token_request_failed",
      `client credentials token request to ${AS}/token: invalid_client`,
    ]);
  });
});

describe("client identity", () => {
  it("registers when the AS supports CIMD but the client has no document", async () => {
    const net = stubNet(standardRoutes({ as: { client_id_metadata_document_supported: true } }));
    const provider = approver();
    await run(provider, net);
    expect(net.calls()).toContain(REGISTER);
    expect(provider.urls[0]!.searchParams.get("client_id")).toBe("dcr-client");
  });

  it("a CIMD client with a key signs its assertion even when the AS lists only none", async () => {
    const { privateKey, publicKey } = await generateKeyPair("ES256");
    const cimd = "https://app.example/client.json";
    const net = stubNet(
      standardRoutes({
        as: { client_id_metadata_document_supported: true, token_endpoint_auth_methods_supported: ["none"] },
      }),
    );
    await run(approver({ clientMetadataUrl: cimd, privateKey: { key: privateKey, alg: "ES256" } }), net);
    const assertion = net.form(TOKEN).get("client_assertion");
    expect(assertion).not.toBeNull();
    expect((await jwtVerify(assertion!, publicKey)).payload).toMatchObject({ iss: cimd });
  });

  it("does not trust a stored registration without a string client_id", async () => {
    const store = memoryStore();
    await store.set(`client ${AS}`, { client_id: 5 });
    const net = stubNet(standardRoutes());
    const provider = approver({ store });
    expect((await run(provider, net)).response.status).toBe(200);
    expect(net.calls()).toContain(REGISTER);
    expect(provider.urls[0]!.searchParams.get("client_id")).toBe("dcr-client");
  });

  it("uses a pre-registration bound to this AS, and names both issuers when it is bound to another", async () => {
    const bound = approver({ clientInformation: { client_id: "pre", issuer: AS } });
    expect((await run(bound)).response.status).toBe(200);
    expect(bound.urls[0]!.searchParams.get("client_id")).toBe("pre");
    const other = approver({ clientInformation: { client_id: "pre", issuer: "https://other.example" } });
    expect((await clientError(run(other))).message).toBe(
      `the pre-registered client belongs to https://other.example, but the server now uses ${AS}`,
    );
  });
});

describe("callbacks, limits and messages", () => {
  it("reads a query-string callback whose values contain ':' as parameters, not as a URL", async () => {
    const provider = approver({
      authorize: (url) => Promise.resolve(`state=${url.searchParams.get("state")}&code=a:b`),
    });
    const { net, response } = await run(provider);
    expect(response.status).toBe(200);
    expect(net.form(TOKEN).get("code")).toBe("a:b");
  });

  it("fails a refresh whose answer is over the size limit instead of asking the user again", async () => {
    const store = memoryStore();
    await store.set(`tokens ${RS}/mcp`, {
      access_token: "old",
      token_type: "Bearer",
      refresh_token: "r1",
      expires_at: 1,
      resource: `${RS}/mcp`,
      issuer: AS,
    });
    const net = stubNet({
      ...standardRoutes(),
      [TOKEN]: () => jsonReply({ access_token: "x".repeat(70 * 1024), token_type: "Bearer" }),
    });
    const provider = approver({ store });
    const error = await clientError(post(oauthFetch(provider, { fetch: net.fetch, maxResponseBytes: 64 * 1024 })));
    expect(error.code).toBe("response_too_large");
    expect(provider.urls).toHaveLength(0);
  });

  it("says which step failed: registration, authorization response, token request; and what the provider lacks", async () => {
    const registration = stubNet({
      ...standardRoutes(),
      [REGISTER]: () => jsonReply({ error: "invalid_client_metadata" }, 400),
    });
    expect((await clientError(run(approver(), registration))).message).toBe(
      `client registration at ${AS}/register: invalid_client_metadata`,
    );
    const wrongIss = await clientError(run(approver({}, "https://someone-else.example")));
    expect(wrongIss.message).toMatch(/^authorization response: /);
    const token = stubNet({ ...standardRoutes(), [TOKEN]: () => jsonReply({ error: "invalid_grant" }, 400) });
    expect((await clientError(run(approver(), token))).message).toBe(`token request to ${AS}/token: invalid_grant`);
    const { authorize: _, ...noBrowser } = approver();
    expect((await clientError(run(noBrowser))).message).toBe(
      "the server needs user authorization but the provider has no redirectUrl/authorize",
    );
  });
});
