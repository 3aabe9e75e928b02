/**
 * How the OAuth client finds who issues tokens (runtime/auth/oauth-client/discovery.ts), on the requests it makes to
 * an in-memory network: the metadata requests it sends, the URLs it derives from odd server and issuer paths, the
 * documents it refuses and what its errors say. Equivalent mutants left alive by these tests: docs/mutation.md.
 */
import { describe, expect, it } from "vitest";
import { metadataCandidates, oauthFetch } from "../../../../runtime/auth/index.ts";
import {
  approver,
  AS,
  AS_META,
  asDoc,
  challenge,
  clientError,
  jsonReply,
  MCP,
  post,
  PRM_PATH,
  PRM_ROOT,
  RS,
  standardRoutes,
  stubNet,
} from "./oauth-harness.ts";

const LEGACY_META = `GET ${RS}/.well-known/oauth-authorization-server`;

describe("metadata requests", () => {
  it("ask for JSON: PRM, AS metadata and the 2025-03-26 root metadata", async () => {
    const net = stubNet(standardRoutes());
    await post(oauthFetch(approver(), { fetch: net.fetch }));
    const legacy = stubNet({ ...standardRoutes(), [PRM_PATH]: () => jsonReply({}, 404) });
    await clientError(post(oauthFetch(approver(), { fetch: legacy.fetch })));
    const metadata = [...net.sent, ...legacy.sent].filter((s) => s.url.pathname.includes("/.well-known/"));
    expect(metadata.map((s) => `${s.method} ${s.url.href}`)).toEqual(
      expect.arrayContaining([PRM_PATH, AS_META, LEGACY_META]),
    );
    for (const request of metadata) expect(request.headers.get("accept"), request.url.href).toBe("application/json");
  });

  it("derive PRM and AS metadata URLs ignoring trailing slashes, and ask the root PRM URI once for a root server", async () => {
    const slashes = stubNet({ [`POST ${RS}/mcp//`]: () => challenge("Bearer") });
    await clientError(post(oauthFetch(approver(), { fetch: slashes.fetch }), `${RS}/mcp//`));
    expect(slashes.calls().slice(1, 3)).toEqual([PRM_PATH, PRM_ROOT]);
    const root = stubNet({ [`POST ${RS}/`]: () => challenge("Bearer") });
    await clientError(post(oauthFetch(approver(), { fetch: root.fetch }), `${RS}/`));
    expect(root.calls().filter((c) => c === PRM_ROOT)).toHaveLength(1);
    expect(metadataCandidates(new URL("https://as.example/tenant1//")).map(String)).toEqual(
      metadataCandidates(new URL("https://as.example/tenant1")).map(String),
    );
  });

  it("send the server's URL without its fragment as the resource when there is no PRM", async () => {
    const net = stubNet({
      [MCP]: standardRoutes()[MCP]!,
      [`POST ${RS}/register`]: () => jsonReply({ client_id: "c" }, 201),
      [`POST ${RS}/token`]: () => jsonReply({ access_token: "tok-1", token_type: "Bearer" }),
    });
    const provider = approver();
    expect((await post(oauthFetch(provider, { fetch: net.fetch }), `${RS}/mcp#part`)).status).toBe(200);
    expect(provider.urls[0]!.searchParams.get("resource")).toBe(`${RS}/mcp`);
    expect(net.form(`POST ${RS}/token`).get("resource")).toBe(`${RS}/mcp`);
  });
});

describe("documents refused", () => {
  it("refuses AS metadata without an issuer as invalid metadata (not as a mismatch)", async () => {
    const { issuer: _, ...anonymous } = asDoc(AS);
    const net = stubNet({ ...standardRoutes(), [AS_META]: () => jsonReply(anonymous) });
    const error = await clientError(post(oauthFetch(approver(), { fetch: net.fetch })));
    expect(error.code).toBe("invalid_metadata");
    expect(error.message).toMatch(
      /^authorization server metadata at https:\/\/as\.example\/\.well-known\/oauth-authorization-server: .*"issuer"/,
    );
  });

  it("refuses PRM naming a non-string authorization server among strings", async () => {
    const net = stubNet(standardRoutes({ prm: { authorization_servers: [AS, 7] } }));
    const error = await clientError(post(oauthFetch(approver(), { fetch: net.fetch })));
    expect(error.message).toMatch(/no authorization_servers$/);
  });

  it("says which URL was refused: resource_metadata, an authorization server, a legacy issuer", async () => {
    const fromChallenge = stubNet({ [MCP]: () => challenge('Bearer resource_metadata="http://evil.example/prm"') });
    expect((await clientError(post(oauthFetch(approver(), { fetch: fromChallenge.fetch })))).message).toBe(
      "resource_metadata in WWW-Authenticate: refusing http://evil.example/prm (OAuth needs https; plain http only for loopback hosts)",
    );
    const plainAs = stubNet(standardRoutes({ prm: { authorization_servers: ["http://as.example"] } }));
    expect((await clientError(post(oauthFetch(approver(), { fetch: plainAs.fetch })))).message).toBe(
      "authorization server: refusing http://as.example/ (OAuth needs https; plain http only for loopback hosts)",
    );
    const what = `authorization server metadata at ${RS}/.well-known/oauth-authorization-server`;
    const legacy = (doc: Record<string, unknown>) =>
      stubNet({ ...standardRoutes(), [PRM_PATH]: () => jsonReply({}, 404), [LEGACY_META]: () => jsonReply(doc) });
    const elsewhere = await clientError(post(oauthFetch(approver(), { fetch: legacy(asDoc(AS)).fetch })));
    expect([elsewhere.code, elsewhere.message]).toEqual([
      "issuer_mismatch",
      `${what}: issuer ${AS}/ is not on the server's origin`,
    ]);
    const plainIssuer = await clientError(
      post(oauthFetch(approver(), { fetch: legacy(asDoc("http://rs.example")).fetch })),
    );
    expect(plainIssuer.message).toBe(
      `${what}: issuer: refusing http://rs.example/ (OAuth needs https; plain http only for loopback hosts)`,
    );
    // No issuer at all: the origin is expected, and the document is refused for lacking one.
    const { issuer: _, ...anonymous } = asDoc(RS);
    const noIssuer = await clientError(post(oauthFetch(approver(), { fetch: legacy(anonymous).fetch })));
    expect(noIssuer.code).toBe("invalid_metadata");
    expect(noIssuer.message).toMatch(/"issuer"/);
    expect(noIssuer.message).not.toMatch(/not a valid URL/);
  });
});
