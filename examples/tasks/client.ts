/**
 * Starts the tasks example server over stdio and calls build_report as a task through the typed client:
 * `npx tsx examples/tasks/client.ts`. The server's confirmation question is answered by the elicitation handler.
 */
import { builtinRevisions, McpClient } from "@mcp-gen/runtime";
import { tasksClient } from "@mcp-gen/runtime/tasks";
import { StdioClientTransport } from "@mcp-gen/runtime/node";
import { createClient } from "./generated/index.ts";

const raw = new McpClient({
  info: { name: "tasks-example-client", version: "1.0.0" },
  revisions: builtinRevisions,
  extensions: [tasksClient()], // opt in to Tasks
  handlers: { elicitation: () => ({ action: "accept", content: { name: "Ada" } }) },
  probeTimeoutMs: 60_000,
});
const server = new URL("server.ts", import.meta.url).pathname;
await raw.connect(new StdioClientTransport({ command: process.execPath, args: ["--import", "tsx", server] }));
const client = createClient(raw);

const report = await client.tasks.buildReport({ days: 10 });
report.onChange((task) => console.log(`${task.status}${task.statusMessage ? `: ${task.statusMessage}` : ""}`));
const { structuredContent } = await report.result(); // typed BuildReportOutput
console.log(`task ${report.taskId}: ${structuredContent.rows} rows, confirmed by ${structuredContent.confirmedBy}`);
await raw.close();
