/** Interop: the official SDK v1 `Client` (a real peer) against our stdio server, one handshake revision at a time. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SUPPORTED_REVISIONS } from "../../runtime/index.ts";
import { getProfile } from "./builtin-lookup.ts";

const SERVER = fileURLToPath(new URL("./fixtures/stdio-server.ts", import.meta.url));
const HANDSHAKE = SUPPORTED_REVISIONS.filter((r) => getProfile(r)!.era === "handshake");

describe.each(HANDSHAKE)("SDK v1 client ↔ our stdio server at %s", (revision) => {
  it("negotiates the revision and uses every feature", async () => {
    const client = new Client(
      { name: "v1-client", version: "1.0.0" },
      { capabilities: { sampling: {}, roots: {}, elicitation: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, async (request) => ({
      action: "accept",
      content: request.params.message.includes("name") ? { name: "Grace" } : { city: "Rome" },
    }));
    client.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: "assistant",
      content: { type: "text", text: "v1" },
      model: "m",
    }));
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: "file:///v1" }] }));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ["--import", "tsx", SERVER, revision],
      stderr: "pipe",
    });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: "demo-server", version: "1.0.0" });
      const served = await client.callTool({ name: "log", arguments: {} });
      expect(served.content).toEqual([{ type: "text", text: `${revision}/handshake/v1-client` }]);

      const page1 = await client.listTools();
      expect(page1.tools.map((t) => t.name)).toEqual(["add", "slow"]);
      const page2 = await client.listTools({ cursor: page1.nextCursor! });
      expect(page2.tools.map((t) => t.name)).toEqual(["ask", "sample-and-roots"]);

      const sum = await client.callTool({ name: "add", arguments: { a: 4, b: 5 } });
      expect(sum.structuredContent).toEqual({ sum: 9 });
      const progress: number[] = [];
      await client.callTool({ name: "slow", arguments: { steps: 3, stepMs: 10 } }, undefined, {
        onprogress: (p) => progress.push(p.progress),
      });
      // v1 dispatches notifications on a later microtask than responses, so the last update (sent right before the
      // response) can lose the race on its side; the earlier ones must arrive in order.
      expect(progress.slice(0, 2)).toEqual([1, 2]);

      const both = await client.callTool({ name: "sample-and-roots", arguments: {} });
      expect(both.content).toEqual([{ type: "text", text: "v1|file:///v1" }]);
      if (getProfile(revision)!.methods["elicitation/create"]) {
        expect((await client.callTool({ name: "ask", arguments: {} })).content).toEqual([
          { type: "text", text: "Grace from Rome" },
        ]);
      }
      const failed = await client.callTool({ name: "fail", arguments: {} });
      expect(failed.isError).toBe(true);

      expect((await client.readResource({ uri: "demo://items/7" })).contents).toEqual([
        { uri: "demo://items/7", text: "item 7" },
      ]);
      expect((await client.listResourceTemplates()).resourceTemplates[0]?.uriTemplate).toBe("demo://items/{id}");
      const prompt = await client.getPrompt({ name: "greet", arguments: { who: "v1" } });
      expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "Hello v1" });
      const completion = await client.complete({
        ref: { type: "ref/resource", uri: "demo://items/{id}" },
        argument: { name: "id", value: "1" },
      });
      expect(completion.completion.values).toEqual(["1", "10"]);
      await client.setLoggingLevel("error");
      await client.ping();
      await expect(client.callTool({ name: "protocol-fail", arguments: {} })).rejects.toThrow(/bad thing/);
    } finally {
      await client.close();
    }
  });
});
