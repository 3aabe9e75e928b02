/**
 * Session lifecycle under abuse (issue 9, item 3), with the runtime's real server over real sockets: a failed
 * `initialize` gets no `Mcp-Session-Id` and leaves nothing behind, one client (address or token principal) cannot
 * hold more than its share of sessions, and sessions that never complete the handshake are evicted early.
 */
import { afterEach, describe, expect, it } from "vitest";
import { builtinRevisions, McpServer } from "../../../../runtime/index.ts";
import { serve, type RunningServer } from "../../../../runtime/http/server/node.ts";
import { initializeMessage, openSession, post, waitFor } from "../helpers.ts";

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const server = () => new McpServer({ revisions: builtinRevisions, info: { name: "limits", version: "1.0.0" } });
const badInitialize = (id: number) => ({ jsonrpc: "2.0", id, method: "initialize", params: { capabilities: "nope" } });

describe("a failed initialize", () => {
  it("is answered without Mcp-Session-Id and creates no session", async () => {
    running = await serve(server(), { maxSessions: 2 });
    for (let i = 0; i < 5; i++) {
      const response = await post(running.url, badInitialize(i));
      const body = (await response.json()) as { id: number; error?: { code: number } };
      expect(body.id).toBe(i);
      expect(body.error?.code).toBe(-32602);
      expect(response.headers.get("mcp-session-id")).toBeNull();
    }
    expect(running.handler.sessionCount).toBe(0);
    // The cap is untouched: both sessions it allows can still be opened.
    await openSession(running.url);
    await openSession(running.url);
    expect(running.handler.sessionCount).toBe(2);
  });

  it("whose server cannot be started (connect throws) leaves no session counted", async () => {
    const errors: unknown[] = [];
    const broken = { revisions: builtinRevisions, connect: () => Promise.reject(new Error("no server today")) };
    running = await serve(broken, { maxSessionsPerClient: 1, onError: (e) => errors.push(e) });
    for (let i = 0; i < 3; i++) {
      const response = await post(running.url, initializeMessage(i));
      expect(response.status).toBe(500);
      expect(response.headers.get("mcp-session-id")).toBeNull();
      await response.text();
    }
    // Each attempt failed on its own: none of them used up the one slot this address has.
    expect(running.handler.sessionCount).toBe(0);
    expect(errors).toHaveLength(3);
  });

  it("at an unknown protocol version still negotiates (the server picks its own), so it gets a session", async () => {
    running = await serve(server());
    const response = await post(running.url, initializeMessage(1, "1999-01-01"));
    const body = (await response.json()) as { result?: { protocolVersion: string } };
    expect(body.result?.protocolVersion).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(response.headers.get("mcp-session-id")).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });
});

describe("sessions per client", () => {
  it("caps the sessions of one address (429) and frees a slot when one is deleted", async () => {
    running = await serve(server(), { maxSessionsPerClient: 3 });
    const ids = [await openSession(running.url), await openSession(running.url), await openSession(running.url)];
    const refused = await post(running.url, initializeMessage(9));
    expect(refused.status).toBe(429);
    expect(refused.headers.get("mcp-session-id")).toBeNull();
    const body = (await refused.json()) as { id: number; error: { code: number; message: string } };
    expect(body.id).toBe(9);
    expect(body.error.message).toMatch(/Too Many Requests/);
    const deleted = await fetch(running.url, { method: "DELETE", headers: { "mcp-session-id": ids[0]! } });
    expect(deleted.status).toBe(200);
    await openSession(running.url);
    expect(running.handler.sessionCount).toBe(3);
  });

  it("counts legacy SSE streams against the same cap", async () => {
    running = await serve(server(), { maxSessionsPerClient: 1 });
    await openSession(running.url);
    const sse = await fetch(running.url.replace(/\/mcp$/, "/sse"), { headers: { accept: "text/event-stream" } });
    expect(sse.status).toBe(429);
    await sse.text();
  });

  it("counts by token principal when authenticated, so one user cannot use up another's share", async () => {
    const probe = await serve(server());
    const port = probe.port;
    await probe.close();
    const resource = `http://127.0.0.1:${port}/mcp`;
    running = await serve(server(), {
      port,
      maxSessionsPerClient: 2,
      auth: {
        resourceMetadata: { resource, authorization_servers: ["https://issuer.test"] },
        verifyToken: (token) => ({ token, clientId: "app", scopes: [], claims: { sub: token } }),
      },
    });
    const as = (user: string) => ({ authorization: `Bearer ${user}` });
    const open = async (user: string) => {
      const response = await post(resource, initializeMessage(1), as(user));
      await response.text();
      return response.status;
    };
    expect([await open("alice"), await open("alice"), await open("alice")]).toEqual([200, 200, 429]);
    // Same address, another principal: a share of its own.
    expect([await open("bob"), await open("bob")]).toEqual([200, 200]);
  });
});

describe("sessions that never send notifications/initialized", () => {
  it("are evicted after uninitializedSessionTimeoutMs, while initialized ones stay", async () => {
    // 1 s: the initialized session's two handshake POSTs, and the count of both sessions below, must come within it on a
    // loaded machine (at 200 ms either could find its session already evicted).
    running = await serve(server(), { uninitializedSessionTimeoutMs: 1000 });
    const ready = await openSession(running.url);
    const half = await post(running.url, initializeMessage(1));
    const halfId = half.headers.get("mcp-session-id")!;
    await half.text();
    expect(halfId).toBeTruthy();
    expect(running.handler.sessionCount).toBe(2);
    await waitFor(() => running!.handler.sessionCount === 1, 5000);
    const headers = { "mcp-protocol-version": "2025-11-25" };
    const gone = await post(
      running.url,
      { jsonrpc: "2.0", id: 2, method: "ping" },
      { ...headers, "mcp-session-id": halfId },
    );
    expect(gone.status).toBe(404);
    await gone.text();
    const alive = await post(
      running.url,
      { jsonrpc: "2.0", id: 3, method: "ping" },
      { ...headers, "mcp-session-id": ready },
    );
    expect(alive.status).toBe(200);
    expect(((await alive.json()) as { result: unknown }).result).toEqual({});
  });
});
