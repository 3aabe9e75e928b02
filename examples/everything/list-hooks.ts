/**
 * The conformance suite's list-change hooks (server-stateless, SEP-2575): `test_trigger_tool_change` and
 * `test_trigger_prompt_change` each really change the server's tool or prompt list, so the runtime tells every
 * `subscriptions/listen` stream (and handshake-era session) `notifications/{tools,prompts}/list_changed`.
 * They need the server itself, so they are registered on it rather than declared in mcp.yaml.
 */
import type { ContentBlock, McpServer } from "@mcp-gen/runtime";

const text = (value: string): { content: ContentBlock[] } => ({ content: [{ type: "text", text: value }] });
const noArguments = { type: "object" as const, properties: {} };

/** Prompts the hook may add before it refuses (the server offers no prompt removal; this bounds the list). */
const MAX_ADDED_PROMPTS = 100;

export function registerListChangeHooks(server: McpServer): McpServer {
  const dynamicTool = "test_dynamic_tool";
  server.tool(
    {
      name: "test_trigger_tool_change",
      description: `Adds the tool ${dynamicTool}, or removes it when it is there (tools/list changes either way).`,
      inputSchema: noArguments,
    },
    () => {
      if (server.removeTool(dynamicTool)) return text(`Removed ${dynamicTool}`);
      server.tool(
        { name: dynamicTool, description: "Added by test_trigger_tool_change.", inputSchema: noArguments },
        () => text("The dynamic tool ran"),
      );
      return text(`Added ${dynamicTool}`);
    },
  );
  let added = 0;
  server.tool(
    {
      name: "test_trigger_prompt_change",
      description: `Adds a prompt test_dynamic_prompt_<n> (prompts/list changes); at most ${MAX_ADDED_PROMPTS}.`,
      inputSchema: noArguments,
    },
    () => {
      if (added >= MAX_ADDED_PROMPTS) return { ...text("No more prompts can be added"), isError: true };
      const name = `test_dynamic_prompt_${++added}`;
      server.prompt({ name, description: "Added by test_trigger_prompt_change." }, () => ({
        messages: [{ role: "user", content: { type: "text", text: `This is ${name}.` } }],
      }));
      return text(`Added ${name}`);
    },
  );
  return server;
}
