/**
 * Type tests of the generated task forms (examples/tasks: manifest `task`), checked by tsc (compile.test.ts): a tool
 * that may run as a task has a typed task form whose handle's result is the direct call's; a tool whose `task` is
 * `forbidden` has none. Every `@ts-expect-error` must be an error, or tsc reports the unused directive.
 */
import type { CallToolResult, StructuredToolCall } from "../../../runtime/index.ts";
import type { TaskHandle } from "../../../runtime/tasks/index.ts";
import type { BuildReportOutput, TypedClient } from "../../../examples/tasks/generated/index.ts";

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assertType = <T extends true>(value: T): T => value;

declare const client: TypedClient;

export async function uses(): Promise<void> {
  const report = await client.tasks.buildReport({ days: 3 });
  assertType<Equal<typeof report, TaskHandle<StructuredToolCall<BuildReportOutput>>>>(true);
  const { structuredContent } = await report.result();
  assertType<Equal<typeof structuredContent, BuildReportOutput>>(true);
  assertType<Equal<typeof report.taskId, string | undefined>>(true);
  const batch = await client.tasks.runBatch({ items: 2 });
  assertType<Equal<Awaited<ReturnType<typeof batch.result>>, CallToolResult>>(true);
  // The direct call of a task tool stays, with the same result as the handle's.
  assertType<Equal<Awaited<ReturnType<TypedClient["tools"]["buildReport"]>>, StructuredToolCall<BuildReportOutput>>>(
    true,
  );
}

export async function wrongUses(): Promise<void> {
  // @ts-expect-error ping's manifest `task` is forbidden (the default): it has no task form
  await client.tasks.ping({});
  // @ts-expect-error the task form takes the tool's input: `days` is a number
  await client.tasks.buildReport({ days: "3" });
  const report = await client.tasks.buildReport({ days: 3 });
  // @ts-expect-error the handle's result is the structured call, not the raw output
  const rows: number = (await report.result()).rows;
  void rows;
}
