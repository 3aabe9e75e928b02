/** Bad input and guard rails: every bad request gets a clear HTTP/JSON-RPC error and the server keeps serving. */
import { describe, expect, it } from "vitest";
import { request as httpRequest } from "node:http";
import { serve } from "../../../../runtime/http/server/node.ts";
import { badInputServer, call, errorOf, modernHeaders } from "./bad-input-setup.ts";
import { FixtureHost } from "../fixtures/fixture-host.ts";
import { initializeMessage, modernMeta, MODERN, openSession, post, waitFor } from "../helpers.ts";

const fx = badInputServer();
const host = fx.host;

describe("malformed bodies and media types", () => {
  it("answers garbage with -32700 and a non-JSON-RPC object with -32600", async () => {
    const garbage = await post(fx.server.url, "{not json");
    expect(garbage.status).toBe(400);
    expect((await errorOf(garbage)).code).toBe(-32700);
    const shapeless = await post(fx.server.url, { hello: "world" });
    expect(shapeless.status).toBe(400);
    expect((await errorOf(shapeless)).code).toBe(-32600);
    const empty = await post(fx.server.url, []);
    expect(empty.status).toBe(400);
  });

  it("refuses a wrong Content-Type (415) and an Accept without both types (406)", async () => {
    const form = await post(fx.server.url, initializeMessage(1), { "content-type": "text/plain" });
    expect(form.status).toBe(415);
    const jsonOnly = await post(fx.server.url, initializeMessage(1), { accept: "application/json" });
    expect(jsonOnly.status).toBe(406);
  });

  it("refuses an oversized body with 413", async () => {
    const big = { jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(100 * 1024) } };
    const response = await post(fx.server.url, big);
    expect(response.status).toBe(413);
  });

  it("refuses a streamed oversized body without Content-Length", async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        fx.server.url,
        {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            "transfer-encoding": "chunked",
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      for (let i = 0; i < 20; i++) req.write("x".repeat(8 * 1024));
      req.end();
    });
    expect(status).toBe(413);
  });
});

describe("sessions", () => {
  it("needs a session id (400), and an unknown one is 404", async () => {
    const missing = await post(
      fx.server.url,
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { "mcp-protocol-version": "2025-11-25" },
    );
    expect(missing.status).toBe(400);
    const unknown = await post(
      fx.server.url,
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      { "mcp-session-id": "no-such-session" },
    );
    expect(unknown.status).toBe(404);
  });

  it("an initialize notification opens no session: it needs one like any notification (400), and nothing is left open", async () => {
    const before = fx.server.handler.sessionCount;
    const { id: _id, ...notification } = initializeMessage(1) as { id: number };
    const response = await post(fx.server.url, notification);
    expect(response.status).toBe(400);
    expect(response.headers.get("mcp-session-id")).toBeNull();
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain("Mcp-Session-Id");
    expect(fx.server.handler.sessionCount).toBe(before);
  });

  it("refuses an unsupported MCP-Protocol-Version on a session (400)", async () => {
    const id = await openSession(fx.server.url);
    const response = await post(
      fx.server.url,
      { jsonrpc: "2.0", id: 2, method: "ping" },
      { "mcp-session-id": id, "mcp-protocol-version": "1999-01-01" },
    );
    expect(response.status).toBe(400);
  });

  it("accepts a batch only in 2025-03-26, and never with initialize", async () => {
    const old = await openSession(fx.server.url, "2025-03-26");
    const batch = [
      { jsonrpc: "2.0", id: 10, method: "ping" },
      { jsonrpc: "2.0", id: 11, method: "tools/call", params: { name: "echo", arguments: { text: "b" } } },
    ];
    const ok = await post(fx.server.url, batch, { "mcp-session-id": old, "mcp-protocol-version": "2025-03-26" });
    expect(ok.status).toBe(200);
    const answers = (await ok.json()) as Array<{ id: number }>;
    expect(answers.map((a) => a.id).sort()).toEqual([10, 11]);
    const withInit = await post(fx.server.url, [initializeMessage(12, "2025-03-26")], { "mcp-session-id": old });
    expect(withInit.status).toBe(400);
    const newer = await openSession(fx.server.url, "2025-06-18");
    const refused = await post(fx.server.url, batch, { "mcp-session-id": newer, "mcp-protocol-version": "2025-06-18" });
    expect(refused.status).toBe(400);
  });

  it("GET and DELETE without a session are 405", async () => {
    expect((await fetch(fx.server.url, { headers: { accept: "text/event-stream" } })).status).toBe(405);
    expect((await fetch(fx.server.url, { method: "DELETE" })).status).toBe(405);
  });
});

