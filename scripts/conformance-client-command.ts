/**
 * The client the conformance suite drives (`<command> <serverUrl>`, scenario in MCP_CONFORMANCE_SCENARIO, extra data in
 * MCP_CONFORMANCE_CONTEXT): the runtime's `McpClient` with **default options** over `StreamableHttpClientTransport`,
 * doing what a generic host does — connect (negotiating the revision itself), list tools, call them (with the
 * arguments the context names, else with the required arguments each tool's schema asks for), and answer
 * elicitation/sampling/roots. Exits non-zero on any error.
 */
import { McpClient, type ElicitResult } from "../runtime/index.ts";
import { StreamableHttpClientTransport } from "../runtime/http/index.ts";

interface ToolCall {
  readonly name: string;
  readonly arguments?: Record<string, unknown>;
}
interface ListedTool {
  readonly name: string;
  readonly inputSchema?: { readonly properties?: Record<string, { type?: unknown; default?: unknown }>; readonly required?: readonly string[] };
}

const url = process.argv.at(-1)!;
const scenario = process.env["MCP_CONFORMANCE_SCENARIO"] ?? "";
const context = JSON.parse(process.env["MCP_CONFORMANCE_CONTEXT"] ?? "{}") as { toolCalls?: readonly ToolCall[] };

/** A value of the schema's type (numbers for `number`, the default where one is given). */
function sample(schema: { type?: unknown; default?: unknown } | undefined): unknown {
  if (schema && "default" in schema) return schema.default;
  switch (schema?.type) {
    case "number":
    case "integer":
      return 1;
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
      return {};
    default:
      return "conformance";
  }
}

function argumentsFor(tool: ListedTool): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const name of tool.inputSchema?.required ?? []) args[name] = sample(tool.inputSchema?.properties?.[name]);
  return args;
}

async function main(): Promise<void> {
  const client = new McpClient({
    info: { name: "mcp-gen-conformance-client", version: "1.0.0" },
    handlers: {
      // Accept with nothing filled in: the runtime's SEP-1034 defaults complete the form.
      elicitation: (): ElicitResult => ({ action: "accept", content: {} }),
      sampling: (params) => ({ role: "assistant", content: { type: "text", text: `answer to ${params.messages.length} message(s)` }, model: "conformance" }),
      roots: () => ({ roots: [{ uri: "file:///conformance", name: "conformance" }] }),
    },
  });
  await client.connect(new StreamableHttpClientTransport(url));
  try {
    const tools = client.serverCapabilities["tools"] ? ((await client.listTools()).tools as readonly ListedTool[]) : [];
    const calls: readonly ToolCall[] = context.toolCalls ?? tools.map((t) => ({ name: t.name, arguments: argumentsFor(t) }));
    for (const call of calls) await client.callTool(call.name, call.arguments ?? {});
  } finally {
    await client.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`conformance client (${scenario}): ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
