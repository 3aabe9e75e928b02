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
import { nodeArgs } from "../fixture-run.ts";

const SERVER = fileURLToPath(new URL("./fixtures/stdio-server.ts", import.meta.url));
const HANDSHAKE = SUPPORTED_REVISIONS.filter((r) => getProfile(r)!.era === "handshake");

type WireMessage = { id?: unknown; method?: string; params?: { progressToken?: unknown; progress?: number } };

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
      args: [...nodeArgs(SERVER), revision],
      stderr: "pipe",
    });
    // Every message as it comes off the wire, in order: the SDK's Protocol calls a handler set before connect() first.
    const wire: WireMessage[] = [];
    transport.onmessage = (message) => void wire.push(message as WireMessage);
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
      // Our server sent the three updates, with the token v1 asked with (its request id), in order, before the result.
      const answered = wire.findLastIndex((m) => "result" in m);
      const updates = wire
        .slice(0, answered)
        .filter((m) => m.method === "notifications/progress" && m.params?.progressToken === wire[answered]!.id);
      expect(updates.map((m) => m.params?.progress)).toEqual([1, 2, 3]);
      // v1 dispatches a notification a microtask after reading it but forgets the token as soon as it reads the
      // response, so it drops every update that came in the same read as the response (on a loaded machine, even the
      // first ones): what reaches the callback is the updates in order, possibly without a tail.
      expect(progress).toEqual([1, 2, 3].slice(0, progress.length));

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
