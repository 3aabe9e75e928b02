/** Bad input, continued: batches in the stateless era, and the id every JSON-RPC error answer carries. */
import { describe, expect, it } from "vitest";
import { request as httpRequest } from "node:http";
import { badInputServer, call, modernHeaders } from "./bad-input-setup.ts";
import { modernMeta, MODERN, openSession, post, waitFor } from "../helpers.ts";

const fx = badInputServer();
const host = fx.host;

describe("stateless era (2026-07-28): batches do not exist", () => {
  it.each<[string, Record<string, string>]>([
    ["with the version header", modernHeaders("tools/call", "echo")],
    ["named by _meta only", {}],
  ])("a batch %s is an Invalid Request (-32600) saying so, with id null", async (_label, headers) => {
    const response = await post(
      fx.server.url,
      [call(1, "echo", { text: "a" }), call(2, "echo", { text: "b" })],
      headers,
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32600,
        message: `Invalid Request: JSON-RPC batches do not exist in MCP revision ${MODERN}; send one message per POST`,
      },
    });
  });
});

describe("every JSON-RPC error answer carries an id (the request's when known, else null)", () => {
  it.each<[string, () => Promise<Response>, number, string | number | null]>([
    [
      "wrong path",
      () => post(fx.server.url.replace(/\/mcp$/, "/elsewhere"), { jsonrpc: "2.0", id: 1, method: "ping" }),
      404,
      null,
    ],
    [
      "wrong Content-Type",
      () => post(fx.server.url, { jsonrpc: "2.0", id: 1, method: "ping" }, { "content-type": "text/plain" }),
      415,
      null,
    ],
    [
      "Accept without SSE",
      () => post(fx.server.url, { jsonrpc: "2.0", id: 1, method: "ping" }, { accept: "application/json" }),
      406,
      null,
    ],
    [
      "oversized body",
      () => post(fx.server.url, { jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(100 * 1024) } }),
      413,
      null,
    ],
    ["unparseable body", () => post(fx.server.url, "{not json"), 400, null],
    [
      "no session id",
      () =>
        post(fx.server.url, { jsonrpc: "2.0", id: 7, method: "tools/list" }, { "mcp-protocol-version": "2025-11-25" }),
      400,
      7,
    ],
    [
      "unknown session",
      () =>
        post(fx.server.url, { jsonrpc: "2.0", id: "s", method: "tools/list" }, { "mcp-session-id": "no-such-session" }),
      404,
      "s",
    ],
    [
      "unsupported version header",
      () => post(fx.server.url, { jsonrpc: "2.0", id: 8, method: "ping" }, { "mcp-protocol-version": "1999-01-01" }),
      400,
      8,
    ],
    [
      "stateless era: a POSTed response",
      () => post(fx.server.url, { jsonrpc: "2.0", id: 9, result: {} }, modernHeaders("ping")),
      400,
      null,
    ],
    [
      "stateless era: a notification with a bad header",
      () =>
        post(
          fx.server.url,
          { jsonrpc: "2.0", method: "notifications/x", params: { _meta: modernMeta() } },
          { "mcp-protocol-version": "2099-01-01" },
        ),
      400,
      null,
    ],
  ])("%s", async (_label, send, status, id) => {
    const response = await send();
    expect(response.status).toBe(status);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toHaveProperty("id", id);
    expect(body).toMatchObject({ jsonrpc: "2.0", error: { code: expect.any(Number), message: expect.any(String) } });
  });

  it("a refused Host is answered with id null", async () => {
    const status = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(
        fx.server.url,
        {
          method: "POST",
          headers: {
            "content-type": "application/json",
            accept: "application/json, text/event-stream",
            host: "evil.example.com",
          },
        },
        (res) => {
          let text = "";
          res.on("data", (chunk: Buffer) => (text += chunk.toString()));
          res.on("end", () => resolve(`${res.statusCode} ${text}`));
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }));
    });
    expect(status).toMatch(/^403 /);
    expect(JSON.parse(status.slice(4))).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } });
  });

  it("a call still unanswered when its session is deleted gets 404 with its id", async () => {
    const session = await openSession(fx.server.url);
    const headers = { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
    const calls = host.contexts.length;
    const pending = post(
      fx.server.url,
      { jsonrpc: "2.0", id: 42, method: "tools/call", params: { name: "slow" } },
      headers,
    );
    await waitFor(() => host.contexts.length === calls + 1);
    expect((await fetch(fx.server.url, { method: "DELETE", headers })).status).toBe(200);
    const response = await pending;
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: 42,
      error: { code: -32000, message: "Session terminated" },
    });
  });
});
