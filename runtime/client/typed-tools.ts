/**
 * What generated clients (`mcp-gen generate`) build on: typed `tools/call` and `prompts/get` over a connected
 * `McpClient`. Structured outputs are validated before they are returned; a tool error becomes `ToolCallError`.
 */
import type { CallToolResult, ContentBlock, GetPromptResult } from "../protocol/builtin-types.ts";
import type * as z from "zod/mini";
import { InvalidMessageError } from "../protocol/validation.ts";
import type { CallOptions, McpClient } from "./client.ts";

/** A successful call of a tool with an `outputSchema`: the validated structured output and the whole result. */
export interface StructuredToolCall<Output> {
  readonly structuredContent: Output;
  readonly result: CallToolResult;
}

/** Thrown when a tool with an `outputSchema` answers `isError: true` (the result is kept). */
export class ToolCallError extends Error {
  constructor(
    readonly tool: string,
    readonly result: CallToolResult,
  ) {
    const first: ContentBlock | undefined = result.content[0];
    super(`tool ${tool} failed${first?.type === "text" ? `: ${first.text}` : ""}`);
    this.name = "ToolCallError";
  }
}

/** `tools/call` with typed arguments. */
export function callTool(
  client: McpClient,
  name: string,
  args: object,
  options: CallOptions | undefined,
): Promise<CallToolResult> {
  return client.callTool(name, args as Readonly<Record<string, unknown>>, options);
}

/**
 * `tools/call` of a tool with an `outputSchema`: throws `ToolCallError` on `isError` and `InvalidMessageError` when
 * `structuredContent` does not match the schema. The validator is a zod type of exactly `Output` (the generated
 * validators are declared so), which tsc relates without looking into zod's parse result types.
 */
export async function callStructured<Output>(
  client: McpClient,
  name: string,
  args: object,
  validator: z.ZodMiniType<Output>,
  options: CallOptions | undefined,
): Promise<StructuredToolCall<Output>> {
  const result = await callTool(client, name, args, options);
  if (result.isError === true) throw new ToolCallError(name, result);
  const parsed = validator.safeParse(result.structuredContent);
  if (!parsed.success) throw new InvalidMessageError(`structuredContent of tool ${name}`, parsed.error.issues);
  return { structuredContent: parsed.data, result };
}

/** `prompts/get` with typed arguments. */
export function getPrompt(
  client: McpClient,
  name: string,
  args: object,
  options: CallOptions | undefined,
): Promise<GetPromptResult> {
  return client.getPrompt(name, args as Readonly<Record<string, string>>, options);
}
