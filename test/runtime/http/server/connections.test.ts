/**
 * serve()'s connection limits (issue 9, item 2), with short timeouts over raw sockets: a socket that never sends a
 * request is closed, slow heads and bodies get 408, a connection cap holds, and none of it cuts an SSE stream that
 * is being answered; an aborted upload is reported to `onError` once.
 */
import type { Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serve, SERVE_DEFAULTS, type RunningServer } from "../../../../runtime/http/server/node.ts";
import { FixtureHost } from "../fixtures/fixture-host.ts";
import { initializeMessage, openSession, post, waitFor } from "../helpers.ts";
import { postHead, rawConnect, receive, sleep, statusOf, within } from "../raw.ts";

// Client and server share this process: a pause of the whole process longer than IDLE (it happened at 300 ms, at
// load 13) lets the server's idle timer fire before it reads a request already sent, so keep these at a second or more.
const IDLE = 1000;
const HEADERS = 1000;
const REQUEST = 2000;

describe("serve() connection timeouts", () => {
  let server: RunningServer;
  const errors: unknown[] = [];

  beforeAll(async () => {
    server = await serve(new FixtureHost(), {
      idleTimeout: IDLE,
      headersTimeout: HEADERS,
      requestTimeout: REQUEST,
      keepAliveTimeout: IDLE,
      keepAliveMs: 0, // no SSE comments: a stream must survive on its own, not because it chatters
      responseMode: "sse",
      onError: (e) => errors.push(e),
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it("closes a connection that never sends a byte", async () => {
    // Its own server, with the head deadline far beyond the idle one: Node answers a connection that sent nothing
    // with 408 once headersTimeout passes (counted from the connect), which raced the idle close at equal values.
    const quiet = await serve(new FixtureHost(), { idleTimeout: IDLE, headersTimeout: IDLE * 10, requestTimeout: 0 });
    try {
      const connection = await rawConnect(quiet.port);
      expect(await within(connection.closed, IDLE * 6)).toBe(true);
      expect(connection.text()).toBe("");
    } finally {
      await quiet.close();
    }
  });

  it("closes a kept-alive connection after its answer once it idles", async () => {
    const connection = await rawConnect(server.port);
    const body = JSON.stringify(initializeMessage(1));
    connection.socket.write(postHead(server.port, [`Content-Length: ${body.length}`]) + body);
    await receive(connection, '"serverInfo"');
    expect(statusOf(connection.text())).toBe(200);
    expect(connection.isClosed()).toBe(false);
    // Node adds up to a second of grace to keepAliveTimeout.
    expect(await within(connection.closed, IDLE * 6 + 1500)).toBe(true);
  });

  it("answers a head that never completes with 408 and closes", async () => {
    const connection = await rawConnect(server.port);
    connection.socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nX-Slow: `);
    // Keep the socket busy byte by byte, so only the head deadline (not the idle one) can end it.
    const drip = setInterval(() => connection.socket.writable && connection.socket.write("a"), IDLE / 3);
    const closed = await within(connection.closed, HEADERS * 8);
    clearInterval(drip);
    expect(closed).toBe(true);
    expect(statusOf(connection.text())).toBe(408);
  });

  it("ends a body that trickles in past requestTimeout, and reports the aborted upload to onError once", async () => {
    const before = errors.length;
    const connection = await rawConnect(server.port);
    connection.socket.write(postHead(server.port, ["Content-Length: 100000"]) + '{"jsonrpc":');
    const drip = setInterval(() => connection.socket.writable && connection.socket.write(" "), IDLE / 3);
    const closed = await within(connection.closed, REQUEST * 8);
    clearInterval(drip);
    expect(closed).toBe(true);
    await sleep(100);
    expect(errors.length - before).toBe(1);
  });

  it("leaves a POST's SSE stream and a GET stream open far beyond every timeout, and they still deliver", async () => {
    const session = await openSession(server.url);
    const headers = (extra: readonly string[]) => [
      `Mcp-Session-Id: ${session}`,
      "MCP-Protocol-Version: 2025-11-25",
      ...extra,
    ];
    // GET: the session's stream for unrelated messages.
    const get = await rawConnect(server.port);
    get.socket.write(
      [`GET /mcp HTTP/1.1`, `Host: 127.0.0.1:${server.port}`, "Accept: text/event-stream", ...headers([]), "", ""].join(
        "\r\n",
      ),
    );
    // POST: a call that runs until cancelled, answered as an SSE stream.
    const call = await rawConnect(server.port);
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "slow", arguments: {} },
    });
    call.socket.write(postHead(server.port, headers([`Content-Length: ${body.length}`])) + body);
    await receive(get, "\r\n\r\n");
    await receive(call, "\r\n\r\n");
    expect(statusOf(get.text())).toBe(200);
    expect(statusOf(call.text())).toBe(200);
    await sleep(Math.max(IDLE, HEADERS, REQUEST) * 3);
    expect(get.isClosed()).toBe(false);
    expect(call.isClosed()).toBe(false);
    // Still live: ending the session ends both streams properly (the last chunk of each arrives).
    const deleted = await fetch(server.url, { method: "DELETE", headers: { "mcp-session-id": session } });
    expect(deleted.status).toBe(200);
    expect(await receive(get, "0\r\n\r\n")).toContain("0\r\n\r\n");
    expect(await receive(call, "0\r\n\r\n")).toContain("0\r\n\r\n");
  });
});

describe("serve() connection cap", () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await serve(new FixtureHost(), { maxConnections: 3, idleTimeout: 60_000 });
  });
  afterAll(async () => {
    await server.close();
  });

  it("drops connections beyond maxConnections and serves again once one is gone", async () => {
    // The server's side of each connection it took; serve()'s own 'close' listeners (the per-address count) run first.
    const taken = new Set<Socket>();
    const track = (socket: Socket) => (taken.add(socket), socket.once("close", () => taken.delete(socket)));
    server.httpServer.on("connection", track);
    try {
      const held = await Promise.all([rawConnect(server.port), rawConnect(server.port), rawConnect(server.port)]);
      await waitFor(() => taken.size === 3);
      const extra = await rawConnect(server.port);
      expect(await within(extra.closed, 2000)).toBe(true);
      expect(held.some((c) => c.isClosed())).toBe(false);
      held[0]!.socket.destroy();
      // Gone once the server has closed its side (a fixed 50 ms could end first on a loaded machine, and the next
      // connection was then refused as a fourth).
      await waitFor(() => taken.size === 2);
      const response = await post(server.url, initializeMessage(1));
      expect(response.status).toBe(200);
      await response.text();
      for (const c of held) c.socket.destroy();
    } finally {
      server.httpServer.off("connection", track);
    }
  });
});

describe("serve() defaults", () => {
  it("sets the documented defaults on the node:http server", async () => {
    const server = await serve(new FixtureHost());
    try {
      expect(server.httpServer.timeout).toBe(SERVE_DEFAULTS.idleTimeout);
      expect(server.httpServer.keepAliveTimeout).toBe(SERVE_DEFAULTS.keepAliveTimeout);
      expect(server.httpServer.headersTimeout).toBe(SERVE_DEFAULTS.headersTimeout);
      expect(server.httpServer.requestTimeout).toBe(SERVE_DEFAULTS.requestTimeout);
      expect(server.httpServer.maxConnections).toBe(SERVE_DEFAULTS.maxConnections);
    } finally {
      await server.close();
    }
  });
});
