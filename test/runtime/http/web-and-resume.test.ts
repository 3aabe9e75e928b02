/**
 * The web-standard edge (`Request → Response`, as Bun, Deno, workers and Hono use it) and server-side resumability:
 * a client that loses a POST stream mid-call gets the rest, and only that stream's rest, with GET + Last-Event-ID.
 */
import { describe, expect, it } from "vitest";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { McpHttpHandler } from "../../../runtime/http/server/handler.ts";
import { toFetchHandler } from "../../../runtime/http/server/web.ts";
import { serve } from "../../../runtime/http/server/node.ts";
import { FixtureHost } from "./fixtures/fixture-host.ts";
import { builtinRevisions, McpClient, McpServer } from "../../../runtime/index.ts";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { StreamableHttpClientTransport } from "../../../runtime/http/client/transport.ts";
import {
  CollectingSink,
  initializeMessage,
  JSON_HEADERS,
  modernMeta,
  MODERN,
  openSession,
  request,
} from "./helpers.ts";

const BASE = "http://localhost:8080/mcp";

async function events(response: Response, until?: (e: EventSourceMessage) => boolean): Promise<EventSourceMessage[]> {
  const seen: EventSourceMessage[] = [];
  let stop = false;
  // Events after the one `until` matches count as lost with the connection, even when they came in the same chunk:
  // the caller resumes from the matched event's id, so the replay must hold them.
  const parser = createParser({
    onEvent: (e) => {
      if (stop) return;
      seen.push(e);
      stop = until?.(e) ?? false;
    },
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  while (!stop) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  if (stop) await reader.cancel();
  return seen;
}

describe("web-standard handler", () => {
  it("serves a session, an SSE answer and the stateless wire through Request/Response", async () => {
    const host = new FixtureHost();
    const handler = new McpHttpHandler(host);
    const fetchHandler = toFetchHandler(handler);
    const init = await fetchHandler(
      new Request(BASE, { method: "POST", headers: JSON_HEADERS, body: JSON.stringify(initializeMessage(1)) }),
    );
    expect(init.status).toBe(200);
    const session = init.headers.get("mcp-session-id")!;
    expect((await init.json()) as object).toMatchObject({ id: 1, result: { serverInfo: { name: "fixture" } } });

    const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "progress" } };
    const streamed = await fetchHandler(
      new Request(BASE, {
        method: "POST",
        headers: { ...JSON_HEADERS, "mcp-session-id": session },
        body: JSON.stringify(call),
      }),
    );
    expect(streamed.headers.get("content-type")).toBe("text/event-stream");
    const messages = (await events(streamed))
      .filter((e) => e.data !== "")
      .map((e) => JSON.parse(e.data) as { id?: number; method?: string });
    expect(messages.map((m) => m.method ?? `response ${m.id}`)).toEqual([
      "notifications/message",
      "notifications/message",
      "notifications/message",
      "response 2",
    ]);

    const modern = {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "echo", arguments: { text: "w" }, _meta: modernMeta() },
    };
    const headers = { ...JSON_HEADERS, "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "echo" };
    const answer = await fetchHandler(new Request(BASE, { method: "POST", headers, body: JSON.stringify(modern) }));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ id: 3, result: { content: [{ text: "w" }] } });

    const foreign = await fetchHandler(
      new Request("http://evil.example/mcp", { method: "POST", headers: JSON_HEADERS, body: "{}" }),
    );
    expect(foreign.status).toBe(403);
    await handler.close();
  });
});

describe("resumability (handshake era)", () => {
  it("replays the rest of a lost POST stream, and nothing from other streams, after Last-Event-ID", async () => {
    const server = await serve(new FixtureHost());
    try {
      const session = await openSession(server.url);
      const headers = { ...JSON_HEADERS, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
      const call = { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "progress" } };
      const first = await fetch(server.url, { method: "POST", headers, body: JSON.stringify(call) });
      // Read the priming event and the first notification, then drop the connection.
      const before = await events(first, (e) => e.data.includes('"one"'));
      expect(before[0]).toMatchObject({ data: "" });
      const lastId = before.at(-1)!.id!;
      // Another request's stream in the same session must not leak into the replay.
      await fetch(server.url, {
        method: "POST",
        headers,
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 8,
          method: "tools/call",
          params: { name: "echo", arguments: { text: "other" } },
        }),
      }).then((r) => r.text());
      await new Promise((r) => setTimeout(r, 100)); // let the tool finish while nobody listens
      const resumed = await fetch(server.url, {
        headers: { accept: "text/event-stream", "mcp-session-id": session, "last-event-id": lastId },
      });
      expect(resumed.status).toBe(200);
      const after = (await events(resumed)).map(
        (e) => JSON.parse(e.data) as { id?: number; params?: { data: string } },
      );
      expect(after.map((m) => m.params?.data ?? `response ${m.id}`)).toEqual(["two", "three", "response 7"]);
    } finally {
      await server.close();
    }
  });

  it("keeps a bounded number of events per session however much a stream sends", async () => {
    const server = await serve(new FixtureHost());
    try {
      const session = await openSession(server.url);
      const headers = { ...JSON_HEADERS, "mcp-session-id": session, "mcp-protocol-version": "2025-11-25" };
      const call = {
        jsonrpc: "2.0",
        id: 9,
        method: "tools/call",
        params: { name: "burst", arguments: { count: 400 } },
      };
      const all = await events(await fetch(server.url, { method: "POST", headers, body: JSON.stringify(call) }));
      expect(all).toHaveLength(402); // priming + 400 notifications + the response
      // The in-memory store keeps the newest 256 events: resuming from the very start replays exactly those.
      const resumed = await fetch(server.url, {
        headers: { accept: "text/event-stream", "mcp-session-id": session, "last-event-id": all[0]!.id! },
      });
      const replay = await events(resumed);
      expect(replay).toHaveLength(256);
      expect(JSON.parse(replay.at(-1)!.data)).toMatchObject({ id: 9 });
    } finally {
      await server.close();
    }
  });
});

