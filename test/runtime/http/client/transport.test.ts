/**
 * Our Streamable HTTP client transport over real loopback HTTP, against our server (both eras, the HTTP+SSE fallback)
 * and a raw server (resumption), over each request path (node:http and fetch). Peers and broken answers:
 * transport-answers.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { headerParamsFromTools } from "../../../../runtime/http/server/stateless-checks.ts";
import { serve, type RunningServer } from "../../../../runtime/http/server/node.ts";
import { FixtureHost, FIXTURE_TOOLS } from "../fixtures/fixture-host.ts";
import { CollectingSink, modernMeta, request, waitFor } from "../helpers.ts";
import { connectedOver, REQUEST_PATHS, transportOver } from "./paths.ts";

let server: RunningServer;
const host = new FixtureHost();

beforeAll(async () => {
  server = await serve(host, { headerParams: headerParamsFromTools(FIXTURE_TOOLS) });
});
afterAll(async () => {
  await server.close();
});

describe.each(REQUEST_PATHS)("requests over %s", (path) => {
  const open = transportOver(path);

  const connected = (url: string) => connectedOver(open, url);

  describe("handshake era against our server", () => {
    it("keeps the session id and version, gets related notifications and answers server requests", async () => {
      const { transport, sink } = await connected(server.url);
      expect(transport.sessionId).toBeDefined();
      expect(transport.protocolVersion).toBe("2025-11-25");
      const logged = await request(transport, sink, 2, "tools/call", { name: "progress", arguments: {} });
      expect(logged["result"]).toMatchObject({ content: [{ text: "logged" }] });
      const logs = sink.messages
        .filter((m) => m["method"] === "notifications/message")
        .map((m) => (m["params"] as { data: string }).data);
      expect(logs).toEqual(["one", "two", "three"]);

      await transport.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "sample", arguments: {} } });
      const ask = await sink.next((m) => m["method"] === "sampling/createMessage");
      await transport.send({
        jsonrpc: "2.0",
        id: ask["id"],
        result: { role: "assistant", content: { type: "text", text: "yes" }, model: "m" },
      });
      expect((await sink.response(3))["result"]).toMatchObject({ content: [{ text: "model said: yes" }] });
      await transport.terminateSession();
    });

    it("starts a new session transparently when the server answers 404", async () => {
      const { transport, sink } = await connected(server.url);
      const first = transport.sessionId!;
      const deleted = await fetch(server.url, { method: "DELETE", headers: { "mcp-session-id": first } });
      expect(deleted.status).toBe(200);
      const sessionsBefore = server.handler.sessionCount;
      // Three calls hit the ended session at once: one new session serves them all.
      const answers = await Promise.all(
        [5, 6, 7].map((id) =>
          request(transport, sink, id, "tools/call", { name: "echo", arguments: { text: `again ${id}` } }),
        ),
      );
      expect(answers.map((a) => (a["result"] as { content: Array<{ text: string }> }).content[0]!.text)).toEqual([
        "again 5",
        "again 6",
        "again 7",
      ]);
      expect(transport.sessionId).toBeDefined();
      expect(transport.sessionId).not.toBe(first);
      expect(server.handler.sessionCount).toBe(sessionsBefore + 1);
      await transport.terminateSession();
    });
  });

  describe("stateless era against our server", () => {
    it("mirrors headers, drops tools with invalid x-mcp-header, and cancels by closing the stream", async () => {
      const transport = open(server.url);
      const sink = new CollectingSink();
      await transport.start(sink);
      const list = await request(transport, sink, 1, "tools/list", { _meta: modernMeta() });
      const names = (list["result"] as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
      expect(names).toContain("regional");
      expect(names).not.toContain("broken");
      // The server checks Mcp-Param-Region against the body, so this only succeeds when the client mirrored it.
      const regional = await request(transport, sink, 2, "tools/call", {
        name: "regional",
        arguments: { region: "Zürich " },
        _meta: modernMeta(),
      });
      expect(regional["result"]).toMatchObject({ content: [{ text: "Zürich " }] });

      const cancelledBefore = host.cancelled.length;
      const callsBefore = host.contexts.length;
      // send() resolves once the answer starts; "slow" answers nothing until cancelled, so do not await it yet.
      const sent = transport.send({
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "slow", arguments: {}, _meta: modernMeta() },
      });
      // The cancellation must find the call running: wait until the server has it (a fixed pause was too short on a
      // loaded machine, and a cancellation for a request the server has not seen yet is ignored).
      await waitFor(() => host.contexts.length === callsBefore + 1);
      await transport.send({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: 3, _meta: modernMeta() },
      });
      await waitFor(() => host.cancelled.length === cancelledBefore + 1);
      await sent;
      await transport.close();
    });

    it("hands a JSON-RPC error answered with HTTP 400/404 to the session", async () => {
      const transport = open(server.url);
      const sink = new CollectingSink();
      await transport.start(sink);
      const unknown = await request(transport, sink, 1, "no/such", { _meta: modernMeta() });
      expect(unknown["error"]).toMatchObject({ code: -32601 });
      await transport.close();
    });
  });

  describe("legacy HTTP+SSE fallback", () => {
    it("falls back when the first POST is refused with 405, and then works over the old transport", async () => {
      const old = await serve(new FixtureHost(), {
        path: "/streamable",
        legacySse: { ssePath: "/mcp", messagesPath: "/messages" },
      });
      try {
        const { transport, sink } = await connected(old.url);
        const echo = await request(transport, sink, 2, "tools/call", { name: "echo", arguments: { text: "legacy" } });
        expect(echo["result"]).toMatchObject({ content: [{ text: "legacy" }] });
        await transport.close();
      } finally {
        await old.close();
      }
    });
  });

  describe("resumption", () => {
    it("waits for the server's retry, then resumes the POST stream with GET and Last-Event-ID", async () => {
      let getAt = 0;
      let closedAt = 0;
      let lastEventId: string | undefined;
      const raw: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
        if (req.method === "POST") {
          res.writeHead(200, { "content-type": "text/event-stream" });
          res.write("id: ev-1\nretry: 300\ndata: \n\n");
          setTimeout(() => {
            closedAt = Date.now();
            res.end();
          }, 20);
          return;
        }
        getAt = Date.now();
        lastEventId = req.headers["last-event-id"] as string | undefined;
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(
          `id: ev-2\nevent: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: 1, result: { ok: true } })}\n\n`,
        );
      });
      await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
      const transport = open(`http://127.0.0.1:${(raw.address() as AddressInfo).port}/mcp`, {
        openGetStream: false,
      });
      const sink = new CollectingSink();
      await transport.start(sink);
      const answer = await request(transport, sink, 1, "tools/call", { name: "x" });
      expect(answer["result"]).toEqual({ ok: true });
      expect(lastEventId).toBe("ev-1");
      expect(getAt - closedAt).toBeGreaterThanOrEqual(280);
      await transport.close();
      raw.close();
    });
  });
});
