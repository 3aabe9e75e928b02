/**
 * What an idle session keeps: a 2025-11-25 session that only did `initialize` + `notifications/initialized` holds no
 * collection it needs only while something is in flight or open: no table of server→client requests, of
 * `subscriptions/listen` streams or of resource subscriptions. Counted with the
 * inspector's `queryObjects` (live objects by prototype, after a GC) over many sessions, so one session's share is
 * exact; the peer is a bare in-memory transport, so nothing of a client is counted.
 */
import { Session as InspectorSession } from "node:inspector/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinRevisions, createMemoryTransportPair, McpServer, type Transport } from "../../../runtime/index.ts";

const SESSIONS = 50;
const inspector = new InspectorSession();

/** Live objects whose prototype is the value of `expression` (queryObjects collects garbage first). */
async function live(expression: string): Promise<number> {
  const proto = await inspector.post("Runtime.evaluate", { expression });
  const found = await inspector.post("Runtime.queryObjects", { prototypeObjectId: proto.result.objectId! });
  const length = await inspector.post("Runtime.callFunctionOn", {
    objectId: found.objects.objectId!,
    functionDeclaration: "function () { return this.length; }",
    returnByValue: true,
  });
  return length.result.value as number;
}

const counted = { maps: "Map.prototype", sets: "Set.prototype" } as const;
type Counts = Record<keyof typeof counted, number>;

async function counts(): Promise<Counts> {
  const out = {} as Counts;
  for (const [key, expression] of Object.entries(counted)) out[key as keyof Counts] = await live(expression);
  return out;
}

/** Opens an idle 2025-11-25 session on `server`: initialize, its answer, notifications/initialized. */
async function idleSession(server: McpServer, id: number, keep: Transport[]): Promise<void> {
  const [client, serverSide] = createMemoryTransportPair();
  let answered!: () => void;
  const answer = new Promise<void>((resolve) => (answered = resolve));
  await client.start({ receive: () => answered(), closed: () => undefined });
  await server.connect(serverSide);
  const params = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "idle", version: "1" } };
  await client.send({ jsonrpc: "2.0", id, method: "initialize", params });
  await answer;
  await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  keep.push(client);
}

describe("an idle session", () => {
  beforeAll(() => inspector.connect());
  afterAll(() => inspector.disconnect());

  it("holds no table of requests it never sent, streams it never opened or subscriptions it never made", async () => {
    const server = new McpServer({ revisions: builtinRevisions, info: { name: "idle", version: "1" } }).tool(
      { name: "add", inputSchema: { type: "object" } },
      () => ({ content: [] }),
    );
    const keep: Transport[] = [];
    for (let i = 0; i < 5; i++) await idleSession(server, i, keep); // warm: lazily made shared state
    const before = await counts();
    for (let i = 0; i < SESSIONS; i++) await idleSession(server, 100 + i, keep);
    const after = await counts();
    const perSession = (key: keyof Counts) => (after[key] - before[key]) / SESSIONS;
    expect(server.sessions.size).toBe(5 + SESSIONS);
    // The engine's incoming-request table is the one Map (it took the initialize request); no Set at all.
    expect({ maps: perSession("maps"), sets: perSession("sets") }).toEqual({ maps: 1, sets: 0 });
  });
});
