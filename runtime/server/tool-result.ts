/**
 * How a tool handler's outcome becomes a `tools/call` result, the same whether the call is answered inline or as a
 * task: a throwing handler gives an `isError` result (the model can react); protocol errors pass through.
 */
import { RpcError } from "../jsonrpc/errors.ts";
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
