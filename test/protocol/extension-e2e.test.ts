/**
 * The generated Tasks extension bindings (runtime/generated/extensions/tasks, from the extension's own schema.ts) in use: the
 * runtime server and client both list the generated `extension` descriptor, negotiate
 * `io.modelcontextprotocol/tasks` through `capabilities.extensions`, and the client calls `tasks/get` typed by the
 * generated token — in memory and over Streamable HTTP, in the 2026-07-28 revision the extension builds on.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  builtinRevisions,
  createMemoryTransportPair,
  McpClient,
  McpServer,
  ProtocolUsageError,
  type ClientExtension,
  type ServerExtension,
} from "../../runtime/index.ts";
import { StreamableHttpClientTransport } from "../../runtime/http/index.ts";
import { serve } from "../../runtime/http/server/node.ts";
import { extension, methods, type GetTaskResult } from "../../runtime/generated/extensions/tasks/index.ts";

const REVISION = "2026-07-28";
const ID = "io.modelcontextprotocol/tasks";

function tasksServer(declares: boolean): { server: McpServer; asked: string[] } {
  const asked: string[] = [];
  const server = new McpServer({
    revisions: builtinRevisions,
    info: { name: "tasks-server", version: "1" },
    ...(declares ? { extensions: [extension satisfies ServerExtension] } : {}),
  });
  if (declares) {
    server.setRequestHandler(methods["tasks/get"], ({ taskId }): GetTaskResult => {
      asked.push(taskId);
      return {
        resultType: "complete",
        taskId,
        status: "completed",
        createdAt: "2026-08-01T00:00:00Z",
        lastUpdatedAt: "2026-08-01T00:00:05Z",
        ttlMs: null,
        result: { content: [{ type: "text", text: "done" }] },
      };
    });
  }
  return { server, asked };
}

function tasksClient(): McpClient {
  return new McpClient({
    info: { name: "tasks-client", version: "1" },
    revisions: builtinRevisions.filter((r) => r.version === REVISION),
    extensions: [extension satisfies ClientExtension],
  });
}

describe("the generated Tasks extension between the runtime client and server", () => {
  it("is the extension the spec names, with its methods", () => {
    expect(extension.id).toBe(ID);
    expect(Object.keys(extension.methods).sort()).toEqual([
      "notifications/tasks",
      "tasks/cancel",
      "tasks/get",
      "tasks/update",
    ]);
  });

  it("negotiates the extension and calls tasks/get in memory, typed by the generated token", async () => {
    const { server, asked } = tasksServer(true);
    const [a, b] = createMemoryTransportPair();
    await server.connect(b);
    const client = tasksClient();
    await client.connect(a);
    expect(client.revision).toBe(REVISION);
    expect(client.capabilities).toEqual({ extensions: { [ID]: {} } });
    expect(client.serverCapabilities["extensions"]).toEqual({ [ID]: {} });
    const result = await client.request(methods["tasks/get"], { taskId: "t-1" });
    expectTypeOf(result).toEqualTypeOf<GetTaskResult>();
    expect(result).toMatchObject({ taskId: "t-1", status: "completed", resultType: "complete" });
    if (result.status === "completed") expect(result.result).toEqual({ content: [{ type: "text", text: "done" }] });
    expect(asked).toEqual(["t-1"]);
    // @ts-expect-error tasks/get needs a taskId (the generated params type)
    await expect(client.request(methods["tasks/get"], {})).rejects.toThrow();
    expect(asked).toEqual(["t-1"]);
    await client.close();
  });

  it("refuses tasks/get locally when the server does not negotiate the extension", async () => {
    const { server, asked } = tasksServer(false);
    const [a, b] = createMemoryTransportPair();
    await server.connect(b);
    const client = tasksClient();
    await client.connect(a);
    await expect(client.request(methods["tasks/get"], { taskId: "t-1" })).rejects.toBeInstanceOf(ProtocolUsageError);
    expect(asked).toEqual([]);
    await client.close();
  });

  it("calls tasks/get over Streamable HTTP", async () => {
    const { server, asked } = tasksServer(true);
    const running = await serve(server);
    try {
      const client = tasksClient();
      await client.connect(new StreamableHttpClientTransport(running.url));
      const result = await client.request(methods["tasks/get"], { taskId: "t-http" });
      expect(result).toMatchObject({ taskId: "t-http", status: "completed" });
      expect(asked).toEqual(["t-http"]);
      await client.close();
    } finally {
      await running.close();
    }
  });
});
