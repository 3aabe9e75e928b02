/** Interop at 2026-07-28 with the official SDK v2 packages, both directions, over stdio. */
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport as V2StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { builtinRevisions, McpClient, SUPPORTED_REVISIONS } from "../../runtime/index.ts";
import { StdioClientTransport } from "../../runtime/node.ts";
import { getProfile } from "./builtin-lookup.ts";
import { nodeArgs } from "../fixture-run.ts";

const OUR_SERVER = fileURLToPath(new URL("./fixtures/stdio-server.ts", import.meta.url));
const V2_SERVER = fileURLToPath(new URL("./fixtures/v2-server.ts", import.meta.url));
const STATELESS = SUPPORTED_REVISIONS.filter((r) => getProfile(r)!.era === "stateless");

describe.each(STATELESS)("SDK v2 client → our stdio server at %s", (revision) => {
  it("talks the stateless era, including a multi round-trip tool call", async () => {
    const client = new Client(
      { name: "v2-client", version: "2.0.0" },
      {
        capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
        versionNegotiation: { mode: { pin: revision } },
      },
    );
    let asked = 0;
    client.setRequestHandler("elicitation/create", async (request) => {
      asked++;
      const wantsName = JSON.stringify(request.params).includes("name");
      return { action: "accept", content: wantsName ? { name: "Lin" } : { city: "Kyoto" } };
    });
    client.setRequestHandler("sampling/createMessage", async () => ({
      role: "assistant",
      content: { type: "text", text: "v2s" },
      model: "m",
    }));
    client.setRequestHandler("roots/list", async () => ({ roots: [{ uri: "file:///v2" }] }));
    await client.connect(
      new V2StdioClientTransport({
        command: process.execPath,
        args: [...nodeArgs(OUR_SERVER), revision],
        stderr: "pipe",
      }),
    );
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(revision);
      expect(client.getProtocolEra()).toBe("modern");
      expect(client.getServerVersion()).toMatchObject({ name: "demo-server" });
      const tools = await client.listTools();
      // v2's listTools follows nextCursor itself (our server pages by 2).
      expect(tools.tools.map((t) => t.name)).toEqual([
        "add",
        "slow",
        "ask",
        "sample-and-roots",
        "fail",
        "protocol-fail",
        "log",
      ]);
      expect((await client.callTool({ name: "add", arguments: { a: 1, b: 2 } })).structuredContent).toEqual({ sum: 3 });
      const served = await client.callTool({ name: "log", arguments: {} });
      expect(served.content).toEqual([{ type: "text", text: `${revision}/stateless/v2-client` }]);
      expect((await client.callTool({ name: "ask", arguments: {} })).content).toEqual([
        { type: "text", text: "Lin from Kyoto" },
      ]);
      expect(asked).toBe(2);
      expect((await client.callTool({ name: "sample-and-roots", arguments: {} })).content).toEqual([
        { type: "text", text: "v2s|file:///v2" },
      ]);
      expect((await client.readResource({ uri: "demo://readme" })).contents[0]).toMatchObject({ text: "hello" });
      expect((await client.getPrompt({ name: "greet", arguments: { who: "v2" } })).messages[0]?.content).toEqual({
        type: "text",
        text: "Hello v2",
      });
      const discovered = await client.discover();
      expect(discovered.supportedVersions).toContain(revision);
    } finally {
      await client.close();
    }
  });
});

describe.each(STATELESS)("our client → SDK v2 stdio server at %s", (revision) => {
  it("negotiates the stateless era and answers input requests with the same handlers", async () => {
    const elicited: string[] = [];
    const client = new McpClient({
      revisions: builtinRevisions,
      info: { name: "mcp-gen", version: "1" },
      handlers: {
        elicitation: (params) => (elicited.push(params.message), { action: "accept", content: { confirm: true } }),
      },
    });
    await client.connect(
      new StdioClientTransport({ command: process.execPath, args: nodeArgs(V2_SERVER), stderr: "pipe" }),
    );
    try {
      expect(client.revision).toBe(revision);
      expect(client.era).toBe("stateless");
      expect(client.serverInfo).toMatchObject({ name: "v2-server" });
      expect((await client.listAllTools()).map((t) => t.name)).toEqual(["add", "confirm"]);
      expect((await client.callTool("add", { a: 5, b: 6 })).content).toEqual([{ type: "text", text: "11" }]);
      expect((await client.callTool("confirm", { env: "prod" })).content).toEqual([
        { type: "text", text: "deployed to prod" },
      ]);
      expect(elicited).toEqual(["Deploy to prod?"]);
      expect((await client.readResource("v2://readme")).contents[0]).toMatchObject({ text: "v2 readme" });
      expect((await client.getPrompt("hello", { who: "us" })).messages[0]?.content).toEqual({
        type: "text",
        text: "hello us",
      });
    } finally {
      await client.close();
    }
  });
});
