/**
 * Revision negotiation in memory (runtime/client/negotiate.ts): the newest shared revision, the stateless era first,
 * the fall back to initialize on -32022 or a silent probe, and a clear failure when nothing is shared.
 */
import { describe, expect, it } from "vitest";
import { builtinRevisions, createMemoryTransportPair, McpClient } from "../../../runtime/index.ts";
import { createDemoServer } from "../fixtures/demo-server.ts";

describe("revision negotiation", () => {
  it("picks the newest mutually supported revision", async () => {
    const server = createDemoServer({
      revisions: builtinRevisions.filter((r) => ["2025-03-26", "2025-06-18"].includes(r.version)),
    });
    const [a, b] = createMemoryTransportPair();
    await server.connect(b);
    const client = new McpClient({ revisions: builtinRevisions, info: { name: "c", version: "1" } });
    await client.connect(a);
    expect(client.revision).toBe("2025-06-18");
  });

  it("prefers the stateless era when both sides speak it", async () => {
    const server = createDemoServer();
    const [a, b] = createMemoryTransportPair();
    await server.connect(b);
    const client = new McpClient({
      info: { name: "c", version: "1" },
      revisions: builtinRevisions.filter((r) => ["2025-11-25", "2026-07-28"].includes(r.version)),
    });
    await client.connect(a);
    expect(client.revision).toBe("2026-07-28");
  });

  it("falls back to initialize when the probe gets -32022 listing only handshake revisions", async () => {
    const server = createDemoServer({
      revisions: builtinRevisions.filter((r) => ["2025-06-18", "2025-11-25"].includes(r.version)),
    });
    const [a, b] = createMemoryTransportPair();
    await server.connect(b);
    const client = new McpClient({ revisions: builtinRevisions, info: { name: "c", version: "1" } });
    await client.connect(a);
    expect(client.revision).toBe("2025-11-25");
    expect(client.era).toBe("handshake");
  });

  it("fails clearly when nothing is shared", async () => {
    const server = createDemoServer({ revisions: builtinRevisions.filter((r) => ["2024-11-05"].includes(r.version)) });
    const [a, b] = createMemoryTransportPair();
    await server.connect(b);
    const client = new McpClient({
      info: { name: "c", version: "1" },
      revisions: builtinRevisions.filter((r) => ["2025-06-18"].includes(r.version)),
    });
    await expect(client.connect(a)).rejects.toThrow(/does not accept/);
  });
});

describe("probing a handshake-era server that stays silent", () => {
  it("falls back to initialize after the probe timeout", async () => {
    const { JsonRpcEngine } = await import("../../../runtime/advanced.ts");
    const [a, b] = createMemoryTransportPair();
    const seen: string[] = [];
    const handshakeOnly = new JsonRpcEngine(b, {
      onRequest: (request) => {
        seen.push(request.method);
        if (request.method === "server/discover") return new Promise(() => undefined); // never answers
        if (request.method === "initialize") {
          return {
            protocolVersion: "2025-06-18",
            capabilities: { tools: {} },
            serverInfo: { name: "silent", version: "1" },
          };
        }
        return {};
      },
      onNotification: (method) => seen.push(method),
    });
    await handshakeOnly.start();
    const diagnostics: string[] = [];
    const client = new McpClient({
      revisions: builtinRevisions,
      info: { name: "c", version: "1" },
      probeTimeoutMs: 50,
      onDiagnostic: (message) => diagnostics.push(message),
    });
    await client.connect(a);
    expect(client.revision).toBe("2025-06-18");
    expect(client.serverInfo?.name).toBe("silent");
    // The probe is not cancelled (a slow server's late answer must still arrive), and giving up on it is reported.
    expect(seen).toEqual(["server/discover", "initialize", "notifications/initialized"]);
    expect(diagnostics).toContain(
      "server/discover got no answer within 50 ms (probeTimeoutMs): assuming a handshake-era server and sending initialize",
    );
    await client.close();
  });
});
