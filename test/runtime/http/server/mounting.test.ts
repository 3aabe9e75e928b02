/** The mounting snippets of docs/deploying.md, run: the handler inside Hono (web Request/Response) and inside Express (node:http). */
import { afterAll, describe, expect, it } from "vitest";
import { createRequire } from "node:module";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Hono } from "hono";
// As docs/deploying.md imports them: the handler from /http/web, the node:http edge from /http.
import { McpHttpHandler, toFetchHandler } from "../../../../runtime/http/web-entry.ts";
import { toNodeListener } from "../../../../runtime/http/index.ts";
import { FixtureHost } from "../fixtures/fixture-host.ts";
import { initializeMessage, JSON_HEADERS, post } from "../helpers.ts";

// Express ships no types and the project does not add @types/express for one test: describe the little used here.
interface ExpressApp {
  all(path: string, handler: (req: unknown, res: unknown) => void): void;
  listen(port: number, host: string, done: () => void): Server;
}
const express = createRequire(import.meta.url)("express") as () => ExpressApp;

const handlers: McpHttpHandler[] = [];
afterAll(async () => {
  await Promise.all(handlers.map((h) => h.close()));
});

describe("mounting", () => {
  it("in Hono: app.all('/mcp', (c) => toFetchHandler(handler)(c.req.raw))", async () => {
    const handler = new McpHttpHandler(new FixtureHost());
    handlers.push(handler);
    const app = new Hono();
    app.all("/mcp", (c) => toFetchHandler(handler)(c.req.raw));
    const response = await app.request("http://localhost/mcp", {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify(initializeMessage(1)),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("mcp-session-id")).toBeTruthy();
    expect(await response.json()).toMatchObject({ id: 1, result: { serverInfo: { name: "fixture" } } });
  });

  it("in Express: app.all('/mcp', toNodeListener(handler))", async () => {
    const handler = new McpHttpHandler(new FixtureHost());
    handlers.push(handler);
    const app = express();
    app.all("/mcp", toNodeListener(handler) as (req: unknown, res: unknown) => void);
    const server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
      const response = await post(url, initializeMessage(1));
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ id: 1, result: { serverInfo: { name: "fixture" } } });
    } finally {
      server.close();
    }
  });
});
