/**
 * The Tasks extension's conformance tools (shared/notes/tasks.md §1: names, arguments and texts are the ones the
 * suite's `tasks-*` scenarios call and check), registered with their task support. The server must list the Tasks
 * extension (`tasks()` of `@mcp-gen/runtime/tasks`) in `extensions`: a tool's task options are refused otherwise.
 */
import { RpcError, type ContentBlock, type McpServer, type RequestContext } from "@mcp-gen/runtime";
import { runAsTask, taskTool } from "@mcp-gen/runtime/tasks";

const text = (value: string): { content: ContentBlock[] } => ({ content: [{ type: "text", text: value }] });
const object = (properties: Record<string, unknown> = {}, required: string[] = []) => ({
  type: "object" as const,
  properties,
  ...(required.length > 0 ? { required } : {}),
});

/** Resolves after `ms`, or rejects when `signal` aborts (a cancelled task stops sleeping). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason as Error)), { once: true });
  });
}

function confirmation(context: RequestContext, message: string, key?: string) {
  const requestedSchema = {
    type: "object" as const,
    properties: { confirm: { type: "boolean" as const } },
    required: ["confirm"],
  };
  return context.elicit({ message, requestedSchema }, key === undefined ? {} : { key });
}

export function registerTaskTools(server: McpServer): McpServer {
  server.tool(
    {
      name: "greet",
      description: "Greets synchronously.",
      inputSchema: object({ name: { type: "string" } }, ["name"]),
    },
    (args: { name: string }) => text(`Hello, ${args.name}!`),
  );
  server.tool(
    {
      name: "slow_compute",
      description: "Sleeps for `seconds`, then answers; a task when the client declares Tasks.",
      inputSchema: object({ seconds: { type: "integer", minimum: 0 }, label: { type: "string" } }, ["seconds"]),
    },
    async (args: { seconds: number; label?: string }, context) => {
      await sleep(args.seconds * 1000, context.signal);
      return text(`${args.label ?? "computed"}: done after ${args.seconds} s`);
    },
    { extensions: taskTool({ support: "optional" }) },
  );
  server.tool(
    { name: "failing_job", description: "Ends with a tool error after a second.", inputSchema: object() },
    async (_args, context) => {
      await sleep(1000, context.signal);
      return { ...text("The job failed: the input could not be processed"), isError: true };
    },
    { extensions: taskTool({ support: "required" }) },
  );
  server.tool(
    { name: "protocol_error_job", description: "Fails with a JSON-RPC error.", inputSchema: object() },
    () => {
      throw new RpcError(-32603, "The job hit an internal error");
    },
    { extensions: taskTool({ support: "optional" }) },
  );
  server.tool(
    {
      name: "confirm_delete",
      description: "Asks for confirmation before deleting.",
      inputSchema: object({ filename: { type: "string" } }, ["filename"]),
    },
    async (args: { filename: string }, context) => {
      const answer = await confirmation(context, `Delete ${args.filename}?`);
      const confirmed = answer.action === "accept" && answer.content?.["confirm"] === true;
      return text(confirmed ? `Deleted ${args.filename}` : `Kept ${args.filename}`);
    },
    { extensions: taskTool({ support: "optional" }) },
  );
  server.tool(
    { name: "multi_input", description: "Asks two questions at once.", inputSchema: object() },
    async (_args, context) => {
      const [first, second] = await Promise.all([
        confirmation(context, "Proceed with step one?", "step_one"),
        confirmation(context, "Proceed with step two?", "step_two"),
      ]);
      return text(`step one: ${first.action}, step two: ${second.action}`);
    },
    { extensions: taskTool({ support: "optional" }) },
  );
  server.tool(
    { name: "test_tool_with_task", description: "Asks a name, then works as a task.", inputSchema: object() },
    async (_args, context) => {
      const answer = await context.elicit(
        {
          message: "What is your name?",
          requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
        },
        { key: "user_name" },
      );
      const name = typeof answer.content?.["name"] === "string" ? answer.content["name"] : "stranger";
      return runAsTask(context, async (task) => {
        await sleep(200, task.signal);
        return text(`Hello, ${name}! The task is done.`);
      });
    },
    { extensions: taskTool({ support: "required", start: "handler" }) },
  );
  return server;
}
