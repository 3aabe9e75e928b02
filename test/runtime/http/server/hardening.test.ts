/**
 * One request must never stop the server (issue 9, items 1 and 4), over real sockets: verifier messages with CR/LF,
 * an en dash or quotes never break `WWW-Authenticate`, a forged JWT with `"crit": ["a\nb"]` is a plain 401, a
 * response whose headers Node refuses costs one connection and not the process, and an oversized upload is answered
 * 413 and its connection closed instead of drained.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { jwtVerifier } from "../../../../runtime/auth/jwt.ts";
import { McpHttpHandler } from "../../../../runtime/http/server/handler.ts";
import { serve, toNodeListener, type RunningServer } from "../../../../runtime/http/server/node.ts";
import { SseStream } from "../../../../runtime/http/server/sse.ts";
import type { HttpRequestIn, HttpResponseOut } from "../../../../runtime/http/server/types.ts";
import { FixtureHost } from "../fixtures/fixture-host.ts";
import { initializeMessage, post } from "../helpers.ts";
import { postHead, rawConnect, receive, statusOf, within } from "../raw.ts";

/** What RFC 6750 §3 allows inside a quoted auth-param value, and a whole challenge built only from it. */
const CHALLENGE =
  /^Bearer resource_metadata="[^"\\]*"(, scope="[\x20\x21\x23-\x5b\x5d-\x7e]*")?, error="invalid_token", error_description="[\x20\x21\x23-\x5b\x5d-\x7e]*"$/;

const EVIL: Readonly<Record<string, string>> = {
  crlf: "signature invalid\r\nX-Injected: yes",
  lf: "crit header a\nb is not understood",
  dash: "token expired – renew it",
  quote: 'bad "kid" \\ here',
  nul: "nul \u0000 byte",
  long: "x".repeat(10_000),
};
const VALID = "valid-token";

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

describe("forged tokens and hostile verifier messages", () => {
  let server: RunningServer;
  let resource: string;
  const errors: unknown[] = [];

  beforeAll(async () => {
    const probe = await serve(new FixtureHost());
    const port = probe.port;
    await probe.close();
    resource = `http://127.0.0.1:${port}/mcp`;
    const jwt = jwtVerifier({ issuer: "https://issuer.test", audience: resource, key: new Uint8Array(32).fill(7) });
    server = await serve(new FixtureHost(), {
      port,
      onError: (e) => errors.push(e),
      auth: {
        resourceMetadata: { resource, authorization_servers: ["https://issuer.test"] },
        verifyToken: async (token, request) => {
          if (token === VALID) return { token, clientId: "c1", scopes: [] };
          const evil = EVIL[token];
          if (evil !== undefined) throw new Error(evil);
          return jwt(token, request);
        },
      },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  const ping = (token: string) =>
    post(resource, { jsonrpc: "2.0", id: 1, method: "ping" }, { authorization: `Bearer ${token}` });

  it.each(Object.keys(EVIL))("answers a verifier message with %s as a clean 401 and keeps serving", async (name) => {
    const response = await ping(name);
    expect(response.status).toBe(401);
    const challenge = response.headers.get("www-authenticate") ?? "";
    expect(challenge).toMatch(CHALLENGE);
    expect(challenge.length).toBeLessThan(400);
    expect(response.headers.get("x-injected")).toBeNull();
    const body = (await response.json()) as { error: string; error_description: string };
    expect(body.error).toBe("invalid_token");
    expect(body.error_description).toMatch(/^[\x20\x21\x23-\x5b\x5d-\x7e]+$/);
    // The server is still there and serves a valid token.
    const next = await post(resource, initializeMessage(2), { authorization: `Bearer ${VALID}` });
    expect(next.status).toBe(200);
    await next.text();
  });

  it('answers a forged JWT whose header has crit ["a\\nb"] (no valid signature) with 401, and the next request works', async () => {
    const forged = `${base64url({ alg: "HS256", crit: ["a\nb"], "a\nb": 1 })}.${base64url({ sub: "x" })}.${"A".repeat(43)}`;
    const noneAlg = `${base64url({ alg: "none", crit: ["–"] })}.${base64url({ sub: "x" })}.`;
    for (const token of [forged, noneAlg]) {
      // Raw bytes, so the Authorization header is exactly what an attacker sends.
      const connection = await rawConnect(server.port);
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });
      connection.socket.write(
        postHead(server.port, [`Authorization: Bearer ${token}`, `Content-Length: ${body.length}`]) + body,
      );
      const text = await receive(connection, "\r\n\r\n");
      expect(statusOf(text)).toBe(401);
      const challenge = /\r\nwww-authenticate: ([^\r\n]*)\r\n/i.exec(text)?.[1] ?? "";
      expect(challenge).toMatch(CHALLENGE);
      connection.socket.destroy();
    }
    const next = await post(resource, initializeMessage(3), { authorization: `Bearer ${VALID}` });
    expect(next.status).toBe(200);
    await next.text();
    expect(errors).toEqual([]);
  });
});

let lastStream: SseStream | undefined;

/** A handler whose answers Node refuses to write (a header value with a newline), or that fails outright. */
class BrokenHandler extends McpHttpHandler {
  override async handle(request: HttpRequestIn): Promise<HttpResponseOut> {
    if (request.path === "/bad-header") return { status: 200, headers: { "x-bad": "a\nb" }, body: "{}" };
    if (request.path === "/bad-status") return { status: 99, headers: {}, body: "{}" };
    if (request.path === "/reject") throw new Error("handler failed");
    if (request.path === "/bad-sse") {
      lastStream = new SseStream();
      return { status: 200, headers: { "x-bad": "–" }, body: lastStream };
    }
    return { status: 200, headers: { "content-type": "text/plain" }, body: "fine" };
  }
}

describe("toNodeListener never lets a throw escape", () => {
  let http: Server;
  let base: string;
  const reported: unknown[] = [];

  beforeAll(async () => {
    const handler = new BrokenHandler(new FixtureHost(), { onError: (e) => reported.push(e) });
    http = createServer(toNodeListener(handler));
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });

  it("answers 500 (or drops the connection) for unwritable answers and goes on serving", async () => {
    for (const path of ["/bad-header", "/bad-status", "/reject"]) {
      const response = await fetch(base + path).catch((error: unknown) => error);
      if (response instanceof Response) expect(response.status).toBe(500);
      else expect(response).toBeInstanceOf(Error);
      const fine = await fetch(`${base}/ok`);
      expect(await fine.text()).toBe("fine");
    }
    // Each failure was reported once to onError.
    expect(reported).toHaveLength(3);
  });

  it("closes an SSE stream whose headers could not be written, so it buffers nothing more", async () => {
    const response = await fetch(`${base}/bad-sse`).catch((error: unknown) => error);
    if (response instanceof Response) expect(response.status).toBe(500);
    expect(lastStream?.open).toBe(false);
    expect(lastStream?.send({ data: "{}" })).toBe(false);
  });
});

describe("an oversized upload", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await serve(new FixtureHost(), { maxBodyBytes: 64 * 1024 });
  });
  afterAll(async () => {
    await server.close();
  });

  it("is answered 413 with Connection: close, and the server stops reading and hangs up", async () => {
    const connection = await rawConnect(server.port);
    connection.socket.write(postHead(server.port, ["Transfer-Encoding: chunked"]));
    const chunk = "x".repeat(64 * 1024);
    let sent = 0;
    // Keep streaming until the server hangs up (or 256 MiB, far beyond what any socket buffer holds).
    while (!connection.isClosed() && sent < 256 * 1024 * 1024) {
      const ok = connection.socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      sent += chunk.length;
      if (!ok) await within(new Promise((resolve) => connection.socket.once("drain", resolve)), 50);
    }
    expect(await within(connection.closed, 3000)).toBe(true);
    const text = connection.text();
    expect(statusOf(text)).toBe(413);
    expect(text).toMatch(/\r\nconnection: close\r\n/i);
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  });

  it("with a declared Content-Length beyond the limit is refused before reading and the connection closed", async () => {
    const connection = await rawConnect(server.port);
    connection.socket.write(postHead(server.port, [`Content-Length: ${1024 * 1024 * 1024}`]) + "{".repeat(1000));
    expect(await within(connection.closed, 3000)).toBe(true);
    expect(statusOf(connection.text())).toBe(413);
    expect(connection.text()).toMatch(/\r\nconnection: close\r\n/i);
    // And a normal request is served afterwards.
    const next = await post(server.url, initializeMessage(1));
    expect(next.status).toBe(200);
    await next.text();
  });
});

