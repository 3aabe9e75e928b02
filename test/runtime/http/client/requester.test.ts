/**
 * How the client transport sends its requests: which path it takes (node:http on Node unless told otherwise or given
 * a fetch), and what the node:http path does with connections (keep-alive reuse, its cap, closing them).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { getEventListeners } from "node:events";
import { nodeRequester } from "../../../../runtime/http/client/node-requester.ts";
import { RequestAbort } from "../../../../runtime/http/client/requester.ts";
import { HttpError, StreamableHttpClientTransport } from "../../../../runtime/http/client/transport.ts";
import { CollectingSink, request, waitFor } from "../helpers.ts";
import { REQUEST_PATHS } from "./paths.ts";

/** A raw JSON-RPC server: answers every request with `{ ok: <id> }` after `delayMs`; "deny" gets a 401 challenge. */
let raw: Server;
let url: string;
const sockets = new Set<Socket>();
const closedSockets = new Set<Socket>();
let delayMs = 0;

beforeAll(async () => {
  raw = createServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += String(chunk);
    const m = JSON.parse(text) as { id?: number; method?: string };
    if (m.method === "deny")
      return void res
        .writeHead(401, { "www-authenticate": 'Bearer resource_metadata="https://rs.example/prm", scope="a b"' })
        .end("no");
    if (m.method === "split") {
      // The answer in two writes, a pause between, cut inside the two bytes of "é": two chunks at the client.
      const bytes = Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { text: "café crème" } }));
      const cut = bytes.indexOf(0xc3) + 1;
      res.writeHead(200, { "content-type": "application/json", "content-length": bytes.length });
      res.write(bytes.subarray(0, cut));
      await new Promise((r) => setTimeout(r, 50));
      return void res.end(bytes.subarray(cut));
    }
    await new Promise((r) => setTimeout(r, delayMs));
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: { ok: m.id } }));
  });
  raw.on("connection", (socket: Socket) => {
    sockets.add(socket);
    // Counted only while the test that opened it runs (an earlier test's connections close late).
    socket.once("close", () => sockets.has(socket) && closedSockets.add(socket));
  });
  await new Promise<void>((resolve) => raw.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}/mcp`;
});
afterAll(() => {
  raw.closeAllConnections();
  raw.close();
});
afterEach(() => {
  vi.restoreAllMocks();
  delayMs = 0;
  sockets.clear();
  closedSockets.clear();
});

async function started(transport: StreamableHttpClientTransport): Promise<CollectingSink> {
  const sink = new CollectingSink();
  await transport.start(sink);
  return sink;
}

describe("which path a transport takes", () => {
  it("uses node:http on Node by default: the global fetch is never called", async () => {
    const spy = vi.spyOn(globalThis, "fetch");
    const transport = new StreamableHttpClientTransport(url, { openGetStream: false });
    const answer = await request(transport, await started(transport), 1, "ping", {});
    expect(answer["result"]).toEqual({ ok: 1 });
    expect(spy).not.toHaveBeenCalled();
    await transport.close();
  });

  it('uses the global fetch with http: "fetch"', async () => {
    const spy = vi.spyOn(globalThis, "fetch");
    const transport = new StreamableHttpClientTransport(url, { openGetStream: false, http: "fetch" });
    const answer = await request(transport, await started(transport), 1, "ping", {});
    expect(answer["result"]).toEqual({ ok: 1 });
    expect(spy).toHaveBeenCalledTimes(1);
    await transport.close();
  });

  it("uses a given fetch on every platform, whatever http says", async () => {
    const given = vi.fn((input: string | URL | Request, init?: RequestInit) => fetch(input, init));
    const transport = new StreamableHttpClientTransport(url, { openGetStream: false, http: "node", fetch: given });
    await request(transport, await started(transport), 1, "ping", {});
    expect(given).toHaveBeenCalledTimes(1);
    await transport.close();
  });
});

describe("the node:http path's connections", () => {
  it("reuses one keep-alive connection for sequential requests", async () => {
    const transport = new StreamableHttpClientTransport(url, { openGetStream: false, http: "node" });
    const sink = await started(transport);
    for (let id = 1; id <= 20; id++) await request(transport, sink, id, "ping", {});
    expect(sockets.size).toBe(1);
    await transport.close();
  });

  it("opens at most maxConnections connections, and the requests beyond them wait", async () => {
    delayMs = 20;
    const transport = new StreamableHttpClientTransport(url, { openGetStream: false, http: "node", maxConnections: 2 });
    const sink = await started(transport);
    const answers = await Promise.all([1, 2, 3, 4, 5, 6, 7, 8].map((id) => request(transport, sink, id, "ping", {})));
    expect(answers.map((a) => a["result"])).toEqual([1, 2, 3, 4, 5, 6, 7, 8].map((ok) => ({ ok })));
    expect(sockets.size).toBe(2);
    await transport.close();
  });

  it("closes its idle connections when the transport closes", async () => {
    const transport = new StreamableHttpClientTransport(url, { openGetStream: false, http: "node" });
    await request(transport, await started(transport), 1, "ping", {});
    expect(sockets.size).toBe(1);
    expect(closedSockets.size).toBe(0);
    await transport.close();
    await waitFor(() => closedSockets.size === 1);
  });
});

describe.each(REQUEST_PATHS)("requests in flight over %s", (path) => {
  it("each has its own abort signal: 40 at once pile no listeners on a shared one, and close() aborts them all", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      delayMs = 300;
      const transport = new StreamableHttpClientTransport(url, { openGetStream: false, http: path });
      const sink = await started(transport);
      const sends = Array.from({ length: 40 }, (_, id) => transport.send({ jsonrpc: "2.0", id, method: "ping" }));
      await new Promise((r) => setTimeout(r, 100));
      await transport.close();
      await Promise.all(sends); // aborted by close(): each send settles quietly
      await new Promise((r) => setTimeout(r, 20));
      expect(sink.messages).toEqual([]);
      expect(warnings.filter((w) => w.name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });
});

describe.each(REQUEST_PATHS)("a JSON answer over %s", (path) => {
  it("decodes UTF-8 characters cut across chunks whole", async () => {
    const transport = new StreamableHttpClientTransport(url, { openGetStream: false, http: path });
    const answer = await request(transport, await started(transport), 1, "split", {});
    expect(answer["result"]).toEqual({ text: "café crème" });
    await transport.close();
  });
});

describe("the node:http requester with a signal shared by many requests", () => {
  it("leaves no abort listener behind once each answer's body is read or dropped", async () => {
    const { request: send, close } = nodeRequester({ maxSockets: 4 });
    const shared = new AbortController();
    const post = (id: number) =>
      send(new URL(url), { method: "POST", headers: {}, body: JSON.stringify({ id }), signal: shared.signal });
    for (let id = 1; id <= 12; id++) await (await post(id)).text();
    for (let id = 13; id <= 24; id++) await (await post(id)).readText(() => undefined);
    for (let id = 25; id <= 36; id++) await (await post(id)).cancel();
    expect(getEventListeners(shared.signal, "abort")).toHaveLength(0);
    close();
  });

  it("ends a request in flight when the signal aborts", async () => {
    delayMs = 2000;
    const { request: send, close } = nodeRequester({ maxSockets: 4 });
    const abort = new RequestAbort();
    const answer = send(new URL(url), { method: "POST", headers: {}, body: '{"id":1}', signal: abort });
    setTimeout(() => abort.abort(), 50);
    const started = Date.now();
    await expect(answer).rejects.toThrow(/aborted/i);
    expect(Date.now() - started).toBeLessThan(1500);
    close();
  });
});

describe.each(REQUEST_PATHS)("an HTTP error over %s", (path) => {
  it("carries the status, body and headers (the bearer challenge)", async () => {
    const transport = new StreamableHttpClientTransport(url, { openGetStream: false, http: path });
    await transport.start(new CollectingSink());
    const failure = await transport.send({ jsonrpc: "2.0", id: 1, method: "deny" }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(HttpError);
    expect(failure).toMatchObject({ status: 401, body: "no" });
    expect((failure as HttpError).challenge).toEqual({ resource_metadata: "https://rs.example/prm", scope: "a b" });
    await transport.close();
  });
});
