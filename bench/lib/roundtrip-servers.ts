/**
 * The servers of bench/runtime-roundtrip.ts, each with one `add` tool: this runtime's McpServer, the official SDK v1
 * and v2 servers (made in the bench's process for the in-memory scenarios), and a bare newline-JSON echo. Run as a
 * child process, this file serves one of them over stdio: `node --import tsx bench/lib/roundtrip-servers.ts
 * <ours|v1|v2|echo|echo-modern>`. Each server imports only the packages it is made of, so a child loads no other
 * implementation's modules (start-up is not measured; the bench's figures are taken after it).
 */
import type { McpServer as V1Server } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { McpServer as V2Server } from "@modelcontextprotocol/server";
import type { McpServer } from "../../runtime/index.ts";
import { fileURLToPath } from "node:url";
import { ADD_TOOL, addArguments } from "./add-tool.ts";

export const addResult = (a: number, b: number) => ({
  content: [{ type: "text" as const, text: String(a + b) }],
  structuredContent: { sum: a + b },
});

/** The `_meta` a 2026-07-28 result carries (the spec says SHOULD for server info). */
const SERVER_META = { "io.modelcontextprotocol/serverInfo": { name: "bench", version: "1" } };
const modernAddResult = (a: number, b: number) => ({ ...addResult(a, b), resultType: "complete", _meta: SERVER_META });

export async function oursServer(): Promise<McpServer> {
  const [{ z }, { builtinRevisions, McpServer }] = await Promise.all([import("zod"), import("../../runtime/index.ts")]);
  return new McpServer({ revisions: builtinRevisions, info: { name: "bench", version: "1" } }).tool(
    ADD_TOOL,
    ({ a, b }) => addResult(a, b),
    {
      arguments: addArguments(z),
    },
  );
}

export async function v1Server(): Promise<V1Server> {
  const [{ z }, { McpServer }] = await Promise.all([import("zod"), import("@modelcontextprotocol/sdk/server/mcp.js")]);
  const server = new McpServer({ name: "bench", version: "1" });
  server.registerTool("add", { inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => addResult(a, b));
  return server;
}

export async function v2Server(): Promise<V2Server> {
  const [{ z }, { McpServer }] = await Promise.all([import("zod"), import("@modelcontextprotocol/server")]);
  const server = new McpServer({ name: "bench", version: "1" }, { capabilities: { tools: {} } });
  server.registerTool("add", { inputSchema: z.object({ a: z.number(), b: z.number() }) }, async ({ a, b }) =>
    addResult(a, b),
  );
  return server;
}

/**
 * No MCP at all: answers each `tools/call` line with its result line (`modern`: a 2026-07-28 result). Its writes go
 * through the runtime's own `LineWriter` (the first line of a turn at once, the rest joined), so the floor it sets
 * is the best a stdio peer can do with that write policy, not one a runtime beats by joining writes.
 */
async function echo(modern: boolean): Promise<void> {
  const [{ LineDecoder }, { LineWriter }] = await Promise.all([
    import("../../runtime/jsonrpc/framing.ts"),
    import("../../runtime/transport/streams.ts"),
  ]);
  const decoder = new LineDecoder();
  const writer = new LineWriter(process.stdout);
  process.stdin.on("data", (chunk: Buffer) => {
    for (const line of decoder.push(chunk)) {
      const request = JSON.parse(line as string) as { id: number; params: { arguments: { a: number; b: number } } };
      const { a, b } = request.params.arguments;
      const result = modern ? modernAddResult(a, b) : addResult(a, b);
      void writer.write({ jsonrpc: "2.0", id: request.id, result });
    }
  });
}

async function serve(kind: string | undefined): Promise<void> {
  if (kind === "ours") {
    const { StdioServerTransport } = await import("../../runtime/index.ts");
    await (await oursServer()).connect(new StdioServerTransport());
  } else if (kind === "v1") {
    const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
    await (await v1Server()).connect(new StdioServerTransport());
  } else if (kind === "v2") {
    const { serveStdio } = await import("@modelcontextprotocol/server/stdio");
    serveStdio(() => v2Server());
  } else if (kind === "echo" || kind === "echo-modern") await echo(kind === "echo-modern");
  else throw new Error("usage: roundtrip-servers.ts <ours|v1|v2|echo|echo-modern>");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await serve(process.argv[2]);
