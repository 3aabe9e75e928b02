/**
 * Issue 20, item 12: where the OAuth client's token may go and what it accepts as one.
 * - Redirects (a real HTTP server on 127.0.0.1, the real global fetch underneath): the token goes with each hop only
 *   when that hop is under the token's resource; fetch itself would keep `Authorization` on a same-origin redirect.
 * - Tokens an authorization server issues that no `Authorization` header can carry (CR/LF, past Latin-1) are refused
 *   with a clear error and never stored, so the next request authorizes again (in-memory network of the harness).
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryStore, oauthFetch } from "../../../../runtime/auth/index.ts";
import { approver, clientError, post, RS, standardRoutes, stubNet, TOKEN, jsonReply } from "./oauth-harness.ts";

interface Seen {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | undefined;
  readonly body: string;
}

describe("redirects: the token goes only to hops under its resource", () => {
  let server: Server;
  let origin: string;
  const seen: Seen[] = [];
  /** path → [status, location] of a redirect; anything else answers 200 "ok". */
  const redirects: Record<string, [number, string]> = {
    "/mcp/outside": [302, "/elsewhere"],
    "/mcp/inside": [307, "/mcp/below"],
    "/mcp/see-other": [303, "/mcp/below"],
    "/mcp/loop": [302, "/mcp/loop"],
  };
  const read = async (req: IncomingMessage) => {
    let body = "";
    for await (const chunk of req) body += String(chunk);
    return body;
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      void read(req).then((body) => {
        const path = req.url ?? "/";
        seen.push({ method: req.method ?? "", path, authorization: req.headers.authorization, body });
        const redirect = redirects[path];
        if (redirect) res.writeHead(redirect[0], { location: redirect[1] }).end();
        else res.writeHead(200, { "content-type": "text/plain" }).end("ok");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** An oauthFetch holding a stored token for `${origin}/mcp`, and the requests of one call. */
  async function call(path: string, method = "POST"): Promise<{ status: number; hops: Seen[] }> {
    const store = memoryStore();
    const resource = `${origin}/mcp`;
    await store.set(`tokens ${resource}`, { access_token: "secret", token_type: "Bearer", resource, issuer: origin });
    const f = oauthFetch({ store });
    seen.length = 0;
    const response = await f(`${origin}${path}`, {
      method,
      ...(method === "POST" ? { body: '{"a":1}', headers: { "content-type": "application/json" } } : {}),
    });
    await response.body?.cancel();
    return { status: response.status, hops: [...seen] };
  }

  it("a same-origin redirect outside the resource is followed without the token", async () => {
    const { status, hops } = await call("/mcp/outside");
    expect(status).toBe(200);
    expect(hops.map((h) => [h.method, h.path, h.authorization])).toEqual([
      ["POST", "/mcp/outside", "Bearer secret"],
      ["GET", "/elsewhere", undefined],
    ]);
  });

  it("a 307 inside the resource keeps the token, the method and the body", async () => {
    const { status, hops } = await call("/mcp/inside");
    expect(status).toBe(200);
    expect(hops.map((h) => [h.method, h.path, h.authorization, h.body])).toEqual([
      ["POST", "/mcp/inside", "Bearer secret", '{"a":1}'],
      ["POST", "/mcp/below", "Bearer secret", '{"a":1}'],
    ]);
  });

  it("a 303 becomes a GET without the body", async () => {
    const { hops } = await call("/mcp/see-other");
    expect(hops.map((h) => [h.method, h.path, h.body])).toEqual([
      ["POST", "/mcp/see-other", '{"a":1}'],
      ["GET", "/mcp/below", ""],
    ]);
  });

  it("the caller's own Authorization goes until the client holds a token, to the caller's origin only", async () => {
    // Issue 34, item 11: a personal access token in a host config's headers. No token held for this origin.
    const other = createServer((req, res) => {
      seen.push({
        method: req.method ?? "",
        path: `other${req.url}`,
        authorization: req.headers.authorization,
        body: "",
      });
      res.writeHead(200).end("ok");
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    redirects["/pat/away"] = [302, `http://127.0.0.1:${(other.address() as AddressInfo).port}/x`];
    try {
      const f = oauthFetch({ store: memoryStore() });
      seen.length = 0;
      for (const path of ["/pat", "/mcp/outside", "/pat/away"])
        await (await f(`${origin}${path}`, { headers: { authorization: "Bearer pat-1" } })).body?.cancel();
      expect(seen.map((h) => [h.path, h.authorization])).toEqual([
        ["/pat", "Bearer pat-1"],
        ["/mcp/outside", "Bearer pat-1"],
        ["/elsewhere", "Bearer pat-1"],
        ["/pat/away", "Bearer pat-1"],
        ["other/x", undefined],
      ]);
      // Holding a token for the resource, the client sends its own instead of the caller's.
      const { hops } = await call("/mcp/inside");
      expect(hops.map((h) => h.authorization)).toEqual(["Bearer secret", "Bearer secret"]);
    } finally {
      delete redirects["/pat/away"];
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });

  it("a redirect loop stops after 20 redirects with the redirect response", async () => {
    const { status, hops } = await call("/mcp/loop", "GET");
    expect(status).toBe(302);
    expect(hops).toHaveLength(21);
  });
});

describe("issued tokens a header cannot carry are refused, never stored", () => {
  for (const [what, bad] of [
    ["CR/LF", "tok\r\nX-Injected: 1"],
    ["a character past Latin-1", "tok\u0100"],
    ["a space", "tok en"],
  ] as const) {
    it(`${what}: a clear OAuthClientError, nothing stored, and the next request authorizes again`, async () => {
      const net = stubNet(standardRoutes());
      let issued: string = bad;
      net.routes[TOKEN] = () => jsonReply({ access_token: issued, token_type: "Bearer", expires_in: 3600 });
      const store = memoryStore();
      const f = oauthFetch(approver({ store }), { fetch: net.fetch });
      const error = await clientError(post(f));
      expect(error.code).toBe("token_request_failed");
      expect(error.message).toMatch(/issued a access_token that is not visible ASCII/);
      expect(await store.get(`tokens ${RS}/mcp`)).toBeUndefined();
      issued = "tok-1";
      expect((await post(f)).status).toBe(200);
      expect(await store.get(`tokens ${RS}/mcp`)).toMatchObject({ access_token: "tok-1" });
    });
  }

  it("a bad token stored by an older version is ignored (authorization runs) instead of failing every request", async () => {
    const net = stubNet(standardRoutes());
    const store = memoryStore();
    const resource = `${RS}/mcp`;
    await store.set(`tokens ${resource}`, { access_token: "ba\nd", token_type: "Bearer", resource, issuer: "x" });
    const f = oauthFetch(approver({ store }), { fetch: net.fetch });
    expect((await post(f)).status).toBe(200);
    expect(await store.get(`tokens ${resource}`)).toMatchObject({ access_token: "tok-1" });
  });
});
