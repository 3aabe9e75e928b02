/**
 * The tasks example server: over stdio (`npx tsx examples/tasks/server.ts`), or Streamable HTTP with `--http`
 * (prints its URL). `TASK_TTL_MS` sets how long a task is kept (the runtime's default: one hour).
 */
import { StdioServerTransport } from "@mcp-gen/runtime";
import { serve } from "@mcp-gen/runtime/http";
import { createServer } from "./generated/index.ts";
import { handlers } from "./handlers.ts";

const ttl = process.env["TASK_TTL_MS"];
const server = createServer(handlers, {
  ...(ttl ? { tasks: { ttlMs: Number(ttl), pollIntervalMs: 20 } } : { tasks: { pollIntervalMs: 20 } }),
  onDiagnostic: (message) => process.stderr.write(`tasks: ${message}\n`),
});
if (process.argv.includes("--http")) {
  const running = await serve(server);
  process.stdout.write(`${running.url}\n`);
} else {
  await server.connect(new StdioServerTransport());
}
