/**
 * The HTTP abuse set against examples/everything served by `serve()` in its own process (short timeouts and a small
 * connection cap passed as serve options, so the limits show within seconds): bad Host/Origin, wrong headers,
 * unknown and missing sessions, a failed initialize, oversized bodies (413, connection closed), slow bodies, idle
 * sockets, clients vanishing mid-stream. After each, the next correct request is served and the process is up.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Socket } from "node:net";
import { HEAP_SLACK_BYTES, startServer, type ServerProcess } from "./harness/process.ts";
import { LegacyStream, postFrame, POST_HEADERS } from "./harness/peers.ts";
import { head, openSocket, rawRequest, readResponse } from "./harness/raw-http.ts";
import { failedInitialize, hostAndOrigin, openSession, wrongHeaders } from "./properties/abuse.ts";

const LIMITS = {
  maxBodyBytes: 64 * 1024,
  idleTimeout: 1_000,
  headersTimeout: 1_500,
  requestTimeout: 2_000,
  keepAliveTimeout: 1_000,
  maxConnections: 64,
  maxSessionsPerClient: 30,
  uninitializedSessionTimeoutMs: 1_000,
};
let server: ServerProcess;
let port: number;
let heapAtStart: number;

beforeAll(async () => {
  server = await startServer({ mode: "http", httpOptions: LIMITS });
  port = Number(new URL(server.url).port);
  await openSession(server.url); // warm up before the heap baseline
  heapAtStart = await server.heapAfterGc();
});
afterAll(async () => {
  await server?.stop();
});

/** A correct request on a new session succeeds: the server is up and serving. */
async function stillServing(): Promise<void> {
  expect(server.alive(), server.stderr().slice(-2000)).toBe(true);
  const session = await openSession(server.url);
  const res = await postFrame(server.url, JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }), {
    "mcp-session-id": session,
    "mcp-protocol-version": "2025-11-25",
  });
  expect(res.status).toBe(200);
  await fetch(server.url, {
    method: "DELETE",
    headers: { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" },
  });
}

const closedWithin = (socket: Socket, ms: number): Promise<boolean> =>
  new Promise((resolve) => {
    if (socket.destroyed) return resolve(true);
    const timer = setTimeout(() => resolve(false), ms);
    socket.once("close", () => (clearTimeout(timer), resolve(true)));
  });

