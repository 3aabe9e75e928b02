/**
 * McpHttpHandler.handle turns every failure of the request path into a 500 JSON-RPC internal error and reports it
 * to `onError` once: a failure while the answer is pending (the server session cannot start) and one thrown before
 * anything is awaited (a request whose header accessor throws).
 */
import { describe, expect, it } from "vitest";
import { McpHttpHandler } from "../../../../runtime/http/server/handler.ts";
import type { HttpRequestIn } from "../../../../runtime/http/server/types.ts";
import { FixtureHost } from "../fixtures/fixture-host.ts";

const INIT = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
});

function request(body: string, header: (name: string) => string | undefined): HttpRequestIn {
  return {
    method: "POST",
    path: "/mcp",
    search: "",
    remoteAddress: "127.0.0.1",
    header,
    readBody: () => Promise.resolve(body),
    onGone: () => {},
  };
}

const HEADERS: Record<string, string> = {
  host: "127.0.0.1:3000",
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

class FailingHost extends FixtureHost {
  override async connect(): Promise<void> {
    throw new Error("cannot start a session");
  }
}

describe("McpHttpHandler.handle", () => {
  it("answers 500 -32603 and reports once when the answer fails while pending", async () => {
    const reported: unknown[] = [];
    const handler = new McpHttpHandler(new FailingHost(), { onError: (e) => reported.push(e) });
    const out = await handler.handle(request(INIT, (name) => HEADERS[name]));
    expect(out.status).toBe(500);
    expect(JSON.parse(out.body as string)).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32603, message: "Internal error" },
    });
    expect(reported).toHaveLength(1);
    expect((reported[0] as Error).message).toBe("cannot start a session");
    await handler.close();
  });

  it("answers 500 -32603 and reports once when the request path throws before awaiting anything", async () => {
    const reported: unknown[] = [];
    const handler = new McpHttpHandler(new FixtureHost(), { onError: (e) => reported.push(e) });
    const failure = new Error("header accessor failed");
    const answer = handler.handle(
      request(INIT, () => {
        throw failure;
      }),
    );
    expect(answer).toBeInstanceOf(Promise);
    const out = await answer;
    expect(out.status).toBe(500);
    expect(JSON.parse(out.body as string)).toMatchObject({ error: { code: -32603 } });
    expect(reported).toEqual([failure]);
    await handler.close();
  });

  it("still serves normally after a failure", async () => {
    const handler = new McpHttpHandler(new FixtureHost());
    const out = await handler.handle(request(INIT, (name) => HEADERS[name]));
    expect(out.status).toBe(200);
    expect(out.headers["mcp-session-id"]).toMatch(/^[\x21-\x7e]+$/);
    await handler.close();
  });
});
