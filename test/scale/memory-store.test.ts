/**
 * `memoryStateStore()` shared by two endpoints of one process behaves as one deployment (issue 24): a session opened on
 * one is served by the other, and DELETE on one ends it on both; an endpoint with a shared store refuses a server whose
 * tasks stay in its own memory. No Redis involved.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinRevisions, McpServer } from "../../runtime/index.ts";
import { memoryStateStore, serve, type RunningServer } from "../../runtime/http/index.ts";
import { McpHttpHandler } from "../../runtime/http/web-entry.ts";
import { tasks, type TaskStore } from "../../runtime/tasks/index.ts";

const V = "2025-11-25";
const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": V,
};

function instance(name: string): McpServer {
  return new McpServer({ info: { name: "mem", version: "1" }, revisions: builtinRevisions }).tool(
    { name: "whoami", inputSchema: { type: "object" } },
    () => ({ content: [{ type: "text", text: name }] }),
  );
}

let a: RunningServer;
let b: RunningServer;
beforeAll(async () => {
  const store = memoryStateStore({ instanceId: "a" });
  a = await serve(instance("a"), { store });
  b = await serve(instance("b"), { store: store.forInstance("b") });
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

async function post(url: string, body: object, session?: string): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: session ? { ...HEADERS, "mcp-session-id": session } : HEADERS,
    body: JSON.stringify(body),
  });
}

describe("two endpoints sharing one memoryStateStore", () => {
  it("serve one session: opened on A, served by B; deleted on B, gone on A", async () => {
    const params = { protocolVersion: V, capabilities: {}, clientInfo: { name: "raw", version: "1" } };
    const init = await post(a.url, { jsonrpc: "2.0", id: 1, method: "initialize", params });
    const session = init.headers.get("mcp-session-id")!;
    await init.text();
    await post(b.url, { jsonrpc: "2.0", method: "notifications/initialized" }, session);
    const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "whoami", arguments: {} } };
    for (const [url, name] of [
      [b.url, "b"],
      [a.url, "a"],
    ] as const) {
      const answer = await post(url, call, session);
      expect(answer.status).toBe(200);
      expect(JSON.stringify(await answer.json())).toContain(`"text":"${name}"`);
    }
    const deleted = await fetch(b.url, { method: "DELETE", headers: { ...HEADERS, "mcp-session-id": session } });
    expect(deleted.status).toBe(200);
    const gone = await post(a.url, { ...call, id: 3 }, session);
    expect(gone.status).toBe(404);
    await gone.text();
  });
});

describe("a shared store needs the server's tasks shared too", () => {
  const tasksServer = (store?: TaskStore) =>
    new McpServer({
      info: { name: "mem", version: "1" },
      revisions: builtinRevisions,
      extensions: [tasks(store ? { store } : {})],
    });

  it("refuses a server keeping its tasks in its own memory, and takes one on the store's task store", () => {
    const store = memoryStateStore();
    expect(() => new McpHttpHandler(tasksServer(), { store })).toThrow(/tasks\(\{ store: store\.tasks \}\)/);
    expect(() => new McpHttpHandler(tasksServer(), {})).not.toThrow(); // no shared state: in memory is right
    expect(() => new McpHttpHandler(tasksServer(store.tasks), { store: store.forInstance() })).not.toThrow();
  });
});