describe("HTTP abuse", () => {
  it("foreign Host or Origin → 403 (DNS-rebinding protection)", async () => {
    await hostAndOrigin(server, { numRuns: 120, seed: 77 });
    await stillServing();
  });

  it("one wrong header (Accept, Content-Type, MCP-Protocol-Version, unknown or missing session) → its status", async () => {
    await wrongHeaders(server, { numRuns: 120, seed: 78 });
    await stillServing();
  });

  it("a failed initialize answers an error and creates no session", async () => {
    await failedInitialize(server, { numRuns: 60, seed: 79 });
    await stillServing();
  });

  it("a deleted session is gone (404), and so is one never issued", async () => {
    const session = await openSession(server.url);
    const headers = { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
    expect((await fetch(server.url, { method: "DELETE", headers })).status).toBe(200);
    const after = await postFrame(server.url, JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" }), headers);
    expect(after.status).toBe(404);
    expect((after.answers[0]?.value as { error?: { code?: number } }).error?.code).toBeTypeOf("number");
  });

  it("an oversized body gets 413 and the connection is closed, without reading the rest", async () => {
    for (const framing of ["content-length", "chunked"] as const) {
      const socket = await openSocket(port);
      const headers: Record<string, string> = {
        ...POST_HEADERS,
        ...(framing === "chunked"
          ? { "transfer-encoding": "chunked" }
          : { "content-length": String(256 * 1024 * 1024) }),
      };
      const answered = readResponse(socket, 10_000, 5_000);
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const send = () =>
        socket.write(
          framing === "chunked"
            ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")])
            : chunk,
        );
      // Just past the 64 KiB limit (the declared length alone is over it), then nothing until the 413 is here: bytes
      // arriving after the server's close would make it reset the connection, which can discard the answer unread.
      const seen = new Promise<boolean>((resolve) => {
        let text = "";
        const timer = setTimeout(() => resolve(false), 30_000);
        socket.on("data", (c: Buffer) => {
          text += c.toString("latin1");
          if (/^HTTP\/1\.1 \d{3}/.test(text)) {
            clearTimeout(timer);
            resolve(true);
          }
        });
      });
      socket.write(head("POST", "/mcp", port, headers));
      let sent = 0;
      if (framing === "chunked") {
        socket.write(
          Buffer.concat([
            Buffer.from(`${(65 * 1024).toString(16)}\r\n`),
            Buffer.alloc(65 * 1024, 0x20),
            Buffer.from("\r\n"),
          ]),
        );
        sent += 65 * 1024;
      }
      expect(await seen, `${framing}: no answer to an oversized body`).toBe(true);
      // Now keep sending (up to 256 MiB) until the server closes the connection; a server that kept reading would take it all.
      while (!socket.destroyed && !socket.writableEnded && sent < 256 * 1024 * 1024) {
        const ok = send();
        sent += chunk.length;
        if (!ok) await Promise.race([new Promise((r) => socket.once("drain", r)), closedWithin(socket, 3_000)]);
      }
      const response = await answered;
      expect(response.status, framing).toBe(413);
      expect(response.closedByServer, `${framing}: connection left open after 413`).toBe(true);
      expect(sent, `${framing}: the server read ${sent} bytes before closing`).toBeLessThan(64 * 1024 * 1024);
      socket.destroy();
    }
    await stillServing();
  });

  it("a body that trickles in is cut off by the request timeout", async () => {
    const socket = await openSocket(port);
    const started = Date.now();
    socket.write(head("POST", "/mcp", port, { ...POST_HEADERS, "content-length": "10000" }));
    const timer = setInterval(() => socket.destroyed || socket.write(" "), 100);
    try {
      expect(await closedWithin(socket, LIMITS.requestTimeout + 4_000), "slow body still open").toBe(true);
      expect(Date.now() - started).toBeGreaterThanOrEqual(LIMITS.headersTimeout - 500);
    } finally {
      clearInterval(timer);
      socket.destroy();
    }
    await stillServing();
  });

  it("idle sockets (nothing sent, or half a request head) are closed, and new clients get in", async () => {
    const idle = await Promise.all(Array.from({ length: 100 }, () => openSocket(port).catch(() => undefined)));
    const half = await openSocket(port);
    half.write("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    const sockets = [...idle.filter((s): s is Socket => s !== undefined), half];
    const closed = await Promise.all(
      sockets.map((s) => closedWithin(s, LIMITS.idleTimeout + LIMITS.headersTimeout + 4_000)),
    );
    expect(closed.filter((c) => !c).length, "idle sockets left open").toBe(0);
    await stillServing();
  });

  it("clients vanishing mid-stream (SSE GET, SSE answer, legacy stream) leave the server serving", async () => {
    for (let round = 0; round < 10; round++) {
      const session = await openSession(server.url);
      const headers = { "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
      // A standalone SSE stream, dropped once open.
      const get = await openSocket(port);
      get.write(head("GET", "/mcp", port, { accept: "text/event-stream", ...headers }));
      await new Promise((r) => get.once("data", r));
      get.destroy();
      // A tool call answered over SSE (it sends progress first), dropped after the first bytes.
      const body = JSON.stringify({
        jsonrpc: "2.0",
        id: 5,
        method: "tools/call",
        params: { name: "test_tool_with_progress", arguments: {}, _meta: { progressToken: 1 } },
      });
      const post = await openSocket(port);
      post.write(
        Buffer.concat([
          head("POST", "/mcp", port, {
            ...POST_HEADERS,
            ...headers,
            "content-length": String(Buffer.byteLength(body)),
          }),
          Buffer.from(body),
        ]),
      );
      await new Promise((r) => post.once("data", r));
      post.destroy();
      // A legacy HTTP+SSE session, dropped.
      (await LegacyStream.open(new URL("/sse", server.url).toString())).close();
      const ping = await postFrame(server.url, JSON.stringify({ jsonrpc: "2.0", id: 6, method: "ping" }), headers);
      expect(ping.status).toBe(200);
      await fetch(server.url, { method: "DELETE", headers });
    }
    await stillServing();
  });

  it("one client flooding initialize fills only its own quota; uninitialized sessions are evicted soon", async () => {
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "flood", version: "1" } },
    });
    const initialize = (from?: string) =>
      rawRequest(
        port,
        Buffer.concat([
          head("POST", "/mcp", port, {
            ...POST_HEADERS,
            "content-length": String(Buffer.byteLength(body)),
            connection: "close",
          }),
          Buffer.from(body),
        ]),
        10_000,
        from,
      );
    const sessionOf = (r: { head: string }) => /\r\nmcp-session-id: /i.test(r.head);
    const flood = [];
    for (let i = 0; i < LIMITS.maxSessionsPerClient + 10; i++) flood.push(await initialize());
    const granted = flood.filter((r) => r.status === 200 && sessionOf(r)).length;
    const refused = flood.filter((r) => r.status !== 200 && !sessionOf(r)).length;
    expect(granted).toBeLessThanOrEqual(LIMITS.maxSessionsPerClient);
    expect(refused).toBeGreaterThanOrEqual(10);
    expect(granted + refused).toBe(flood.length);
    // Another client (another source address) is not locked out.
    const other = await initialize("127.0.0.2");
    expect(other.status).toBe(200);
    expect(sessionOf(other)).toBe(true);
    // The flood never sent notifications/initialized: its sessions go after uninitializedSessionTimeoutMs.
    const deadline = Date.now() + LIMITS.uninitializedSessionTimeoutMs + 5_000;
    let again = await initialize();
    while (again.status !== 200 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      again = await initialize();
    }
    expect(again.status, "the flooding client's uninitialized sessions were not evicted").toBe(200);
    await stillServing();
  });

  it("the heap after GC is where it started", async () => {
    await new Promise((r) => setTimeout(r, 500));
    const heap = await server.heapAfterGc();
    expect(heap - heapAtStart, `heap ${heapAtStart} → ${heap}`).toBeLessThan(HEAP_SLACK_BYTES);
  });
});

it("a raw request helper sanity check: a correct initialize over a bare socket gets 200", async () => {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
  });
  const response = await rawRequest(
    port,
    Buffer.concat([
      head("POST", "/mcp", port, {
        ...POST_HEADERS,
        "content-length": String(Buffer.byteLength(body)),
        connection: "close",
      }),
      Buffer.from(body),
    ]),
  );
  expect(response.status).toBe(200);
});
