/**
 * Both halves of the Tasks extension together: the runtime's McpClient (listing the extension) against the server
 * process over Streamable HTTP. The server's side is checked by hand-written JSON-RPC elsewhere in this folder; here
 * the client follows the server's tasks to the same results.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinRevisions, McpClient } from "../../../../runtime/index.ts";
import { StreamableHttpClientTransport } from "../../../../runtime/http/index.ts";
import { callToolAsTask, tasksClient } from "../../../../runtime/tasks/index.ts";
import { httpFixture } from "./wire-peer.ts";

describe("McpClient with the Tasks extension against the server process", () => {
  let fixture: Awaited<ReturnType<typeof httpFixture>>;
  let client: McpClient;
  beforeAll(async () => {
    fixture = await httpFixture();
    client = new McpClient({
      info: { name: "tasks-client", version: "1" },
      revisions: builtinRevisions.filter((r) => r.version === "2026-07-28"),
      extensions: [tasksClient()],
      handlers: { elicitation: () => ({ action: "accept", content: { confirm: true } }) },
    });
    await client.connect(new StreamableHttpClientTransport(new URL(fixture.url)));
  }, 60_000);
  afterAll(async () => {
    await client.close();
    await fixture.close();
  });

  it("callTool follows a task to its result, answering its elicitation through the client's handler", async () => {
    const result = await client.callTool("confirm_delete", { filename: "report.txt" });
    expect(result.content).toEqual([{ type: "text", text: "Deleted report.txt" }]);
  }, 20_000);

  it("callToolAsTask gives the task's handle; cancel ends it cancelled on the server", async () => {
    const handle = await callToolAsTask(client, "slow_compute", { seconds: 60 });
    expect(handle.taskId).toEqual(expect.any(String));
    expect(await handle.status()).toBe("working");
    await handle.cancel();
    expect(await handle.status()).toBe("cancelled");
  }, 20_000);
});
