/**
 * The reconnect after a POST's SSE stream breaks is timed from the stream's end, as the server's `retry` asks: the
 * next request's headers (a token refresh, say) are built while the delay runs, not after it. A raw loopback server
 * records when it ended the stream and when the GET arrived; the client's header source takes longer than `retry`.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readPostStream } from "../../../../runtime/http/client/post-stream.ts";
import { httpClientEra } from "../../../../runtime/http/client/era.ts";
import { fetchRequester, RequestAbort } from "../../../../runtime/http/client/requester.ts";
import type { Message } from "../../../../runtime/http/client/options.ts";

const RETRY_MS = 300;
const HEADERS_MS = 400;

let raw: Server | undefined;
afterEach(() => {
  raw?.close();
  raw = undefined;
});

describe("reconnecting a broken POST stream", () => {
  it("sends the resuming GET about `retry` after the stream ended, though building its headers takes longer", async () => {
    let endedAt = 0;
    let getAt = 0;
    let lastEventId: string | undefined;
    raw = createServer((req, res) => {
      if (req.method === "POST") {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(`id: ev-1\nretry: ${RETRY_MS}\ndata: \n\n`);
        setTimeout(() => {
          endedAt = performance.now();
          res.end();
        }, 20);
        return;
      }
      getAt = performance.now();
      lastEventId = req.headers["last-event-id"] as string | undefined;
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(`id: ev-2\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: 1, result: { ok: true } })}\n\n`);
    });
    await new Promise<void>((resolve) => raw!.listen(0, "127.0.0.1", resolve));
    const url = new URL(`http://127.0.0.1:${(raw.address() as AddressInfo).port}/mcp`);
    const request = fetchRequester(fetch);
    const transportAbort = new AbortController();
    const context = {
      url,
      request,
      signal: transportAbort.signal,
      reconnect: undefined,
      // A header source as slow as a token refresh: slower than the server's retry.
      headers: () => new Promise<Record<string, string>>((resolve) => setTimeout(() => resolve({}), HEADERS_MS)),
    };
    const body = await request(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    const delivered: Message[] = [];
    await readPostStream(context, body, 1, httpClientEra("handshake"), new RequestAbort(), {
      deliver: (message) => delivered.push(message),
      fail: (id, reason) => delivered.push({ jsonrpc: "2.0", id, error: { code: -1, message: reason } }),
      malformed: () => undefined,
    });
    transportAbort.abort();

    expect(delivered).toEqual([{ jsonrpc: "2.0", id: 1, result: { ok: true } }]);
    expect(lastEventId).toBe("ev-1");
    const waited = getAt - endedAt;
    // Never before the server's retry (a few ms of clock granularity aside) ...
    expect(waited).toBeGreaterThanOrEqual(RETRY_MS - 5);
    // ... and not retry + the header work (≥ 700 ms when the headers are built after the delay).
    expect(waited).toBeLessThan(RETRY_MS + HEADERS_MS - 50);
  });
});
