/**
 * The error model, end to end over real loopback HTTP.
 *
 * Server side: a resource or template handler that has nothing at a URI throws `ResourceNotFoundError` and the client
 * gets the spec's resource-not-found error of the revision it speaks (-32002 up to 2025-11-25, -32602 in 2026-07-28:
 * server/resources.mdx "Error Handling" of each revision) with the handler's message and `data.uri`; an `RpcError`
 * passes through as written; any other exception is `-32603 Internal error`, its text kept off the wire. The official
 * SDK clients (v1 at 2025-11-25, v2 pinned to 2026-07-28) are the peers.
 *
 * Client side: the typed helpers (what generated clients call, and what a hand-written typed client uses) resolve only
 * to successes; a tool's `isError` rejects with `ToolCallError` carrying the tool's error content, with or without an
 * outputSchema; a protocol error rejects with `RpcError`.
 */
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import * as z from "zod/mini";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  builtinRevisions,
  callStructured,
  callTool,
  McpClient,
  McpServer,
  ResourceNotFoundError,
  RpcError,
  ToolCallError,
} from "../../../runtime/index.ts";
import { StreamableHttpClientTransport } from "../../../runtime/http/client/transport.ts";
import { serve, type RunningServer } from "../../../runtime/http/server/node.ts";

const ITEMS: Readonly<Record<string, string>> = { "1": "first item" };

function errorServer(): McpServer {
  const server = new McpServer({ revisions: builtinRevisions, info: { name: "errors", version: "1.0.0" } });
  server.resourceTemplate({ uriTemplate: "item://{id}", name: "item" }, (uri, { id = "" }) => {
    const text = ITEMS[id];
    if (text === undefined) throw new ResourceNotFoundError(uri, `No item with id ${id}`);
    return { contents: [{ uri, text }] };
  });
  server.resource({ uri: "note://gone", name: "gone" }, (uri) => {
    throw new ResourceNotFoundError(uri);
  });
  server.resource({ uri: "note://locked", name: "locked" }, () => {
    throw new RpcError(-32001, "Locked: ask the owner", { owner: "ada" });
  });
  server.resource({ uri: "note://broken", name: "broken" }, () => {
    throw new Error("db password is hunter2");
  });
  server.tool({ name: "fails", inputSchema: { type: "object" } }, () => ({
    content: [{ type: "text", text: "no such city" }],
    isError: true,
  }));
  server.tool(
    {
      name: "fails-structured",
      inputSchema: { type: "object" },
      outputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
    },
    () => ({ content: [{ type: "text", text: "quota exceeded" }], isError: true }),
  );
  server.tool(
    {
      name: "count",
      inputSchema: { type: "object" },
      outputSchema: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
    },
    () => ({ content: [{ type: "text", text: "3" }], structuredContent: { n: 3 } }),
  );
  return server;
}

let running: RunningServer;
beforeAll(async () => {
  running = await serve(errorServer());
});
afterAll(async () => {
  await running.close();
});

/** The rejection of `promise` (fails the test when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<{ code: number; message: string; data?: unknown }> {
  const error: unknown = await promise.then(
    () => new Error("expected a rejection"),
    (e: unknown) => e,
  );
  if (!(error instanceof Error) || !("code" in error)) throw error;
  return error as Error & { code: number; data?: unknown };
}

const SERVER_SIDE = [
  ["item://2", "No item with id 2"],
  ["note://gone", "Resource not found: note://gone"],
] as const;

describe("a handler's resource-not-found error reaches the official SDK clients", () => {
  it("SDK v1 (2025-11-25): -32002 with the handler's message and data.uri", async () => {
    const client = new ClientV1({ name: "sdk-v1", version: "1.0.0" });
    const transport = new TransportV1(new URL(running.url));
    await client.connect(transport);
    try {
      expect(transport.protocolVersion).toBe("2025-11-25");
      expect((await client.readResource({ uri: "item://1" })).contents).toEqual([
        { uri: "item://1", text: "first item" },
      ]);
      for (const [uri, message] of SERVER_SIDE) {
        const error = await rejection(client.readResource({ uri }));
        expect(error.code).toBe(-32002);
        expect(error.message).toContain(message);
        expect(error.data).toEqual({ uri });
      }
      const unknown = await rejection(client.readResource({ uri: "nothing://here" }));
      expect([unknown.code, unknown.data]).toEqual([-32002, { uri: "nothing://here" }]);
    } finally {
      await client.close();
    }
  });

  it("SDK v2 (2026-07-28): -32602 with the handler's message and data.uri", async () => {
    const client = new ClientV2(
      { name: "sdk-v2", version: "2.0.0" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    await client.connect(new TransportV2(new URL(running.url)));
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
      for (const [uri, message] of SERVER_SIDE) {
        const error = await rejection(client.readResource({ uri }));
        expect(error.code).toBe(-32602);
        expect(error.message).toContain(message);
        expect(error.data).toEqual({ uri });
      }
    } finally {
      await client.close();
    }
  });

  it("an RpcError passes through as written; any other exception is -32603 without its text", async () => {
    const client = new ClientV1({ name: "sdk-v1", version: "1.0.0" });
    await client.connect(new TransportV1(new URL(running.url)));
    try {
      const locked = await rejection(client.readResource({ uri: "note://locked" }));
      expect([locked.code, locked.data]).toEqual([-32001, { owner: "ada" }]);
      expect(locked.message).toContain("Locked: ask the owner");
      const broken = await rejection(client.readResource({ uri: "note://broken" }));
      expect(broken.code).toBe(-32603);
      expect(broken.message).toContain("Internal error");
      expect(broken.message).not.toContain("hunter2");
    } finally {
      await client.close();
    }
  });
});

describe("typed calls: one error model with or without an outputSchema", () => {
  for (const revision of ["2025-11-25", "2026-07-28"]) {
    it(`${revision}: isError rejects with ToolCallError carrying the content; protocol errors with RpcError`, async () => {
      const client = new McpClient({
        info: { name: "typed", version: "1.0.0" },
        revisions: builtinRevisions.filter((r) => r.version === revision),
      });
      await client.connect(new StreamableHttpClientTransport(running.url));
      try {
        const Count = z.object({ n: z.number() });
        expect((await callStructured(client, "count", {}, Count)).structuredContent).toEqual({ n: 3 });
        for (const [call, text] of [
          [callTool(client, "fails", {}), "no such city"],
          [callStructured(client, "fails-structured", {}, Count), "quota exceeded"],
        ] as const) {
          const error: unknown = await call.then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(error).toBeInstanceOf(ToolCallError);
          const failed = error as ToolCallError;
          expect(failed.content).toEqual([{ type: "text", text }]);
          expect(failed.result.isError).toBe(true);
          expect(failed.message).toContain(text);
        }
        const unknownTool = await callTool(client, "nope", {}).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(unknownTool).toBeInstanceOf(RpcError);
        expect((unknownTool as RpcError).code).toBe(-32602);
        const missing = await client.readResource("item://9").then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(missing).toBeInstanceOf(RpcError);
        expect((missing as RpcError).code).toBe(revision === "2026-07-28" ? -32602 : -32002);
        expect((missing as RpcError).message).toBe("No item with id 9");
        // The untyped call is the wire: the isError result as the server sent it.
        expect((await client.callTool("fails", {})).isError).toBe(true);
      } finally {
        await client.close();
      }
    });
  }
});
