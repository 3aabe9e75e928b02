/**
 * The client's elicitation mode gate (runtime/client): a URL-mode request the client did not declare is refused,
 * with -32602 from a handshake-era server (a declared form request is still answered) and without an answer to a
 * stateless-era input round (no retry with a made-up answer). The server side of URL mode:
 * test/runtime/server/elicitation-url.test.ts.
 */
import { describe, expect, it } from "vitest";
import {
  builtinRevisions,
  createMemoryTransportPair,
  McpClient,
  ProtocolUsageError,
  RpcError,
  type ClientRequestContext,
  type ElicitParams,
  type ElicitResult,
} from "../../../runtime/index.ts";
import { JsonRpcEngine } from "../../../runtime/advanced.ts";

const HANDSHAKE = "2025-11-25";
const STATELESS = "2026-07-28";
const URL = "https://auth.example.com/connect?session=opaque";

/** A typed handler that records what it was asked. */
function recorder(answer: ElicitResult) {
  const seen: Array<{ params: ElicitParams; context: ClientRequestContext }> = [];
  const elicitation = (params: ElicitParams, context: ClientRequestContext): ElicitResult => {
    seen.push({ params, context });
    return answer;
  };
  return { seen, elicitation };
}

describe("the client refuses a URL-mode request it did not declare", () => {
  it("answers -32602 to a handshake-era server that sends one anyway", async () => {
    const [a, b] = createMemoryTransportPair();
    let initialized!: () => void;
    const ready = new Promise<void>((resolve) => (initialized = resolve));
    const rogue = new JsonRpcEngine(b, {
      onRequest: (request) => {
        if (request.method === "initialize") {
          return {
            protocolVersion: HANDSHAKE,
            capabilities: { tools: {} },
            serverInfo: { name: "rogue", version: "1" },
          };
        }
        throw new RpcError(-32601, "Method not found");
      },
      onNotification: (method) => method === "notifications/initialized" && initialized(),
    });
    await rogue.start();
    const { seen, elicitation } = recorder({ action: "accept" });
    const client = new McpClient({
      info: { name: "c", version: "1" },
      revisions: builtinRevisions.filter((r) => r.version === HANDSHAKE),
      handlers: { elicitation },
    });
    await client.connect(a);
    await ready;
    const asked = rogue.request("elicitation/create", { mode: "url", message: "Go", url: URL, elicitationId: "x" });
    await expect(asked).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('"url"') });
    // Form mode is declared, so the same client answers a form request.
    const form = await rogue.request("elicitation/create", {
      message: "Name?",
      requestedSchema: { type: "object", properties: {} },
    });
    expect(form).toEqual({ action: "accept" });
    expect(seen.map((s) => s.params.mode)).toEqual([undefined]);
    await client.close();
  });

  it("does not answer a stateless-era input request for an undeclared mode", async () => {
    const [a, b] = createMemoryTransportPair();
    const calls: unknown[] = [];
    const rogue = new JsonRpcEngine(b, {
      onRequest: (request) => {
        if (request.method === "server/discover") {
          return {
            resultType: "complete",
            supportedVersions: [STATELESS],
            capabilities: { tools: {} },
            ttlMs: 0,
            cacheScope: "public",
          };
        }
        calls.push(request.params);
        return {
          resultType: "input_required",
          inputRequests: { go: { method: "elicitation/create", params: { mode: "url", message: "Go", url: URL } } },
        };
      },
      onNotification: () => undefined,
    });
    await rogue.start();
    const { seen, elicitation } = recorder({ action: "accept" });
    const client = new McpClient({
      info: { name: "c", version: "1" },
      revisions: builtinRevisions.filter((r) => r.version === STATELESS),
      handlers: { elicitation },
    });
    await client.connect(a);
    await expect(client.callTool("x", {})).rejects.toBeInstanceOf(ProtocolUsageError);
    expect(seen).toEqual([]);
    expect(calls).toHaveLength(1); // no retry with a made-up answer
    await client.close();
  });
});
