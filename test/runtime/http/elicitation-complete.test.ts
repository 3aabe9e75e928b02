/**
 * `ctx.completeElicitation` over Streamable HTTP (2025-11-25): during the request the notification rides the
 * request's SSE stream; after the request ended (the -32042 flow) it goes to the session's GET stream.
 */
import { afterEach, describe, expect, it } from "vitest";
import { builtinRevisions, McpClient, McpServer, RpcError, type RequestContext } from "../../../runtime/index.ts";
import { StreamableHttpClientTransport } from "../../../runtime/http/client/transport.ts";
import { serve, type RunningServer } from "../../../runtime/http/server/node.ts";
import { waitFor } from "./helpers.ts";

const URL_TO_OPEN = "https://auth.example.com/connect";

function completingServer() {
  const awaitingUser = new Map<string, RequestContext>();
  const mcp = new McpServer({ revisions: builtinRevisions, info: { name: "completing", version: "1" } });
  mcp.tool({ name: "connect", inputSchema: { type: "object" } }, async (_args, ctx) => {
    const answer = await ctx.elicit({ mode: "url", message: "Connect", url: URL_TO_OPEN, elicitationId: "el-1" });
    const sent = answer.action === "accept" && (await ctx.completeElicitation("el-1"));
    return { content: [{ type: "text", text: `sent: ${sent}` }] };
  });
  mcp.tool({ name: "needs-url", inputSchema: { type: "object" } }, (_args, ctx) => {
    awaitingUser.set("el-2", ctx);
    throw new RpcError(-32042, "This request requires more information.", {
      elicitations: [{ mode: "url", elicitationId: "el-2", url: URL_TO_OPEN, message: "Authorize access first" }],
    });
  });
  return { mcp, awaitingUser };
}

let running: RunningServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function connected() {
  const { mcp, awaitingUser } = completingServer();
  running = await serve(mcp, { retryMs: 50 });
  const client = new McpClient({
    info: { name: "http-client", version: "1" },
    revisions: builtinRevisions.filter((r) => ["2025-11-25"].includes(r.version)),
    capabilities: { elicitation: { url: {} } },
    handlers: { elicitation: () => ({ action: "accept" }) },
  });
  await client.connect(new StreamableHttpClientTransport(running.url, { reconnect: { initialDelayMs: 50 } }));
  const completed: unknown[] = [];
  client.on("notifications/elicitation/complete", (params) => completed.push(params));
  return { client, completed, awaitingUser };
}

describe("completeElicitation over Streamable HTTP (2025-11-25)", () => {
  it("arrives on the request's stream while the request runs", async () => {
    const { client, completed } = await connected();
    expect((await client.callTool("connect", {})).content).toEqual([{ type: "text", text: "sent: true" }]);
    // Same stream, ahead of the result: already delivered when the call resolves.
    expect(completed).toEqual([{ elicitationId: "el-1" }]);
    await client.close();
  });

  it("arrives on the GET stream after the request ended", async () => {
    const { client, completed, awaitingUser } = await connected();
    await expect(client.callTool("needs-url", {})).rejects.toMatchObject({ code: -32042 });
    const context = awaitingUser.get("el-2")!;
    // The GET stream opens in the background after notifications/initialized; a notification sent before it is open
    // has nowhere to go, so repeat it until one arrives (clients ignore already-completed ids).
    for (let i = 0; completed.length === 0 && i < 50; i++) {
      expect(await context.completeElicitation("el-2")).toBe(true);
      await waitFor(() => completed.length > 0, 200).catch(() => undefined);
    }
    expect(completed[0]).toEqual({ elicitationId: "el-2" });
    await client.close();
  });
});