describe("DNS rebinding protection", () => {
  it("refuses a foreign Host or Origin with 403 and accepts its own", async () => {
    const port = new URL(fx.server.url).port;
    const send = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          fx.server.url,
          {
            method: "POST",
            headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        req.end(JSON.stringify(initializeMessage(1)));
      });
    expect(await send({ host: "evil.example.com", origin: "http://evil.example.com" })).toBe(403);
    expect(await send({ host: `localhost:${port}`, origin: "http://evil.example.com" })).toBe(403);
    expect(await send({ host: `localhost:${port}`, origin: `http://localhost:${port}` })).toBe(200);
  });
});

describe("stateless era (2026-07-28) headers", () => {
  it("serves a correct request and rejects every header mismatch with 400 and -32020", async () => {
    const good = await post(fx.server.url, call(1, "echo", { text: "ok" }), modernHeaders("tools/call", "echo"));
    expect(good.status).toBe(200);
    const cases: Array<[string, Record<string, string>, object]> = [
      ["no version header", { "mcp-method": "tools/call", "mcp-name": "echo" }, call(2, "echo")],
      [
        "version differs from _meta",
        { ...modernHeaders("tools/call", "echo"), "mcp-protocol-version": "2099-01-01" },
        call(3, "echo"),
      ],
      ["Mcp-Method differs", modernHeaders("tools/list", "echo"), call(4, "echo")],
      ["Mcp-Name missing", modernHeaders("tools/call"), call(5, "echo")],
      ["Mcp-Name differs", modernHeaders("tools/call", "other"), call(6, "echo")],
      ["Mcp-Param missing", modernHeaders("tools/call", "regional"), call(7, "regional", { region: "us-west1" })],
      [
        "Mcp-Param differs",
        { ...modernHeaders("tools/call", "regional"), "mcp-param-region": "eu" },
        call(8, "regional", { region: "us-west1" }),
      ],
      ["bad base64", { ...modernHeaders("tools/call", "=?base64?***?=") }, call(9, "echo")],
    ];
    for (const [label, headers, body] of cases) {
      const response = await post(fx.server.url, body, headers);
      expect(response.status, label).toBe(400);
      expect((await errorOf(response)).code, label).toBe(-32020);
    }
  });

  it("decodes Base64 header values before comparing", async () => {
    const headers = {
      ...modernHeaders("tools/call", "regional"),
      "mcp-param-region": "=?base64?SGVsbG8sIOS4lueVjA==?=",
    };
    const response = await post(fx.server.url, call(1, "regional", { region: "Hello, 世界" }), headers);
    expect(response.status).toBe(200);
  });

  it("compares integer header values as numbers", async () => {
    const headers = { ...modernHeaders("tools/call", "regional"), "mcp-param-region": "eu" };
    const body = call(1, "regional", { region: "eu", count: 42 });
    expect((await post(fx.server.url, body, { ...headers, "mcp-param-count": "42.0" })).status).toBe(200);
    const differs = await post(fx.server.url, body, { ...headers, "mcp-param-count": "43" });
    expect(differs.status).toBe(400);
    expect((await errorOf(differs)).code).toBe(-32020);
  });

  it("requires the _meta fields (-32602) and answers an unknown method with 404 + -32601", async () => {
    const noCaps = await post(
      fx.server.url,
      call(1, "echo", {}, { "io.modelcontextprotocol/protocolVersion": MODERN }),
      modernHeaders("tools/call", "echo"),
    );
    expect(noCaps.status).toBe(400);
    expect((await errorOf(noCaps)).code).toBe(-32602);
    const unknown = await post(
      fx.server.url,
      { jsonrpc: "2.0", id: 2, method: "no/such", params: { _meta: modernMeta() } },
      modernHeaders("no/such"),
    );
    expect(unknown.status).toBe(404);
    expect((await errorOf(unknown)).code).toBe(-32601);
  });
});

