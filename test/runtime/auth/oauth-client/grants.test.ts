/**
 * The JWT bearer grant (RFC 7523) for workload identity and enterprise-managed authorization: the assertion
 * reaches the AS with `resource`; `enterpriseAssertion()` first exchanges the ID token at the IdP for an ID-JAG
 * (RFC 8693) addressed to the MCP server's AS. The fakes check every parameter the specs require.
 */
import { afterEach, describe, expect, it } from "vitest";
import { enterpriseAssertion, oauthFetch } from "../../../../runtime/auth/index.ts";
import { asMetadata, json, mcpEndpoint, startFake, type Fake } from "./fixtures/fake-as.ts";

const fakes: Fake[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

const form = (body: string) => new URLSearchParams(body);

async function mcpWithAs(
  tokenCheck: (body: URLSearchParams, authorization: string | undefined) => boolean,
): Promise<Fake> {
  const f = await startFake((f) => ({
    "POST /mcp": mcpEndpoint(),
    "GET /.well-known/oauth-protected-resource/mcp": () =>
      json({ resource: `${f.origin}/mcp`, authorization_servers: [f.origin] }),
    "GET /.well-known/oauth-authorization-server": () =>
      json(asMetadata(f.origin, { grant_types_supported: ["urn:ietf:params:oauth:grant-type:jwt-bearer"] })),
    "POST /token": (req) =>
      tokenCheck(form(req.body), req.authorization)
        ? json({ access_token: "good-token", token_type: "Bearer", expires_in: 60 })
        : json({ error: "invalid_grant" }, 400),
  }));
  fakes.push(f);
  return f;
}

describe("JWT bearer grant", () => {
  it("workload identity: the given assertion, with resource, no user and no registration", async () => {
    const seen: unknown[] = [];
    const f = await mcpWithAs(
      (body) =>
        body.get("grant_type") === "urn:ietf:params:oauth:grant-type:jwt-bearer" &&
        body.get("assertion") === "workload.jwt",
    );
    const oauthed = oauthFetch({
      jwtBearer: {
        client_id: "workload",
        assertion: (context) => {
          seen.push(context);
          return "workload.jwt";
        },
      },
    });
    expect((await oauthed(`${f.origin}/mcp`, { method: "POST", body: "{}" })).status).toBe(200);
    expect(seen).toEqual([{ issuer: f.origin, resource: `${f.origin}/mcp` }]);
    const body = form(f.seen.find((s) => s.path === "/token")!.body);
    expect([body.get("resource"), body.get("client_id")]).toEqual([`${f.origin}/mcp`, "workload"]);
    expect(f.paths()).not.toContain("POST /register");
  });

  it("enterprise-managed: ID token → ID-JAG at the IdP (token exchange) → access token at the AS (client_secret_basic)", async () => {
    const idp = await startFake(() => ({
      "POST /token": (req) => {
        const b = form(req.body);
        const ok =
          b.get("grant_type") === "urn:ietf:params:oauth:grant-type:token-exchange" &&
          b.get("subject_token") === "user.id_token" &&
          b.get("subject_token_type") === "urn:ietf:params:oauth:token-type:id_token" &&
          b.get("requested_token_type") === "urn:ietf:params:oauth:token-type:id-jag" &&
          b.get("client_id") === "idp-client";
        return ok
          ? json({
              access_token: `id-jag-for ${b.get("audience")} ${b.get("resource")}`,
              issued_token_type: "urn:ietf:params:oauth:token-type:id-jag",
              token_type: "N_A",
            })
          : json({ error: "invalid_request" }, 400);
      },
    }));
    fakes.push(idp);
    let expectedJag = "";
    const f = await mcpWithAs((body, authorization) => {
      const [id, secret] = Buffer.from((authorization ?? "").slice(6), "base64")
        .toString()
        .split(":");
      return body.get("assertion") === expectedJag && id === "mcp-client" && secret === "mcp-secret";
    });
    expectedJag = `id-jag-for ${f.origin} ${f.origin}/mcp`;
    const oauthed = oauthFetch({
      jwtBearer: {
        client_id: "mcp-client",
        client_secret: "mcp-secret",
        assertion: enterpriseAssertion({
          idpTokenEndpoint: `${idp.origin}/token`,
          idpIssuer: idp.origin,
          idpClientId: "idp-client",
          idToken: () => "user.id_token",
        }),
      },
    });
    expect((await oauthed(`${f.origin}/mcp`, { method: "POST", body: "{}" })).status).toBe(200);
    expect(idp.paths()).toEqual(["POST /token"]);
  });

  it("a rejected assertion is a clear error, and no other grant is tried", async () => {
    const f = await mcpWithAs(() => false);
    const error = await oauthFetch({ jwtBearer: { client_id: "w", assertion: () => "bad" } })(`${f.origin}/mcp`, {
      method: "POST",
      body: "{}",
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "token_request_failed" });
    expect((error as Error).message).toMatch(/invalid_grant/);
    expect(f.paths().filter((p) => p === "POST /token")).toHaveLength(1);
  });
});
