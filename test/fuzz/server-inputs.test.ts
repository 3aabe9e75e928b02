/**
 * Issue 20, server items 1–4 and 6, against test/fuzz/harness/hostile.ts as a real process over real sockets (the
 * web handler under Bun, item 5, is in web-bun.test.ts): each finding of the attack run as a test, then the
 * server-input properties (properties/server-inputs.ts) with fixed seeds (`npm run fuzz` runs them longer).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type ServerProcess } from "./harness/process.ts";
import { postFrame } from "./harness/peers.ts";
import {
  completionNames,
  connectionFlood,
  droppedBatches,
  initializeFrom,
  openSockets,
  postAndDrop,
  runningWaits,
  sessionOn,
  stillOpen,
  templateUris,
  waitBatch,
} from "./properties/server-inputs.ts";

const hostile = (server: Record<string, unknown> = {}, http: Record<string, unknown> = {}) =>
  startServer({
    mode: "http",
    launcher: "hostile.ts",
    env: { HOSTILE_SERVER: JSON.stringify(server), HOSTILE_HTTP: JSON.stringify(http) },
  });

describe("a server with default limits", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await hostile();
  }, 60_000);
  afterAll(() => server.stop());

  it("answers a 3,000-character URI against weather://{city}-{date}-{unit} at once (item 1)", async () => {
    const session = await sessionOn(server.url);
    const started = Date.now();
    const answer = await session.call("resources/read", { uri: `weather://${"-".repeat(2990)}` });
    expect(Date.now() - started).toBeLessThan(1_000);
    const contents = (answer["result"] as { contents: Array<{ text: string }> }).contents;
    expect(JSON.parse(contents[0]!.text)).toEqual({ city: "-".repeat(2986), date: "-", unit: "-" });
    const dotted = await session.call("resources/read", { uri: `${".".repeat(999)}!` });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(dotted["error"]).toBeDefined();
  });

  it("completes no argument named after an Object.prototype member (item 4)", async () => {
    const session = await sessionOn(server.url);
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      const answer = await session.call("completion/complete", {
        ref: { type: "ref/prompt", name: "greet" },
        argument: { name, value: "" },
      });
      expect(answer["result"], name).toEqual({ completion: { values: [], total: 0, hasMore: false } });
    }
  });

  it("answers -32602 for a 200,000-deep argument beside a valid requestState (item 6)", async () => {
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
    };
    const headers = { "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "ask" };
    const opening = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { _meta: meta, name: "ask", arguments: {} },
    };
    const first = (await postFrame(server.url, JSON.stringify(opening), headers)).answers[0]?.value as Record<
      string,
      unknown
    >;
    const state = (first["result"] as { requestState: string }).requestState;
    expect(typeof state).toBe("string");
    const deep = `${"[".repeat(200_000)}1${"]".repeat(200_000)}`;
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: {
        _meta: meta,
        name: "ask",
        arguments: { deep: "DEEP" },
        requestState: state,
        inputResponses: { "input-0": { action: "accept", content: { name: "x" } } },
      },
    }).replace('"DEEP"', deep);
    const answer = (await postFrame(server.url, body, headers)).answers[0]?.value as Record<string, unknown>;
    expect(answer["error"]).toMatchObject({ code: -32602 });
    expect(server.alive()).toBe(true);
  });

  it("keeps one address to its share of the connection budget (item 3)", async () => {
    const port = Number(new URL(server.url).port);
    const sockets = await openSockets(port, 150, "127.0.0.2");
    try {
      expect(await initializeFrom(port, "127.0.0.3")).toBe(200);
      expect(await stillOpen(sockets)).toBe(100);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  }, 60_000);
  it("keeps at most the cap of dropped batch members running, in a heap under twice a quiet one's (item 2)", async () => {
    const port = Number(new URL(server.url).port);
    const session = await sessionOn(server.url, "2025-03-26");
    const quiet = await server.heapAfterGc();
    // Five batches of 6,000 calls each (0.7 MiB), every one dropped as soon as it is sent.
    for (let i = 0; i < 5; i++) await postAndDrop(port, session.headers, waitBatch(6_000, 60_000, 1 + i * 6_000));
    await new Promise((r) => setTimeout(r, 1_000));
    const running = await runningWaits(server.url);
    expect(running).toBeLessThanOrEqual(256);
    expect(running).toBeGreaterThan(0);
    const flooded = await server.heapAfterGc();
    expect(flooded).toBeLessThan(2 * quiet);
    // Single POSTs whose client hangs up count too: the session is full, so none of them starts.
    for (let i = 0; i < 300; i++)
      await postAndDrop(port, session.headers, waitBatch(1, 60_000, 200_000 + i).slice(1, -1));
    expect(await runningWaits(server.url)).toBeLessThanOrEqual(256);
    expect(server.alive()).toBe(true);
  }, 120_000);
});

describe("limits set by option", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await hostile({ maxRequestsInFlight: 20 }, { maxConnections: 50, maxConnectionsPerAddress: 10 });
  }, 60_000);
  afterAll(() => server.stop());

  it("answers batch members beyond maxRequestsInFlight with -31429 and runs the others", async () => {
    const session = await sessionOn(server.url, "2025-03-26");
    const answer = await postFrame(server.url, waitBatch(30, 200), session.headers);
    const replies = answer.answers[0]?.value as Array<{ id: number; result?: unknown; error?: { code: number } }>;
    expect(replies).toHaveLength(30);
    expect(replies.filter((r) => r.result !== undefined)).toHaveLength(20);
    const refused = replies.filter((r) => r.error !== undefined);
    expect(refused).toHaveLength(10);
    for (const r of refused) expect(r.error).toMatchObject({ code: -31429, data: { limit: 20 } });
  });

  it("serves a second address while one holds all the sockets it may", async () => {
    const port = Number(new URL(server.url).port);
    const sockets = await openSockets(port, 50, "127.0.0.4");
    try {
      expect(await initializeFrom(port, "127.0.0.5")).toBe(200);
      expect(await stillOpen(sockets)).toBe(10);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });

  it("properties (fixed seed): completion names, template URIs, dropped batches, connection floods", async () => {
    await completionNames(server.url, { numRuns: 60, seed: 2020 });
    await templateUris(server.url, { numRuns: 15, seed: 2020 });
    await droppedBatches(server.url, 20, { numRuns: 4, seed: 2020 });
    await connectionFlood(server.url, 10, { numRuns: 5, seed: 2020 });
  }, 120_000);
});
