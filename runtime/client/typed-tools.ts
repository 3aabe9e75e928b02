/**
 * What typed clients build on, generated (`mcp-gen generate`) or written by hand: `tools/call` and `prompts/get` over a
 * connected `McpClient`. One error model for every typed call:
 *
 * - resolves only to a success: a tool's structured output validated against its schema (`callStructured`), or the
 *   tool's result (`callTool`);
 * - a tool that answers `isError: true` rejects with `ToolCallError` (the tool's name, its error `content` and the
 *   whole result), whether or not the tool has an `outputSchema`;
 * - the server refusing the request rejects with `RpcError` (JSON-RPC `code`, `message`, `data`: an unknown tool,
 *   invalid params, a missing resource…);
 * - an answer that breaks the schema rejects with `InvalidMessageError`; local failures with `RequestTimeoutError`,
 *   `RequestCancelledError`, `ConnectionClosedError` or `ProtocolUsageError`.
 *
 * `McpClient.callTool` itself stays the wire: it resolves to the result as the server sent it, `isError` included.
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

/** A tool answered `isError: true`: its error is `content` (what the model would read); `result` is all of it. */
export class ToolCallError extends Error {
  constructor(
    readonly tool: string,
    readonly result: CallToolResult,
  ) {
    const first: ContentBlock | undefined = result.content[0];
    super(`tool ${tool} failed${first?.type === "text" ? `: ${first.text}` : ""}`);
    this.name = "ToolCallError";
  }

  /** The tool's error content, as the server sent it. */
  get content(): readonly ContentBlock[] {
    return this.result.content;
  }
}

/** `tools/call` with typed arguments: the result, or `ToolCallError` when the tool answers `isError`. */
export async function callTool(
  client: McpClient,
  name: string,
  args: object,
  options?: CallOptions,
): Promise<CallToolResult> {
  return succeeded(name, await client.callTool(name, args as Readonly<Record<string, unknown>>, options));
}

/** `result`, or `ToolCallError` when the tool answered `isError` (the task forms of the Tasks entry reuse it). */
export function succeeded(name: string, result: CallToolResult): CallToolResult {
  if (result.isError === true) throw new ToolCallError(name, result);
  return result;
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
  options?: CallOptions,
): Promise<StructuredToolCall<Output>> {
  return structured(name, await callTool(client, name, args, options), validator);
}

/** `result`'s structured output checked by `validator` (see `callStructured`). */
export function structured<Output>(
  name: string,
  result: CallToolResult,
  validator: z.ZodMiniType<Output>,
): StructuredToolCall<Output> {
  const parsed = validator.safeParse(succeeded(name, result).structuredContent);
  if (!parsed.success) throw new InvalidMessageError(`structuredContent of tool ${name}`, parsed.error.issues);
  return { structuredContent: parsed.data, result };
}

/** `prompts/get` with typed arguments. */
export function getPrompt(
  client: McpClient,
  name: string,
  args: object,
  options?: CallOptions,
): Promise<GetPromptResult> {
  return client.getPrompt(name, args as Readonly<Record<string, string>>, options);
}
