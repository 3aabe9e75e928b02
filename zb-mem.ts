import { z } from "zod";
import { createMemoryTransportPair, McpClient, McpServer } from "./runtime/index.ts";
const revision = process.argv[2] ?? "2025-11-25";
const server = new McpServer({ info: { name: "b", version: "1" } }).tool(
  { name: "add", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] } },
  ({ a, b }: { a: number; b: number }) => ({ content: [{ type: "text", text: String(a + b) }] }),
  { arguments: z.object({ a: z.number(), b: z.number() }) },
);
const [ct, st] = createMemoryTransportPair();
await server.connect(st);
const client = new McpClient({ info: { name: "c", version: "1" }, revisions: [revision] } as never);
await client.connect(ct);
for (let i = 0; i < 20000; i++) await client.callTool("add", { a: 1, b: 2 });
const N = 100000;
const t = performance.now();
for (let i = 0; i < N; i++) await client.callTool("add", { a: 1, b: 2 });
console.log(revision, (((performance.now() - t) * 1000) / N).toFixed(2), "µs/call");
process.exit(0);