describe("clients that go away", () => {
  it("stateless era: closing the response stream cancels the request and frees its transport", async () => {
    const calls = host.contexts.length;
    const controller = new AbortController();
    // "slow" sends nothing until it is done, so the answer is held open with no bytes sent yet.
    const pending = fetch(fx.server.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...modernHeaders("tools/call", "slow"),
      },
      body: JSON.stringify(call(1, "slow")),
      signal: controller.signal,
    }).catch((error: unknown) => error);
    await waitFor(() => host.contexts.length === calls + 1);
    const during = host.open;
    controller.abort();
    // The handler saw the cancellation, and the server session that carried it was closed (not reused).
    await waitFor(() => host.cancelled.includes("slow") && host.open === during - 1);
    expect(await pending).toBeInstanceOf(Error);
  });

  it("handshake era: a client that vanishes mid-stream does not stop the server serving others", async () => {
    const id = await openSession(fx.server.url);
    const headers = { "mcp-session-id": id, "mcp-protocol-version": "2025-11-25" };
    const controller = new AbortController();
    const stream = await fetch(fx.server.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "progress" } }),
      signal: controller.signal,
    });
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
    controller.abort();
    const other = await openSession(fx.server.url);
    const ok = await post(fx.server.url, { jsonrpc: "2.0", id: 6, method: "ping" }, { "mcp-session-id": other });
    expect(ok.status).toBe(200);
  });

  it("a session whose only client vanished mid-call expires and frees the running handler", async () => {
    const fixture = new FixtureHost();
    // 500 ms, not less: the handshake's two POSTs and the call must fit in it on a loaded machine (at 100 ms the session
    // could expire before the call reached it).
    const shortLived = await serve(fixture, { sessionIdleTimeoutMs: 500 });
    try {
      const id = await openSession(shortLived.url);
      const controller = new AbortController();
      const call = fetch(shortLived.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-session-id": id,
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "slow" } }),
        signal: controller.signal,
      }).catch((error: unknown) => error);
      await waitFor(() => fixture.contexts.length === 2); // initialize, then the slow call
      // Twice the idle timeout (the sweep runs every 250 ms): busy, an in-flight call with its client connected does not expire.
      await new Promise((r) => setTimeout(r, 1000));
      expect(shortLived.handler.sessionCount).toBe(1);
      controller.abort();
      await call;
      await waitFor(
        () => shortLived.handler.sessionCount === 0 && fixture.open === 0 && fixture.cancelled.includes("slow"),
        5000,
      );
    } finally {
      await shortLived.close();
    }
  });

  it("idle sessions expire and are freed", async () => {
    // Long enough that the handshake's two POSTs fit in it on a loaded machine (at 50 ms the session could expire
    // between initialize and notifications/initialized).
    const shortLived = await serve(new FixtureHost(), { sessionIdleTimeoutMs: 500 });
    try {
      await openSession(shortLived.url);
      await openSession(shortLived.url);
      expect(shortLived.handler.sessionCount).toBe(2);
      await waitFor(() => shortLived.handler.sessionCount === 0, 5000);
    } finally {
      await shortLived.close();
    }
  });
});
