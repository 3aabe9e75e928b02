/**
 * The Tasks extension's part in `tools/call`: by the tool's task options and the request's own capabilities,
 * whether the call runs inline or as a task, or is refused with -32021 (a tool that requires tasks, called by a
 * request that did not declare the extension, before its handler runs). A tool's options are its
 * `ToolOptions.extensions[TASKS_EXTENSION_ID]` (`taskTool` writes them).
 */
import { missingExtensionError } from "../../protocol/extensions.ts";
import type { RequestContext } from "../../server/context.ts";
import type { ToolCallTarget } from "../../server/extension.ts";
import type { TaskEngine } from "./engine.ts";
import type { TaskSupport, ToolTaskOptions } from "./options.ts";
import { TASKS_EXTENSION_ID } from "./wire.ts";

const SUPPORT: ReadonlySet<unknown> = new Set<TaskSupport>(["forbidden", "optional", "required"]);
const START: ReadonlySet<unknown> = new Set([undefined, "call", "handler"]);

/** `ToolOptions.extensions` of a tool whose calls may run as tasks: `{ extensions: taskTool({ support: "optional" }) }`. */
export function taskTool(options: ToolTaskOptions): { readonly [TASKS_EXTENSION_ID]: ToolTaskOptions } {
  return { [TASKS_EXTENSION_ID]: options };
}

/** `TypedTools.extensions` of the tools whose calls may run as tasks, by tool name (what generated servers pass). */
export function taskTools(
  support: Readonly<Record<string, TaskSupport>>,
): Record<string, { readonly [TASKS_EXTENSION_ID]: ToolTaskOptions }> {
  // fromEntries: a tool named "__proto__" is an own key like any other.
  return Object.fromEntries(Object.entries(support).map(([name, value]) => [name, taskTool({ support: value })]));
}

/** The tool's task options (default `forbidden`); a malformed value is a registration mistake, named here. */
export function taskOptionsOf(tool: ToolCallTarget): ToolTaskOptions | undefined {
  const own = tool.extensions && Object.hasOwn(tool.extensions, TASKS_EXTENSION_ID);
  const options = own ? (tool.extensions![TASKS_EXTENSION_ID] as Partial<ToolTaskOptions> | undefined) : undefined;
  if (options === undefined) return undefined;
  if (typeof options !== "object" || options === null || !SUPPORT.has(options.support) || !START.has(options.start))
    throw new TypeError(
      `tool ${tool.name}: its ${TASKS_EXTENSION_ID} options must be { support: "forbidden" | "optional" | "required", start?: "call" | "handler" }`,
    );
  return options as ToolTaskOptions;
}

/** `task`: the runtime makes the call a task before the handler runs; `inline`: the handler runs on the request. */
export function toolCallMode(
  name: string,
  task: ToolTaskOptions | undefined,
  tasks: TaskEngine,
  context: RequestContext,
): "task" | "inline" {
  const support = task?.support ?? "forbidden";
  if (support === "forbidden") return "inline";
  const accepted = tasks.accepts(context);
  if (support === "required" && !accepted)
    throw missingExtensionError(TASKS_EXTENSION_ID, `tool ${name} runs as a task only`);
  return accepted && task?.start !== "handler" ? "task" : "inline";
}