describe("toFetchHandler", () => {
  it("answers 500 for an answer whose headers Headers refuses, and reports it once", async () => {
    const { toFetchHandler } = await import("../../../../runtime/http/server/web.ts");
    const reported: unknown[] = [];
    const fetchHandler = toFetchHandler(new BrokenHandler(new FixtureHost(), { onError: (e) => reported.push(e) }));
    const bad = await fetchHandler(new Request("http://127.0.0.1/bad-header"));
    expect(bad.status).toBe(500);
    expect(reported).toHaveLength(1);
    const fine = await fetchHandler(new Request("http://127.0.0.1/ok"));
    expect(await fine.text()).toBe("fine");
  });
});

describe("Host header parsing (DNS-rebinding guard)", () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serve(new FixtureHost());
  });
  afterAll(async () => {
    await server.close();
  });

  it("refuses a Host that only starts like a loopback name, and accepts real loopback authorities", async () => {
    const send = async (host: string) => {
      const connection = await rawConnect(server.port);
      const body = JSON.stringify(initializeMessage(1));
      connection.socket.write(
        postHead(server.port)
          .replace(/^Host: [^\r]*/m, `Host: ${host}`)
          .replace("\r\n\r\n", `\r\nContent-Length: ${body.length}\r\n\r\n`) + body,
      );
      const text = await receive(connection, "\r\n\r\n");
      connection.socket.destroy();
      return statusOf(text);
    };
    for (const evil of [
      `localhost:${server.port}@evil.com`,
      "localhost/evil.com",
      "127.0.0.1:80:81",
      "[::1]evil",
      "localhost:x",
    ])
      expect([400, 403]).toContain(await send(evil));
    for (const good of [`localhost:${server.port}`, "127.0.0.1", `[::1]:${server.port}`, "LOCALHOST"])
      expect(await send(good)).toBe(200);
  });
});
