/**
 * Revisions are values, over a real transport (Streamable HTTP on loopback, raw `fetch` as the client so the oracle is
 * the wire, not our client):
 * - a server given two revisions answers a client asking for a third with the spec's answer: in the handshake era
 *   `initialize` gets the server's own choice (lifecycle.mdx: the server responds with another version it supports,
 *   its latest), in the stateless era the request gets `UnsupportedProtocolVersionError` (-32022) naming both;
 * - nothing is process-wide: two servers in one process, configured with different descriptors of the same wire
 *   version (a copy without batches), each keep their own (before, the last one configured won for every server).
 */
import { afterAll, describe, expect, it } from "vitest";
import { revision as r2025_03_26 } from "../../runtime/generated/protocol/2025-03-26/index.ts";
import { revision as r2025_06_18 } from "../../runtime/generated/protocol/2025-06-18/index.ts";
import { revision as r2025_11_25 } from "../../runtime/generated/protocol/2025-11-25/index.ts";
import { revision as r2026_07_28 } from "../../runtime/generated/protocol/2026-07-28/index.ts";
import { serve, type RunningServer } from "../../runtime/http/server/node.ts";
import type { RevisionDescriptor } from "../../runtime/protocol/method-type.ts";
import { McpServer } from "../../runtime/server/server.ts";

const running: RunningServer[] = [];
afterAll(() => Promise.all(running.map((r) => r.close())));

async function served(revisions: readonly RevisionDescriptor[]): Promise<string> {
  const server = new McpServer({ info: { name: "values", version: "1.0.0" }, revisions });
  const r = await serve(server, { legacySse: false });
  running.push(r);
  return r.url;
}

const HEADERS = { "content-type": "application/json", accept: "application/json, text/event-stream" };
const clientInfo = { name: "raw", version: "1" };

async function post(url: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: "POST",
    headers: { ...HEADERS, ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as unknown) : undefined };
}

function initialize(version: string) {
  return {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: version, capabilities: {}, clientInfo },
  };
}

/** Opens a handshake-era session at `version` and returns its id. */
async function session(url: string, version: string): Promise<string> {
  const opened = await post(url, initialize(version));
  expect(opened.status).toBe(200);
  const id = opened.headers.get("mcp-session-id");
  expect(id).toBeTruthy();
  const headers = { "mcp-session-id": id!, "mcp-protocol-version": version };
  expect((await post(url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers)).status).toBe(202);
  return id!;
}

describe("a server given two revisions, asked for a third", () => {
  it("handshake era: initialize at an unserved version gets the server's newest handshake revision", async () => {
    const url = await served([r2025_06_18, r2025_11_25]);
    const answer = await post(url, initialize(r2025_03_26.version));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: 1, result: { protocolVersion: "2025-11-25" } });
  });

  it("stateless era: a request at an unserved version gets -32022 naming the served ones", async () => {
    const url = await served([r2026_07_28, r2025_11_25]);
    const third = "2099-01-01";
    const meta = {
      "io.modelcontextprotocol/protocolVersion": third,
      "io.modelcontextprotocol/clientInfo": clientInfo,
      "io.modelcontextprotocol/clientCapabilities": {},
    };
    const answer = await post(
      url,
      { jsonrpc: "2.0", id: 7, method: "tools/list", params: { _meta: meta } },
      { "mcp-protocol-version": third, "mcp-method": "tools/list" },
    );
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ id: 7, error: { code: -32022 } });
    const data = (answer.body as { error: { data: { supported: string[]; requested: string } } }).error.data;
    expect([...data.supported].sort()).toEqual(["2025-11-25", "2026-07-28"]);
    expect(data.requested).toBe(third);
  });
});

describe("two servers in one process", () => {
  it("each decide batching from their own descriptors of the same wire version", async () => {
    const withBatches = await served([r2025_03_26]);
    // A user's copy of 2025-03-26 without batches, configured after the first server.
    const withoutBatches = await served([{ ...r2025_03_26, name: "no-batches", batches: false }]);
    const batch = [
      { jsonrpc: "2.0", id: 2, method: "ping" },
      { jsonrpc: "2.0", id: 3, method: "ping" },
    ];
    const headersOf = (id: string) => ({ "mcp-session-id": id, "mcp-protocol-version": "2025-03-26" });

    const a = await post(withBatches, batch, headersOf(await session(withBatches, "2025-03-26")));
    expect(a.status).toBe(200);
    expect(a.body).toEqual([
      { jsonrpc: "2.0", id: 2, result: {} },
      { jsonrpc: "2.0", id: 3, result: {} },
    ]);

    const b = await post(withoutBatches, batch, headersOf(await session(withoutBatches, "2025-03-26")));
    expect(b.status).toBe(400);
    expect(b.body).toMatchObject({ error: { code: -32600, message: expect.stringMatching(/has no batches/) } });
  });
});