describe("SSE polling (pollAfterMs)", () => {
  it("the server cuts a long POST stream; our client and the SDK v1 client resume and get everything once", async () => {
    const server = await serve(new FixtureHost(), { pollAfterMs: 40, retryMs: 20 });
    try {
      // Count resumptions: GETs that carry Last-Event-ID (proof the server really cut the POST streams).
      let resumes = 0;
      const counting: typeof fetch = (input, init) => {
        const headers = new Headers(init?.headers);
        if ((init?.method ?? "GET") === "GET" && headers.has("last-event-id")) resumes++;
        return fetch(input, init);
      };
      const transport = new StreamableHttpClientTransport(server.url, { openGetStream: false, fetch: counting });
      const sink = new CollectingSink();
      await transport.start(sink);
      await request(transport, sink, 1, "initialize", (initializeMessage(0) as { params: unknown }).params);
      await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
      const answer = await request(transport, sink, 2, "tools/call", { name: "drip", arguments: {} });
      expect(answer["result"]).toMatchObject({ content: [{ text: "dripped" }] });
      const drops = sink.messages
        .filter((m) => m["method"] === "notifications/message")
        .map((m) => (m["params"] as { data: string }).data);
      expect(drops).toEqual(["drop 0", "drop 1", "drop 2", "drop 3", "drop 4"]);
      expect(resumes).toBeGreaterThan(0);
      await transport.terminateSession();
      const ours = resumes;

      const sdk = new Client({ name: "v1", version: "1.0.0" });
      const logs: unknown[] = [];
      sdk.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.data));
      await sdk.connect(new StreamableHTTPClientTransport(new URL(server.url), { fetch: counting }));
      const result = await sdk.callTool({ name: "drip", arguments: {} });
      expect(result.content).toEqual([{ type: "text", text: "dripped" }]);
      expect(logs).toEqual(["drop 0", "drop 1", "drop 2", "drop 3", "drop 4"]);
      expect(resumes).toBeGreaterThan(ours);
      await sdk.close();
    } finally {
      await server.close();
    }
  });
});

describe("SSE polling asked for by the handler (ctx.closeSseStream)", () => {
  function reconnectingServer() {
    return new McpServer({ revisions: builtinRevisions, info: { name: "polling", version: "1" } }).tool(
      { name: "reconnect", inputSchema: { type: "object" } },
      async (_args, ctx) => {
        const closed = ctx.closeSseStream();
        await ctx.log.info("after the cut");
        await new Promise((resolve) => setTimeout(resolve, 50));
        return { content: [{ type: "text", text: `closed=${closed}` }] };
      },
    );
  }

  it("ends the POST's connection mid-call; the client resumes with Last-Event-ID and gets the rest", async () => {
    const server = await serve(reconnectingServer(), { retryMs: 10 });
    try {
      const resumed: string[] = [];
      const counting: typeof fetch = (input, init) => {
        const headers = new Headers(init?.headers);
        if ((init?.method ?? "GET") === "GET" && headers.has("last-event-id"))
          resumed.push(headers.get("last-event-id")!);
        return fetch(input, init);
      };
      const logs: unknown[] = [];
      const client = new McpClient({
        info: { name: "c", version: "1" },
        revisions: builtinRevisions.filter((r) => ["2025-11-25"].includes(r.version)),
        onNotification: (method, params) =>
          void (method === "notifications/message" && logs.push((params as { data: unknown }).data)),
      });
      await client.connect(new StreamableHttpClientTransport(server.url, { openGetStream: false, fetch: counting }));
      await client.request("logging/setLevel", { level: "debug" });
      expect((await client.callTool("reconnect", {})).content).toEqual([{ type: "text", text: "closed=true" }]);
      expect(resumed.length).toBeGreaterThan(0);
      expect(logs).toEqual(["after the cut"]);
      await client.close();
    } finally {
      await server.close();
    }
  });

  it("does nothing where streams are not resumable (no priming before 2025-11-25, or no HTTP)", async () => {
    const server = await serve(reconnectingServer(), { retryMs: 10 });
    try {
      const client = new McpClient({
        info: { name: "c", version: "1" },
        revisions: builtinRevisions.filter((r) => ["2025-06-18"].includes(r.version)),
      });
      await client.connect(new StreamableHttpClientTransport(server.url, { openGetStream: false }));
      expect((await client.callTool("reconnect", {})).content).toEqual([{ type: "text", text: "closed=false" }]);
      await client.close();
    } finally {
      await server.close();
    }
    const noStore = await serve(reconnectingServer(), { eventStore: false });
    try {
      const client = new McpClient({
        info: { name: "c", version: "1" },
        revisions: builtinRevisions.filter((r) => ["2025-11-25"].includes(r.version)),
      });
      await client.connect(new StreamableHttpClientTransport(noStore.url, { openGetStream: false }));
      expect((await client.callTool("reconnect", {})).content).toEqual([{ type: "text", text: "closed=false" }]);
      await client.close();
    } finally {
      await noStore.close();
    }
  });
});
