/**
 * The server `npm run conformance` tests: examples/everything (generated from its manifest, with its handlers)
 * served over HTTP on a free loopback port. Prints `MCP_URL=<url>` once listening; stops on SIGTERM.
 * (`npm run conformance -- --server <module>` runs the suite against another server script.)
 */
import { serve } from "../runtime/http/server/node.ts";
import { createServer } from "../examples/everything/generated/index.ts";
import { handlers } from "../examples/everything/handlers.ts";
import { registerTaskTools } from "../examples/everything/tasks.ts";
import { registerListChangeHooks } from "../examples/everything/list-hooks.ts";
import { tasks } from "../runtime/tasks/index.ts";

const server = createServer(handlers, {
  onDiagnostic: (m: string) => process.stderr.write(`everything: ${m}\n`),
  extensions: [tasks()], // the suite's tasks-* scenarios (examples/everything/tasks.ts registers their tools)
});
registerTaskTools(server);
registerListChangeHooks(server); // server-stateless's test_trigger_tool_change / test_trigger_prompt_change
// The suite is one client at one address opening a session per scenario: lift the per-client cap (default 100).
const running = await serve(server, {
  port: Number(process.env["PORT"] ?? 0),
  retryMs: 500,
  maxSessionsPerClient: 10_000,
});
process.stdout.write(`MCP_URL=${running.url}\n`);
process.once("SIGTERM", () => void running.close().then(() => process.exit(0)));
process.once("SIGINT", () => void running.close().then(() => process.exit(0)));
