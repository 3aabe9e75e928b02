/** Interop: our client against the official `server-everything` (SDK v1 based, handshake era) over stdio. */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { builtinRevisions, McpClient, ProtocolUsageError } from "../../runtime/index.ts";
import { StdioClientTransport } from "../../runtime/node.ts";
import { textOf } from "../text-of.ts";

const require = createRequire(import.meta.url);
const pkgPath = require.resolve("@modelcontextprotocol/server-everything/package.json");
const pkg = require(pkgPath) as { bin: Record<string, string> };
const BIN = join(dirname(pkgPath), Object.values(pkg.bin)[0]!);

describe("our client ↔ server-everything (stdio)", () => {
  it("negotiates, lists and calls tools, reads resources, gets prompts", async () => {
    const client = new McpClient({ revisions: builtinRevisions, info: { name: "mcp-gen-client", version: "1" } });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [BIN, "stdio"], stderr: "pipe" }));
    try {
      // It does not speak the stateless era: the server/discover probe fails and initialize follows.
      expect(client.era).toBe("handshake");
      expect(client.serverInfo?.name).toBeTruthy();
      await client.ping();

      const tools = await client.listAllTools();
      expect(tools.map((t) => t.name)).toEqual(
        expect.arrayContaining(["echo", "get-sum", "trigger-long-running-operation"]),
      );
      expect(await client.callTool("echo", { message: "hi" })).toMatchObject({
        content: [{ type: "text", text: "Echo: hi" }],
      });
      expect(JSON.stringify((await client.callTool("get-sum", { a: 2, b: 40 })).content)).toContain("42");
      const progress: number[] = [];
      await client.callTool(
        "trigger-long-running-operation",
        { duration: 0.2, steps: 2 },
        { onProgress: (u) => progress.push(u.progress) },
      );
      expect(progress).toEqual([1, 2]);

      const resources = await client.listAllResources();
      expect(resources.length).toBeGreaterThan(0);
      for (const resource of resources) {
        const read = await client.readResource(resource.uri);
        expect(read.contents[0]?.uri).toBe(resource.uri);
      }
      const templates = await client.listAllResourceTemplates();
      expect(templates.length).toBeGreaterThan(0);
      expect(textOf((await client.readResource("demo://resource/dynamic/text/1")).contents[0])).toContain("Resource 1");

      const prompts = await client.listAllPrompts();
      expect(prompts.map((p) => p.name)).toEqual(expect.arrayContaining(["simple-prompt", "args-prompt"]));
      const prompt = await client.getPrompt("args-prompt", { city: "Paris" });
      expect(JSON.stringify(prompt.messages)).toContain("Paris");
      const completion = await client.complete({
        ref: { type: "ref/prompt", name: "completable-prompt" },
        argument: { name: "department", value: "E" },
      });
      expect(completion.completion.values).toEqual(["Engineering"]);
      await client.setLogLevel("error");
      await expect(client.discover()).rejects.toBeInstanceOf(ProtocolUsageError);
    } finally {
      await client.close();
    }
  });
});
