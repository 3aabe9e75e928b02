/**
 * How a tool handler's outcome becomes a `tools/call` result, the same whether the call is answered inline or as a
 * task: a throwing handler gives an `isError` result (the model can react); protocol errors pass through; a
 * structured result is checked against the tool's output validator.
 */
import { RpcError } from "../jsonrpc/errors.ts";
import type { CallToolResult } from "../protocol/builtin-types.ts";
import { formatIssues, type Validator } from "../protocol/validation.ts";
import { InputRequiredSignal } from "./mrtr.ts";

type Result = Record<string, unknown>;

/** A throwing tool handler gives an `isError` result; `RpcError` and the MRTR input signal are rethrown. */
export function toolFailure(error: unknown): Result {
  if (error instanceof RpcError || error instanceof InputRequiredSignal) throw error;
  return toolError(error instanceof Error ? error.message : String(error));
}

export function toolError(text: string): Result {
  return { content: [{ type: "text", text }], isError: true };
}

/**
 * Checks a non-error result's `structuredContent` against the tool's output validator (throws, naming the tool and
 * what failed where: the handler broke its own `outputSchema`) and fills in `content` when the handler left it out.
 */
export function checkToolOutput(tool: string, result: CallToolResult, validator: Validator<unknown>): CallToolResult {
  if (result.isError === true) return result;
  const parsed = validator.safeParse(result.structuredContent);
  if (!parsed.success) {
    throw new Error(
      `tool ${tool} returned structuredContent that does not match its outputSchema: ` +
        formatIssues(parsed.error.issues, "structuredContent"),
    );
  }
  // `content` is optional in `StructuredToolResult` only; the wire result always has it. Per call, so Object.assign:
  // `{ ...result, content }` is V8's slow path (~2 µs on Node 20).
  const content = (result as { readonly content?: CallToolResult["content"] }).content;
  if (content) return result;
  return Object.assign({}, result, {
    content: [{ type: "text" as const, text: JSON.stringify(result.structuredContent) }],
  });
}
