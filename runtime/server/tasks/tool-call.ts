/**
 * The Tasks extension's part in `tools/call`: by the tool's `task` option and the request's own capabilities,
 * whether the call runs inline or as a task, or is refused with -32021 (a tool that requires tasks, called by a
 * request that did not declare the extension, before its handler runs).
 */
import { missingExtensionError } from "../../protocol/extensions.ts";
import type { RequestContext } from "../context.ts";
import type { TaskEngine } from "./engine.ts";
import type { ToolTaskOptions } from "./options.ts";
import { TASKS_EXTENSION_ID } from "./wire.ts";

/** `task`: the runtime makes the call a task before the handler runs; `inline`: the handler runs on the request. */
export function toolCallMode(
  name: string,
  task: ToolTaskOptions | undefined,
  tasks: TaskEngine | undefined,
  context: RequestContext,
): "task" | "inline" {
  const support = task?.support ?? "forbidden";
  if (support === "forbidden") return "inline";
  const accepted = tasks?.accepts(context) ?? false;
  if (support === "required" && !accepted)
    throw missingExtensionError(TASKS_EXTENSION_ID, `tool ${name} runs as a task only`);
  return accepted && task?.start !== "handler" ? "task" : "inline";
}
