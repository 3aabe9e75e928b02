/**
 * HTTP answers malformed input the way JSON-RPC 2.0 (and our stdio transport) does (issue 9, items 6 and 8): a
 * 2025-03-26 batch answers every element (an invalid one gets -32600 in the batch, the valid ones still run), a
 * message with both `result` and `error` is -32600, `MCP-Protocol-Version` must be a handshake revision the server serves, an
 * unknown version names the supported ones, and a numeric tool name is not a header mismatch.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinRevisions, McpServer } from "../../../../runtime/index.ts";
import { serve, type RunningServer } from "../../../../runtime/http/server/node.ts";
import { MODERN, modernMeta, openSession, post } from "../helpers.ts";

type Answer = {
  jsonrpc: string;
  id: string | number | null;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
};

let running: RunningServer;
const tools: string[] = [];

beforeAll(async () => {
  const server = new McpServer({ revisions: builtinRevisions, info: { name: "parity", version: "1.0.0" } }).tool(
    { name: "echo", inputSchema: { type: "object" } },
    (args) => {
      tools.push(JSON.stringify(args));
      return { content: [{ type: "text", text: "ok" }] };
    },
  );
  running = await serve(server);
});
afterAll(async () => {
  await running.close();
});

const call = (id: number | string, text: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "echo", arguments: { text } },
});

describe("batches (2025-03-26)", () => {
  let session: string;
  const send = (body: unknown) =>
    post(running.url, body, { "mcp-session-id": session, "mcp-protocol-version": "2025-03-26" });
  beforeAll(async () => {
    session = await openSession(running.url, "2025-03-26");
  });

  it("answers each element: valid requests run, invalid ones get -32600 in the batch", async () => {
    tools.length = 0;
    const response = await send([
      call(1, "a"),
      { jsonrpc: "2.0", id: 2 }, // neither method nor result/error
      call(3, "b"),
      { jsonrpc: "1.0", id: 4, method: "ping" },
      { jsonrpc: "2.0", id: 5, result: {}, error: { code: 1, message: "both" } },
      42,
    ]);
    expect(response.status).toBe(200);
    const answers = (await response.json()) as Answer[];
    expect(answers).toHaveLength(6);
    const byId = new Map(answers.filter((a) => a.id !== null).map((a) => [a.id, a]));
    expect((byId.get(1)?.result as { content: unknown[] }).content).toHaveLength(1);
    expect((byId.get(3)?.result as { content: unknown[] }).content).toHaveLength(1);
    for (const id of [2, 4, 5]) expect(byId.get(id)?.error?.code).toBe(-32600);
    const anonymous = answers.filter((a) => a.id === null);
    expect(anonymous).toHaveLength(1);
    expect(anonymous[0]!.error?.code).toBe(-32600);
    expect(tools.sort()).toEqual(['{"text":"a"}', '{"text":"b"}']);
  });

  it("answers a batch of only invalid elements with one -32600 per element", async () => {
    const response = await send([1, "x", null]);
    expect(response.status).toBe(200);
    const answers = (await response.json()) as Answer[];
    expect(answers.map((a) => [a.id, a.error?.code])).toEqual([
      [null, -32600],
      [null, -32600],
      [null, -32600],
    ]);
  });

  it("a notification and an invalid element: the notification is taken, the invalid one answered", async () => {
    const response = await send([
      { jsonrpc: "2.0", method: "notifications/roots/list_changed" },
      { jsonrpc: "2.0", method: 7 },
    ]);
    expect(response.status).toBe(200);
    const answers = (await response.json()) as Answer[];
    expect(answers).toHaveLength(1);
    expect(answers[0]!.error?.code).toBe(-32600);
  });

  it("answers a duplicated id inside one batch with -32600 for the second, and runs the first", async () => {
    tools.length = 0;
    const response = await send([call(10, "first"), call(10, "second")]);
    const answers = (await response.json()) as Answer[];
    expect(answers).toHaveLength(2);
    expect(answers.filter((a) => a.error?.code === -32600)).toHaveLength(1);
    expect(answers.filter((a) => a.result !== undefined)).toHaveLength(1);
    expect(tools).toEqual(['{"text":"first"}']);
  });

  it("still refuses an empty batch as a whole (400, -32600)", async () => {
    const response = await send([]);
    expect(response.status).toBe(400);
    expect(((await response.json()) as Answer).error?.code).toBe(-32600);
  });
});

describe("single malformed messages", () => {
  it("a message with both result and error is -32600 with its id, on a session and in the stateless era", async () => {
    const session = await openSession(running.url);
    const both = { jsonrpc: "2.0", id: 8, result: {}, error: { code: -1, message: "x" } };
    const onSession = await post(running.url, both, {
      "mcp-session-id": session,
      "mcp-protocol-version": "2025-11-25",
    });
    expect(onSession.status).toBe(400);
    const answer = (await onSession.json()) as Answer;
    expect(answer.error?.code).toBe(-32600);
    expect(answer.id).toBe(8);
    const stateless = await post(running.url, both, { "mcp-protocol-version": MODERN });
    expect(stateless.status).toBe(400);
    expect(((await stateless.json()) as Answer).error?.code).toBe(-32600);
  });

  it("a request with a non-object params is -32600, as stdio says", async () => {
    const session = await openSession(running.url);
    const response = await post(
      running.url,
      { jsonrpc: "2.0", id: 9, method: "ping", params: "x" },
      { "mcp-session-id": session },
    );
    expect(response.status).toBe(400);
    const answer = (await response.json()) as Answer;
    expect(answer.error?.code).toBe(-32600);
    expect(answer.id).toBe(9);
  });
});

describe("MCP-Protocol-Version", () => {
  it("on a session request: a version the server does not serve or of the other era gets 400 naming both, for POST, GET and DELETE", async () => {
    // 2025-11-25 transports: 400 is a MUST for an invalid or unsupported version; sending the negotiated one is a SHOULD.
    const narrow = await serve(
      new McpServer({
        info: { name: "narrow", version: "1.0.0" },
        revisions: builtinRevisions.filter((r) => ["2025-06-18", "2025-11-25"].includes(r.version)),
      }),
    );
    try {
      const session = await openSession(narrow.url, "2025-11-25");
      for (const version of ["2025-03-26", "1999-01-01"]) {
        const wrong = { "mcp-session-id": session, "mcp-protocol-version": version };
        const response = await post(narrow.url, { jsonrpc: "2.0", id: 11, method: "ping" }, wrong);
        expect(response.status).toBe(400);
        const answer = (await response.json()) as Answer;
        expect(answer.id).toBe(11);
        expect(answer.error?.message).toContain(version);
        if (version === "2025-03-26") expect(answer.error?.message).toContain("2025-11-25");
        const get = await fetch(narrow.url, { headers: { ...wrong, accept: "text/event-stream" } });
        expect(get.status).toBe(400);
        await get.text();
        const del = await fetch(narrow.url, { method: "DELETE", headers: wrong });
        expect(del.status).toBe(400);
        await del.text();
      }
      const modern = await post(
        narrow.url,
        { jsonrpc: "2.0", id: 14, method: "ping" },
        { "mcp-session-id": session, "mcp-protocol-version": "2026-07-28" },
      );
      expect(modern.status).toBe(400);
      await modern.text();
      // The negotiated version, none at all, and another handshake revision this server serves are accepted.
      for (const headers of [{ "mcp-protocol-version": "2025-11-25" }, {}, { "mcp-protocol-version": "2025-06-18" }]) {
        const ok = await post(
          narrow.url,
          { jsonrpc: "2.0", id: 12, method: "ping" },
          { "mcp-session-id": session, ...headers },
        );
        expect(ok.status).toBe(200);
        expect(((await ok.json()) as Answer).result).toEqual({});
      }
    } finally {
      await narrow.close();
    }
  });

  it("an unknown version gets 400 + -32022 naming the supported versions, not a _meta complaint", async () => {
    const response = await post(
      running.url,
      { jsonrpc: "2.0", id: 13, method: "tools/list" },
      { "mcp-protocol-version": "1999-01-01" },
    );
    expect(response.status).toBe(400);
    const answer = (await response.json()) as Answer;
    expect(answer.id).toBe(13);
    expect(answer.error?.code).toBe(-32022);
    expect(answer.error?.message).toMatch(/^Unsupported protocol version: 1999-01-01 \(supported: .*2025-11-25/);
    const data = answer.error?.data as { supported: string[]; requested: string };
    expect(data.requested).toBe("1999-01-01");
    expect(data.supported).toContain(MODERN);
    expect(data.supported).toContain("2025-11-25");
  });
});

describe("Mcp-Name (2026-07-28)", () => {
  const headers = (name: string) => ({ "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": name });

  it("a numeric tool name mirrored as its text is not a header mismatch: the body is judged instead (-32602)", async () => {
    const body = {
      jsonrpc: "2.0",
      id: 14,
      method: "tools/call",
      params: { name: 5, arguments: {}, _meta: modernMeta() },
    };
    const response = await post(running.url, body, headers("5"));
    const answer = (await response.json()) as Answer;
    expect(answer.error?.code).not.toBe(-32020);
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).not.toMatch(/'5' does not match body value '5'/);
  });

  it("a different name is still a mismatch, quoted as JSON when it is not a string", async () => {
    const body = {
      jsonrpc: "2.0",
      id: 15,
      method: "tools/call",
      params: { name: 5, arguments: {}, _meta: modernMeta() },
    };
    const response = await post(running.url, body, headers("6"));
    expect(response.status).toBe(400);
    const answer = (await response.json()) as Answer;
    expect(answer.error?.code).toBe(-32020);
    const objectName = { ...body, id: 16, params: { ...body.params, name: { a: 1 } } };
    const odd = await post(running.url, objectName, headers("[object Object]"));
    const oddAnswer = (await odd.json()) as Answer;
    expect(oddAnswer.error?.code).toBe(-32020);
    expect(oddAnswer.error?.message).toContain(`body value '{"a":1}'`);
  });

  it("an integer Mcp-Param compares numerically, but only decimal text is a number", async () => {
    // The fixture-free runtime server has no x-mcp-header tools, so this is checked on the header module directly.
    const { checkRequestHeaders } = await import("../../../../runtime/http/mcp-headers.ts");
    const param = [{ name: "Count", path: ["count"], type: "integer" as const }];
    const check = (value: string) =>
      checkRequestHeaders(
        { header: (n) => ({ "mcp-method": "tools/call", "mcp-name": "t", "mcp-param-count": value })[n] },
        "tools/call",
        { name: "t", arguments: { count: 42 } },
        param,
      );
    expect(check("42")).toBeUndefined();
    expect(check("42.0")).toBeUndefined();
    for (const odd of ["0x2a", " 42", "4.2e1x", "", "+42"]) expect(check(odd)).toMatch(/Mcp-Param-Count/);
  });
});

describe("our client never echoes unsafe server text into a header", () => {
  it("keeps no SSE id that is not header text, so it cannot become a Last-Event-ID", async () => {
    const { readSse } = await import("../../../../runtime/http/client/sse.ts");
    const { fetchRequester } = await import("../../../../runtime/http/client/requester.ts");
    const answer = (text: string) =>
      fetchRequester(async () => new Response(text))(new URL("http://127.0.0.1:1/"), { method: "GET", headers: {} });
    const cursor = { lastEventId: undefined as string | undefined, retryMs: undefined as number | undefined };
    const events = "id: ok-1\ndata: {}\n\nid: bad – id\ndata: {}\n\n";
    const seen: string[] = [];
    await readSse(await answer(events), cursor, { onMessage: (data) => seen.push(data) });
    expect(seen).toHaveLength(2);
    expect(cursor.lastEventId).toBeUndefined();
    const again = { lastEventId: undefined as string | undefined, retryMs: undefined as number | undefined };
    await readSse(await answer("id: ok-2\ndata: {}\n\n"), again, { onMessage: () => undefined });
    expect(again.lastEventId).toBe("ok-2");
  });
});

describe("legacy HTTP+SSE client", () => {
  it("refuses an endpoint on another origin and never POSTs (or sends the token) there", async () => {
    const { LegacySseClient } = await import("../../../../runtime/http/client/legacy.ts");
    const { fetchRequester } = await import("../../../../runtime/http/client/requester.ts");
    const posted: string[] = [];
    const fakeFetch = (async (input: string | URL | Request, init?: RequestInit) => {
      const url = String(input instanceof Request ? input.url : input);
      if (init?.method === "POST") {
        posted.push(url);
        return new Response("Accepted", { status: 202 });
      }
      return new Response("event: endpoint\ndata: http://evil.example/messages?sessionId=1\n\n", {
        headers: { "content-type": "text/event-stream" },
      });
    }) as typeof fetch;
    const client = new LegacySseClient(
      new URL("http://127.0.0.1:1/sse"),
      fetchRequester(fakeFetch),
      async () => ({ authorization: "Bearer secret" }),
      new AbortController().signal,
    );
    await expect(
      client.connect(
        () => undefined,
        () => undefined,
        () => undefined,
      ),
    ).rejects.toThrow(/endpoint origin http:\/\/evil\.example differs/);
    await expect(client.send({ jsonrpc: "2.0", method: "x" })).rejects.toThrow(/not connected/);
    expect(posted).toEqual([]);
  });
});
